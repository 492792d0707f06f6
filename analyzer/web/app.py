"""The web app's routes (Starlette): the pages, the catalogue of games, and questions as
jobs (``jobs``), each checked by ``forms`` before it runs."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from analyzer.errors import UserError, readable, shortened
from analyzer.web import catalogue, coach_sheet, downloads, forms
from analyzer.web.jobs import Busy, Jobs

STATIC = Path(__file__).resolve().parent / "static"
LARGEST_BODY = 256 * 1024  # bytes of a request: a sheet and a form are a few kilobytes
TAB_HEADER = "x-dicelab-tab"  # each tab's own random name: its jobs are its own


def _error(message: str, status: int = 400) -> JSONResponse:
    """A refusal: the one line the command line would print, without its "dicelab: error:"."""
    return JSONResponse({"error": shortened(readable(message))}, status_code=status)


def _tab(request: Request) -> str:
    tab = request.headers.get(TAB_HEADER, "")
    if not 8 <= len(tab) <= 64 or not tab.replace("-", "").isalnum():
        raise UserError(f"this page has no name of its own (the {TAB_HEADER} header): "
                        "reload it")
    return tab


async def _form(request: Request) -> dict[str, Any]:
    """The request's JSON object, of a bounded size."""
    body = await request.body()
    if len(body) > LARGEST_BODY:
        raise UserError(f"the request is larger than {LARGEST_BODY // 1024} kB")
    try:
        form = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise UserError("the request is not valid JSON") from None
    if not isinstance(form, dict):
        raise UserError("the request is not a JSON object")
    return form


def _answers(handler):
    """A route whose ``UserError`` is a 400 with its one line, and a full server a 429."""
    async def route(request: Request) -> Response:
        try:
            return await handler(request)
        except UserError as exc:
            return _error(str(exc))
        except Busy as exc:
            return _error(str(exc), 429)
    return route


async def index(request: Request) -> Response:
    return Response((STATIC / "index.html").read_bytes(), media_type="text/html")


async def games(request: Request) -> Response:
    return JSONResponse(catalogue.games())


async def ask(request: Request) -> Response:
    """Start a question: ``{"kind": ..., ...its form}``; answers the job."""
    tab, form = _tab(request), await _form(request)
    kind = forms.text(form, "kind")
    question = forms.asked(kind, form)
    job = await request.app.state.jobs.start(tab, kind, question.argv, question.files,
                                             question.finish)
    return JSONResponse(job.view(), status_code=202)


async def clever_sheet(request: Request) -> Response:
    """A Clever sheet as the coach draws it (``coach_sheet``)."""
    game = forms.text(dict(request.path_params), "game")
    forms.game_of({"game": game}, forms.CLEVER)
    return JSONResponse(coach_sheet.sheet_layout(game))


async def job(request: Request) -> Response:
    found = request.app.state.jobs.get(_tab(request), request.path_params["job"])
    return JSONResponse(found.view())


async def cancel(request: Request) -> Response:
    found = await request.app.state.jobs.cancel(_tab(request), request.path_params["job"])
    return JSONResponse(found.view())


async def download(request: Request) -> Response:
    """A finished job's tables as CSV, or its whole answer as JSON."""
    found = request.app.state.jobs.get(request.query_params.get("tab", ""),
                                       request.path_params["job"])
    return downloads.response(found, request.path_params["format"])


def create_app(jobs: Jobs | None = None) -> Starlette:
    """The app; ``jobs``: the job runner (a new one by default)."""
    @asynccontextmanager
    async def lifespan(app: Starlette):
        app.state.jobs = jobs or Jobs()
        yield
        await app.state.jobs.close()

    routes = [Route("/", index), Route("/api/games", _answers(games)),
              Route("/api/clever/{game}/sheet", _answers(clever_sheet)),
              Route("/api/jobs", _answers(ask), methods=["POST"]),
              Route("/api/jobs/{job}", _answers(job)),
              Route("/api/jobs/{job}", _answers(cancel), methods=["DELETE"]),
              Route("/api/jobs/{job}/answer.{format}", _answers(download)),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    return Starlette(routes=routes, lifespan=lifespan)
