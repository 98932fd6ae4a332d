"""Stored moments (UTC ISO 8601, as the store's `now()` writes them) as the people at the table see
them: in the machine's time zone. A game started at 00:30 on New Year's Day in Tallinn is stored as
22:30 UTC on 31 December, and is shown, and filtered by `--since`/`--until`, as a game of 1 January.

What is stored stays UTC; JSON outputs keep the stored timestamps. A moment without an offset (an
old or hand-made file) is taken as UTC, since that is what scorepad writes; text that is no moment
at all is shown as it is.
"""

from __future__ import annotations

from datetime import UTC, date, datetime


def local_moment(stamp: str) -> datetime | None:
    """The moment in the machine's time zone (TZ, read when it is asked); None for text that is no moment."""
    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone()
    except (OverflowError, OSError, ValueError):   # a year the platform's clock cannot place
        return None


def local_day(stamp: str) -> str:
    """The local YYYY-MM-DD of a stored moment."""
    moment = local_moment(stamp)
    return moment.date().isoformat() if moment else stamp[:10]


def local_date(stamp: str) -> date | None:
    """The local calendar day of a stored moment, as a date (what --since and --until compare)."""
    moment = local_moment(stamp)
    if moment is not None:
        return moment.date()
    try:
        return date.fromisoformat(stamp[:10])
    except (TypeError, ValueError):
        return None


def local_stamp(stamp: str) -> str:
    """The stored moment as local ISO 8601 with its offset (2026-12-01T16:33:00-11:00)."""
    moment = local_moment(stamp)
    return moment.isoformat(timespec="seconds") if moment else stamp


def utc_key(stamp: str) -> str:
    """A sort key that orders moments as they happened, whatever offsets they were written with."""
    if stamp.endswith("+00:00"):   # what the store writes: no need to parse it
        return stamp[:-6]
    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return stamp
    if moment.tzinfo is None:
        return moment.isoformat()
    try:
        return moment.astimezone(UTC).replace(tzinfo=None).isoformat()
    except (OverflowError, ValueError):
        return stamp
