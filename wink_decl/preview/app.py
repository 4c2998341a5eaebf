"""The preview's ASGI app: the page, its data, and a stream of changes fed by watchfiles."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from watchfiles import (
    awatch,  # pyright: ignore[reportUnknownVariableType]  # trio's Event in a union
)

from wink_decl.preview.files import PromptFolder
from wink_decl.preview.guard import OwnPageOnly, Site
from wink_decl.preview.html import file_list, view_json
from wink_decl.preview.page import prompt_view, state_from_json

__all__ = ["Hub", "create_app", "watch", "watched_paths"]

_STATIC = {
    "index.html": "text/html; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
    "page.js": "text/javascript; charset=utf-8",
}
"""Everything the page loads besides its data; nothing else is served from the package."""

_DEBOUNCE_MS = 50
"""watchfiles waits this long for more changes before it reports them (its default is 1.6 s)."""


class Hub:
    """Counts changes on disk and tells every open page about each one."""

    def __init__(self) -> None:
        self.version = 0
        self._queues: set[asyncio.Queue[int | None]] = set()

    def publish(self) -> None:
        """A change: every listening page hears the new version."""
        self.version += 1
        for queue in self._queues:
            queue.put_nowait(self.version)

    def close(self) -> None:
        """The server stops: every stream ends."""
        for queue in self._queues:
            queue.put_nowait(None)

    async def stream(self) -> AsyncIterator[str]:
        """Server-sent events: one ``data: VERSION`` event per change, until ``close``."""
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        self._queues.add(queue)
        try:
            yield f"retry: 500\ndata: {self.version}\n\n"
            while (version := await queue.get()) is not None:
                yield f"data: {version}\n\n"
        finally:
            self._queues.discard(queue)


async def watch(paths: list[Path], hub: Hub, stop: asyncio.Event) -> None:
    """Publish each batch of changes under ``paths`` until ``stop`` is set."""
    async for _changes in awatch(*paths, debounce=_DEBOUNCE_MS, stop_event=stop):
        hub.publish()


def create_app(folder: PromptFolder, where: Site) -> Starlette:
    """The app serving ``folder`` at ``where``: only its prompt files can be named from a URL.

    It answers only requests for ``where`` from its own page (``guard.refusal``).
    """
    hub = Hub()

    async def page(_request: Request) -> Response:
        return _static("index.html")

    async def static(request: Request) -> Response:
        name = str(request.path_params["name"])
        if name not in _STATIC:
            return Response("not found", status_code=404, media_type="text/plain")
        return _static(name)

    async def files(request: Request) -> Response:
        listing = await run_in_threadpool(folder.listing)
        chosen = request.query_params.get("file")
        return JSONResponse({"html": file_list(listing, chosen), "version": hub.version})

    async def prompt(request: Request) -> Response:
        name = request.query_params.get("file", "")
        path = folder.resolve(name)
        if path is None:
            return JSONResponse(
                {"error": f"not a prompt file under {folder.target}: {json.dumps(name)}"},
                status_code=404,
            )
        try:
            state = state_from_json(json.loads(await request.body() or b"{}"))
        except ValueError as error:  # PageStateError and json.JSONDecodeError are ValueErrors
            return JSONResponse({"error": str(error)}, status_code=400)
        view = await run_in_threadpool(prompt_view, folder, path, state)
        return JSONResponse(view_json(view))

    async def events(_request: Request) -> Response:
        headers = {"Cache-Control": "no-store"}
        return StreamingResponse(hub.stream(), media_type="text/event-stream", headers=headers)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        stop = asyncio.Event()
        watched = sorted(watched_paths(folder))
        task = asyncio.create_task(watch(watched, hub, stop))
        try:
            yield
        finally:
            stop.set()
            hub.close()
            await task

    routes = [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/files", files),
        Route("/api/prompt", prompt, methods=["POST"]),
        Route("/api/events", events),
    ]
    guard = Middleware(OwnPageOnly, where=where)
    return Starlette(routes=routes, middleware=[guard], lifespan=lifespan)


def watched_paths(folder: PromptFolder) -> set[Path]:
    """The served folder, the prompt root, and the overrides folder when it exists.

    watchfiles cannot watch a folder that is not there: one created later is seen after a
    restart (docs/preview.md).
    """
    paths = {folder.base.resolve(), folder.root.resolve()}
    if folder.overrides_root.is_dir():
        paths.add(folder.overrides_root.resolve())
    return paths


def _static(name: str) -> Response:
    text = resources.files("wink_decl.preview").joinpath("static", name).read_text("utf-8")
    return Response(text, media_type=_STATIC[name], headers={"Cache-Control": "no-store"})
