"""Reading openapi.yaml and validating JSON against its schemas (shared by the contract and error tests)."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ROOT = Path(__file__).resolve().parents[1]
SPEC_URI = "urn:seafarers-referee:openapi"


@functools.lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def _registry() -> Registry:
    return Registry().with_resource(SPEC_URI, Resource.from_contents(spec(), default_specification=DRAFT202012))


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def validator(pointer: str) -> Draft202012Validator:
    """A validator for the schema at ``pointer`` (e.g. ``/components/schemas/State``) of the spec."""
    return Draft202012Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=_registry(),
                                format_checker=FormatChecker())


def errors(instance: Any, pointer: str) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '/'}: {e.message}"
            for e in validator(pointer).iter_errors(instance)]


def resolve(obj: dict[str, Any]) -> dict[str, Any]:
    """Follow a local ``$ref`` (responses, examples) to the object it names."""
    while "$ref" in obj:
        node: Any = spec()
        for part in obj["$ref"].lstrip("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        obj = node
    return obj


def response_pointer(path: str, method: str, status: int, media_type: str) -> str:
    """The pointer of the documented response schema; fails clearly when it is not documented."""
    op = spec()["paths"].get(path, {}).get(method.lower())
    assert op is not None, f"{method.upper()} {path} is not in openapi.yaml"
    responses = op["responses"]
    assert str(status) in responses, f"{method.upper()} {path} answered {status}, which openapi.yaml does not list"
    resp = responses[str(status)]
    base = f"/paths/{_escape(path)}/{method.lower()}/responses/{status}"
    if "$ref" in resp:
        base = resp["$ref"].lstrip("#")
        resp = resolve(resp)
    assert media_type in resp.get("content", {}), (
        f"{method.upper()} {path} {status} answered {media_type}, openapi.yaml documents {list(resp.get('content', {}))}")
    return f"{base}/content/{_escape(media_type)}/schema"


def check_response(path: str, method: str, response) -> None:
    """Assert that a Flask test response is documented and its body validates against its schema."""
    media_type = response.mimetype
    pointer = response_pointer(path, method, response.status_code, media_type)
    body = response.get_json() if media_type.endswith("json") else response.get_data(as_text=True)
    problems = errors(body, pointer)
    assert not problems, f"{method.upper()} {path} {response.status_code} does not match openapi.yaml:\n" + \
        "\n".join(problems[:20])
