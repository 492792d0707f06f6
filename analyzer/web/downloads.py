"""A finished question's answer as a file to download: its tables as CSV (each under a
``# name`` line, as ``--format csv`` writes them) or its whole answer as JSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from starlette.responses import Response

from analyzer.errors import UserError
from analyzer.web.jobs import Job

FORMATS = ("csv", "json")


def tables_csv(answer: dict[str, Any]) -> str:
    """Every table of a JSON answer as CSV blocks."""
    parts = []
    for name, rows in (answer.get("tables") or {}).items():
        out = io.StringIO()
        columns = list(rows[0]) if rows else []
        writer = csv.DictWriter(out, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        parts.append(f"# {name}\n{out.getvalue()}")
    return "\n".join(parts)


def response(job: Job, fmt: str) -> Response:
    """The download of ``job``'s answer in ``fmt``."""
    if fmt not in FORMATS:
        raise UserError(f"unknown download format {fmt!r}; accepted: {', '.join(FORMATS)}")
    if job.state != "done" or not isinstance(job.answer, dict):
        raise UserError("this question has no answer yet")
    name = f"dicelab-{job.kind}.{fmt}"
    text = (tables_csv(job.answer) if fmt == "csv"
            else json.dumps(job.answer, indent=2) + "\n")
    return Response(text, media_type="text/csv" if fmt == "csv" else "application/json",
                    headers={"content-disposition": f'attachment; filename="{name}"'})
