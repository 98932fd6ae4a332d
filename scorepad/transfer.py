"""Export the whole database as documented JSON, and import it back without duplicates.

The format is described in docs/export.md. Games are identified by their `uid`, so importing the
same file twice, or a file from another table's database, never duplicates a game. Local game
numbers are not exported: export → import into a fresh database → export gives the same bytes.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from scorepad.errors import UserError
from scorepad.store import Store, dumps

FORMAT = "scorepad-export"
VERSION = 1


def export_data(store: Store) -> dict[str, Any]:
    db = store.db
    rulesets = [{"hash": h, "ruleset_id": r, "source": s, "text": t}
                for h, r, s, t in db.execute("SELECT hash, ruleset_id, source, text FROM rulesets ORDER BY hash")]
    games = []
    rows = db.execute("SELECT id, uid, ruleset_id, ruleset_hash, variant, name, season, players, sides, options,"
                      " created, finished, hands, state FROM games ORDER BY created, id").fetchall()
    for (gid, uid, rid, rhash, variant, name, season, players, sides, options, created, finished, hands,
         state) in rows:
        hand_rows = db.execute("SELECT n, status, typed, hand, points, breakdown, events, state, created FROM hands"
                               " WHERE game_id = ? ORDER BY id", (gid,)).fetchall()
        audit = db.execute("SELECT at, action, hand_n, detail FROM audit WHERE game_id = ? ORDER BY id",
                           (gid,)).fetchall()
        games.append({
            "uid": uid, "ruleset_id": rid, "ruleset_hash": rhash, "variant": variant, "name": name,
            "season": season, "players": json.loads(players), "sides": json.loads(sides),
            "options": json.loads(options), "created": created, "finished": bool(finished), "hands": hands,
            "state": json.loads(state),
            "hand_rows": [{"n": n, "status": st, "typed": json.loads(t), "hand": json.loads(h),
                           "points": json.loads(p), "breakdown": json.loads(b), "events": json.loads(e),
                           "state": json.loads(s), "created": c}
                          for n, st, t, h, p, b, e, s, c in hand_rows],
            "audit": [{"at": a, "action": act, "hand": hn, "detail": json.loads(d)} for a, act, hn, d in audit],
        })
    meta = {k: v for k, v in db.execute("SELECT key, value FROM meta WHERE key = 'current_season'")}
    return {"format": FORMAT, "version": VERSION, "meta": meta, "rulesets": rulesets, "games": games}


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that a reader never sees half of it (temp file + rename)."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=".scorepad-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def export_text(store: Store) -> str:
    return json.dumps(export_data(store), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def import_file(store: Store, path: Path) -> tuple[int, int]:
    """Read an export into this database; returns (games added, games already present)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{path}: not a scorepad export ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserError(f"{path}: not a scorepad export (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise UserError(f"{path}: export version {data.get('version')!r}; this scorepad reads {VERSION}")
    try:
        rulesets = {r["hash"]: r for r in data["rulesets"]}
        games = list(data["games"])
    except (KeyError, TypeError):
        raise UserError(f"{path}: the export is incomplete (rulesets or games missing)") from None
    existing = store.game_ids_by_uid()
    added = skipped = 0
    try:
        with store.write() as db:
            for g in games:
                if g["uid"] in existing:
                    skipped += 1
                    continue
                r = rulesets[g["ruleset_hash"]]
                db.execute("INSERT OR IGNORE INTO rulesets(hash, ruleset_id, source, text) VALUES(?, ?, ?, ?)",
                           (r["hash"], r["ruleset_id"], r["source"], r["text"]))
                cur = db.execute(
                    "INSERT INTO games(uid, ruleset_id, ruleset_hash, variant, name, season, players, sides, options,"
                    " created, finished, hands, state) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (g["uid"], g["ruleset_id"], g["ruleset_hash"], g["variant"], g["name"], g["season"],
                     dumps(g["players"]), dumps(g["sides"]), dumps(g["options"]), g["created"],
                     int(bool(g["finished"])), int(g["hands"]), dumps(g["state"])))
                gid = cur.lastrowid
                for h in g["hand_rows"]:
                    db.execute("INSERT INTO hands(game_id, n, status, typed, hand, points, breakdown, events, state,"
                               " created) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               (gid, h["n"], h["status"], dumps(h["typed"]), dumps(h["hand"]), dumps(h["points"]),
                                dumps(h["breakdown"]), dumps(h["events"]), dumps(h["state"]), h["created"]))
                for a in g["audit"]:
                    db.execute("INSERT INTO audit(game_id, at, action, hand_n, detail) VALUES(?, ?, ?, ?, ?)",
                               (gid, a["at"], a["action"], a["hand"], dumps(a["detail"])))
                added += 1
            for key, value in (data.get("meta") or {}).items():
                if key == "current_season":
                    db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES(?, ?)", (key, str(value)))
    except (KeyError, TypeError) as exc:
        raise UserError(f"{path}: a game in the export is incomplete ({exc}); nothing was imported") from None
    return added, skipped
