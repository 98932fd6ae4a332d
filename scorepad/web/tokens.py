"""The secrets in the page's address: random for each start, or kept in the config with --keep-tokens.

Whoever has the address sees the game, and no one can guess it: a token is 128 random bits
(`secrets`), compared in constant time."""

from __future__ import annotations

import re
import secrets
from typing import Any

from scorepad.app.config import load_config, save_config

TOKEN = re.compile(r"[A-Za-z0-9_-]{22,100}")
"""A token as `secrets.token_urlsafe(16)` writes it (22 characters), or a longer one kept in the config."""


def new_token() -> str:
    return secrets.token_urlsafe(16)


def same(given: str, token: str) -> bool:
    """`given` is the token (in constant time: the answer's timing tells nothing of how much matched)."""
    return secrets.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode())


def kept_token(name: str, keep: bool, config: dict[str, Any] | None = None) -> str:
    """A new token for `name` (viewer, scorer); with `keep`, the one kept in the config's [serve] table,
    written there the first time, so the printed address (and a QR code stuck to the table) stays the
    same from one evening to the next."""
    if not keep:
        return new_token()
    data = load_config() if config is None else config
    kept = data.get("serve", {}).get(name)
    if isinstance(kept, str) and TOKEN.fullmatch(kept):
        return kept
    token = new_token()
    save_config({**data, "serve": {**data.get("serve", {}), name: token}})
    return token
