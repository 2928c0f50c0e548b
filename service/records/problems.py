"""What a record cannot be read as: one exception, turned into problem+json at the HTTP boundary and into
a message and exit status by the command line."""
from __future__ import annotations

from typing import Optional


class RecordProblem(Exception):
    """A record this service cannot represent or read. ``errors`` name the part of the record at fault:
    ``pointer`` is a JSON pointer into the request (``/record/...``) and, for a text record, ``line`` is its
    1-based line number. ``kind`` ends the problem type URI (``record-unsupported``, ``record-malformed``)."""

    def __init__(self, detail: str, errors: Optional[list[dict]] = None, status: int = 422,
                 kind: str = "record-unsupported") -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = errors or []
        self.status = status
        self.kind = kind


def unsupported(pointer: str, detail: str, line: Optional[int] = None) -> RecordProblem:
    e: dict = {"pointer": pointer, "detail": detail}
    if line is not None:
        e["line"] = line
    where = f" (line {line})" if line is not None else ""
    return RecordProblem(f"the record cannot be represented at {pointer}{where}: {detail}", [e])


def malformed(pointer: str, detail: str, line: Optional[int] = None) -> RecordProblem:
    e: dict = {"pointer": pointer, "detail": detail}
    if line is not None:
        e["line"] = line
    where = f" (line {line})" if line is not None else ""
    return RecordProblem(f"the record is malformed at {pointer}{where}: {detail}", [e], kind="record-malformed")
