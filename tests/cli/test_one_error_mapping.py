"""One mapping from what ended a command to its sentence and exit status, used by both routes (the quick
route and Typer's): the same ending gives the same status and the same sentence on either."""

from __future__ import annotations

import errno

import pytest

from scorepad.cli import context as clicore
from scorepad.errors import HandError, StoreConflict, StoreError, UserError


@pytest.mark.parametrize(("ending", "status", "said"), [
    (UserError("no such game"), 2, "error: no such game"),
    (HandError("the tricks must add up to 13", ["the tricks must add up to 13", "bid out of range"]), 2,
     "  - bid out of range"),
    (StoreError("the database is locked"), 1, "error: the database is locked"),
    (StoreConflict("game 1 changed"), 1, "error: game 1 changed"),
    (KeyboardInterrupt(), 130, "interrupted; nothing was stored"),
    (EOFError(), 2, "aborted; nothing was stored"),
    (RuntimeError("boom"), 1, "internal error: RuntimeError: boom"),
    (UnicodeEncodeError("utf-8", "\udcff", 0, 1, "surrogates not allowed"), 2, "bytes that are not UTF-8"),
])
def test_each_ending_has_one_status_and_sentence(ending: BaseException, status: int, said: str,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCOREPAD_DEBUG", raising=False)
    with pytest.raises(SystemExit) as done:
        clicore.exit_for(ending)
    assert done.value.code == status
    assert said in capsys.readouterr().err


def test_a_reader_gone_away_is_quiet_and_a_decided_exit_passes(capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    out, err = sys.stdout, sys.stderr
    try:
        with pytest.raises(SystemExit) as done:
            clicore.exit_for(BrokenPipeError(errno.EPIPE, "Broken pipe"))
    finally:
        sys.stdout, sys.stderr = out, err
    assert done.value.code == 1 and capsys.readouterr().err == ""
    with pytest.raises(SystemExit) as done:
        clicore.exit_for(SystemExit(0))
    assert done.value.code == 0


def test_the_unexpected_is_raised_as_it_is_when_debugging(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREPAD_DEBUG", "1")
    with pytest.raises(RuntimeError):
        clicore.exit_for(RuntimeError("boom"))
