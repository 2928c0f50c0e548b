"""Property-based fuzzing of every documented operation through the WSGI app (no server needed).

Valid and invalid requests are generated from openapi.yaml; every answer must be documented, conform to
its schema and never be a 5xx. The default budget is small (runs in seconds); for a long run:

    FUZZ_EXAMPLES=10000 bin/test tests/test_fuzz_schemathesis.py
"""
from __future__ import annotations

import json
import os

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (content_type_conformance, negative_data_rejection, not_a_server_error,
                                 response_headers_conformance, response_schema_conformance,
                                 status_code_conformance)

from service.api import create_app

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))  # per operation and mode
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance, negative_data_rejection]



# NDJSON (POST /v1/batch, a streamed replay): a generated body is one line; of an answer, every line must
# be a JSON object and the first is checked against the documented schema of a line.
@schemathesis.serializer("application/x-ndjson")
def _ndjson(ctx, value):
    return (json.dumps(value) + "\n").encode()


@schemathesis.deserializer("application/x-ndjson")
def _ndjson_answer(ctx, response):
    lines = [json.loads(x) for x in response.content.splitlines() if x.strip()]
    if not lines:
        raise ValueError("an NDJSON answer with no line")
    if not all(isinstance(x, dict) for x in lines):
        raise ValueError("an NDJSON answer line that is not an object")
    return lines[0]


LONG_RUN = "FUZZ_EXAMPLES" in os.environ
config = schemathesis.Config.from_dict({
    "generation": {"max-examples": EXAMPLES, "deterministic": not LONG_RUN},
    # the coverage phase derives thousands of boundary cases from the state schema: long runs only
    "phases": {"coverage": {"enabled": LONG_RUN}},
})
schema = schemathesis.openapi.from_wsgi("/openapi.yaml", create_app({"TESTING": True}), config=config)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG_RUN,
          suppress_health_check=list(HealthCheck), database=None)
def test_every_operation_answers_as_documented(case):
    # a batch answers a line it cannot take in place, with that line's status (docs/batch.md): the batch
    # itself is 200, so it is not held to rejecting schema-violating data with a 4xx
    checks = CHECKS if case.operation.path != "/v1/batch" else [c for c in CHECKS if c is not negative_data_rejection]
    # (identity: the WSGI transport hands over a gzipped answer as it is; an HTTP client would unpack it)
    case.call_and_validate(checks=checks, headers={"Accept-Encoding": "identity"})
