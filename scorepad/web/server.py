"""The ASGI app of `scorepad serve` (Starlette) and its run on uvicorn: the viewer page, its JSON,
its event stream; every path outside /t/TOKEN/ is 404, and so is a wrong token."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qsl

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from scorepad.locale import _
from scorepad.web import api, scoring
from scorepad.web.language import request_language
from scorepad.web.live import Renders, game_exists, live_part, standings_json
from scorepad.web.pages import SCRIPT, STYLE, document, esc
from scorepad.web.tokens import same
from scorepad.web.watch import Changes, Watcher

SECURITY = {
    # the page's own style sheet and script only, its event stream and nothing else; no framing
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",   # the token is in the address: never sent on to another site
    "Cache-Control": "no-store",
}


class Settings:
    """What one `serve` answers with: the database, the game (None: whichever is current), the token,
    the language given with --lang (None: each reader's own) and the one to fall back on."""

    def __init__(self, spec: str | None, game: str | None, token: str, lang: str | None, fallback: str,
                 scorer: str | None = None) -> None:
        self.spec, self.game, self.token, self.lang, self.fallback = spec, game, token, lang, fallback
        self.scorer = scorer   # the scorer's token (serve --scorer), else no /s/ path at all


def shown_game(request: Request) -> str | None:
    """The game of a club's game page (`/t/TOKEN/g/ID/...`), else None: the page of `serve` itself."""
    game = request.path_params.get("game")
    return None if game is None else str(game)


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

    def club(self) -> bool:
        """Club mode: `serve` without --game, whose home page adds the games in progress and the season."""
        return self.settings.game is None

    async def render(self, lang: str, page: str | None) -> Any:
        """The home page's live part (`page` None), or the live part of game `page`'s own page."""
        if page is None:
            return await run_in_threadpool(live_part, self.settings.spec, self.settings.game, lang, self.club())
        key, title, live = await run_in_threadpool(live_part, self.settings.spec, page, lang)
        back = esc(_("All games in progress and the season"))
        return key, title, f'<p class="back"><a href="../../">{back}</a></p>{live}'

    def app(self) -> Starlette:
        pages = ["/t/{token}/", *(["/t/{token}/g/{game:int}/"] if self.club() else [])]
        routes = [Route(f"{base}{path}", self.viewer(handler)) for base in pages for path, handler in (
            ("", self.page), ("api/standings", self.standings), ("events", self.events),
            ("page.css", self.style), ("live.js", self.script))]
        if self.settings.scorer:
            scorer = Scorer(self)
            routes += [Route("/s/{token}/", scorer.checked(scorer.page)), Route("/s/{token}/page.css",
                                                                              scorer.checked(self.style)),
                       Route("/s/{token}/hand", scorer.checked(scorer.hand), methods=["POST"]),
                       Route("/s/{token}/bid", scorer.checked(scorer.bid), methods=["POST"]),
                       Route("/s/{token}/undo", scorer.checked(scorer.undo), methods=["POST"]),
                       Route("/s/{token}/api/hand", scorer.checked(scorer.api_hand), methods=["POST"]),
                       Route("/s/{token}/api/bid", scorer.checked(scorer.api_bid), methods=["POST"])]
        app = Starlette(routes=routes, lifespan=self.lifespan, exception_handlers={404: missing, 405: missing})
        app.router.redirect_slashes = False   # /t/ANYTHING is 404 too, not a redirect that tells a route exists
        return app

    def viewer(self, handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def checked(request: Request) -> Response:
            if not same(request.path_params["token"], self.settings.token):
                return not_found()
            game = shown_game(request)
            if game is not None and not await run_in_threadpool(game_exists, self.settings.spec, game):
                return not_found()
            return await handler(request)
        return checked

    def generation(self) -> int:
        assert self.changes is not None, "the lifespan starts before the first request"
        return self.changes.generation

    async def page(self, request: Request) -> Response:
        lang = self.language(request)
        _key, title, live = await self.renders.get(self.generation(), lang, shown_game(request))
        return Response(document(lang, title, live), media_type="text/html; charset=utf-8", headers=SECURITY)

    async def standings(self, request: Request) -> Response:
        text = await run_in_threadpool(standings_json, self.settings.spec, shown_game(request) or self.settings.game)
        return Response(text, media_type="application/json", headers=SECURITY)

    async def events(self, request: Request) -> Response:
        lang = self.language(request)
        page = shown_game(request)
        changes = self.changes
        assert changes is not None

        async def stream() -> AsyncIterator[dict[str, str]]:
            sent: Any = None
            while True:
                generation = changes.generation
                key, _title, live = await self.renders.get(generation, lang, page)
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


class Scorer:
    """The scorer's routes under /s/TOKEN2/: the form, a hand, undo. A write needs the scorer's token,
    a request from the page itself (Origin, Sec-Fetch-Site) and a body of at most 64 KiB."""

    LIMIT = 64 * 1024

    def __init__(self, live: Live) -> None:
        self.live = live
        self.settings = live.settings

    def checked(self, handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def scorer_only(request: Request) -> Response:
            if self.settings.scorer is None or not same(request.path_params["token"], self.settings.scorer):
                return not_found()
            return await handler(request)
        return scorer_only

    def answer(self, lang: str, status: int, title: str, body: str) -> Response:
        return Response(document(lang, title, body, script=False), status_code=status,
                        media_type="text/html; charset=utf-8", headers=SECURITY)

    async def page(self, request: Request) -> Response:
        lang = self.live.language(request)
        title, body = await run_in_threadpool(scoring.scorer_page, self.settings.spec, self.settings.game, lang)
        return self.answer(lang, 200, title, body)

    async def body(self, request: Request) -> bytes | Response:
        """The request's body, or the answer to a request that is not the page's own or too large.
        A browser says where a request comes from (Sec-Fetch-Site, which a page cannot forge, or
        Origin): another site is refused; a script, which sends neither, is let through."""
        origin = request.headers.get("origin")
        site = request.headers.get("sec-fetch-site")
        own = f"{request.url.scheme}://{request.headers.get('host', '')}"
        if (site is not None and site != "same-origin") or (site is None and origin is not None and origin != own):
            return PlainTextResponse("Forbidden", status_code=403, headers=SECURITY)
        length = request.headers.get("content-length") or "0"
        if not length.isdigit() or int(length) > self.LIMIT:
            return PlainTextResponse("Payload Too Large", status_code=413, headers=SECURITY)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.LIMIT:
                return PlainTextResponse("Payload Too Large", status_code=413, headers=SECURITY)
        return body

    async def form(self, request: Request) -> dict[str, str] | Response:
        """The form's fields, or the answer to a request that is not the page's own or too large."""
        body = await self.body(request)
        if isinstance(body, Response):
            return body
        return dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=500))

    async def api_hand(self, request: Request) -> Response:
        return await self.json_write(request, api.hand)

    async def api_bid(self, request: Request) -> Response:
        return await self.json_write(request, api.bid)

    async def json_write(self, request: Request, action: Callable[[str | None, str | None, bytes], api.Answer]) -> Response:
        body = await self.body(request)
        if isinstance(body, Response):
            return body
        status, text = await run_in_threadpool(action, self.settings.spec, self.settings.game, body)
        return Response(text, status_code=status, media_type="application/json", headers=SECURITY)

    async def hand(self, request: Request) -> Response:
        return await self.write(request, scoring.record)

    async def bid(self, request: Request) -> Response:
        return await self.write(request, scoring.bid)

    async def undo(self, request: Request) -> Response:
        return await self.write(request, scoring.undo)

    async def write(self, request: Request, action: Callable[..., tuple[int, str, str]]) -> Response:
        try:
            values = await self.form(request)
        except ValueError:   # more fields than any form has
            return PlainTextResponse("Payload Too Large", status_code=413, headers=SECURITY)
        if isinstance(values, Response):
            return values
        lang = self.live.language(request)
        status, title, body = await run_in_threadpool(action, self.settings.spec, self.settings.game, lang, values)
        return self.answer(lang, status, title, body)


async def missing(request: Request, exc: Exception) -> Response:
    return not_found()


def create_app(settings: Settings, poll: float | None = None) -> Starlette:
    return Live(settings, poll).app()
