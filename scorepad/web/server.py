"""The ASGI app of `scorepad serve` (Starlette) and its run on uvicorn: the viewer page, its JSON,
its event stream; every path outside /t/TOKEN/ is 404, and so is a wrong token."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from scorepad.web.language import request_language
from scorepad.web.live import Renders, live_part, standings_json
from scorepad.web.pages import SCRIPT, STYLE, document
from scorepad.web.tokens import same
from scorepad.web.watch import Changes, Watcher

SECURITY = {
    # the page's own style sheet and script only, its event stream and nothing else; no framing
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",   # the token is in the address: never sent on to another site
    "Cache-Control": "no-store",
}


class Settings:
    """What one `serve` answers with: the database, the game (None: whichever is current), the token,
    the language given with --lang (None: each reader's own) and the one to fall back on."""

    def __init__(self, spec: str | None, game: str | None, token: str, lang: str | None, fallback: str) -> None:
        self.spec, self.game, self.token, self.lang, self.fallback = spec, game, token, lang, fallback


def not_found() -> Response:
    return PlainTextResponse("Not Found", status_code=404, headers=SECURITY)


class Live:
    """The viewer's routes under /t/TOKEN/ (a wrong token is 404, as any other path), and the lifespan
    that starts the thread watching the database and stops it at the end."""

    def __init__(self, settings: Settings, poll: float | None = None) -> None:
        self.settings, self.poll = settings, poll
        self.changes: Changes | None = None
        self.renders = Renders(self.render)

    def language(self, request: Request) -> str:
        s = self.settings
        return request_language(s.lang, request.headers.get("accept-language"), s.fallback)

    async def render(self, lang: str) -> Any:
        return await run_in_threadpool(live_part, self.settings.spec, self.settings.game, lang)

    def app(self) -> Starlette:
        routes = [Route(f"/t/{{token}}/{path}", self.viewer(handler)) for path, handler in (
            ("", self.page), ("api/standings", self.standings), ("events", self.events),
            ("page.css", self.style), ("live.js", self.script))]
        app = Starlette(routes=routes, lifespan=self.lifespan, exception_handlers={404: missing, 405: missing})
        app.router.redirect_slashes = False   # /t/ANYTHING is 404 too, not a redirect that tells a route exists
        return app

    def viewer(self, handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def checked(request: Request) -> Response:
            if not same(request.path_params["token"], self.settings.token):
                return not_found()
            return await handler(request)
        return checked

    def generation(self) -> int:
        assert self.changes is not None, "the lifespan starts before the first request"
        return self.changes.generation

    async def page(self, request: Request) -> Response:
        lang = self.language(request)
        _key, title, live = await self.renders.get(self.generation(), lang)
        return Response(document(lang, title, live), media_type="text/html; charset=utf-8", headers=SECURITY)

    async def standings(self, request: Request) -> Response:
        text = await run_in_threadpool(standings_json, self.settings.spec, self.settings.game)
        return Response(text, media_type="application/json", headers=SECURITY)

    async def events(self, request: Request) -> Response:
        lang = self.language(request)
        changes = self.changes
        assert changes is not None

        async def stream() -> AsyncIterator[dict[str, str]]:
            sent: Any = None
            while True:
                generation = changes.generation
                key, _title, live = await self.renders.get(generation, lang)
                if key != sent:   # a change elsewhere in the database leaves this game's page as it is
                    sent = key
                    yield {"event": "page", "data": live}
                await changes.after(generation)

        return EventSourceResponse(stream(), ping=15, headers={**SECURITY, "X-Accel-Buffering": "no"})

    async def style(self, request: Request) -> Response:
        return Response(STYLE, media_type="text/css; charset=utf-8", headers=SECURITY)

    async def script(self, request: Request) -> Response:
        return Response(SCRIPT, media_type="text/javascript; charset=utf-8", headers=SECURITY)

    @asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        changes = self.changes = Changes()

        def changed() -> None:   # called in the watching thread: the streams wake in the event loop
            loop.call_soon_threadsafe(changes.bump)

        watcher = Watcher(self.settings.spec, changed, **({"poll": self.poll} if self.poll else {}))
        watcher.start()
        try:
            yield
        finally:
            watcher.stop()


async def missing(request: Request, exc: Exception) -> Response:
    return not_found()


def create_app(settings: Settings, poll: float | None = None) -> Starlette:
    return Live(settings, poll).app()
