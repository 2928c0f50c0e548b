"""Property-based fuzzing of every documented operation through the WSGI app (no server needed).

Valid and invalid requests are generated from openapi.yaml; every answer must be documented, conform to
its schema and never be a 5xx. The default budget is small (runs in seconds); for a long run:

    FUZZ_EXAMPLES=10000 bin/test tests/test_fuzz_schemathesis.py
"""
from __future__ import annotations

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
    case.call_and_validate(checks=CHECKS)
