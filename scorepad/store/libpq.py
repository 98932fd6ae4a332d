"""libpq, PostgreSQL's own client library, called through ctypes: what the PostgreSQL store needs of it.

Why not psycopg, which wraps the same library: importing psycopg costs ~200 ms of CPU (its Python
layer, typing and asyncio modules, importlib.metadata for its version), three times a whole
`scorepad hand` on SQLite; loading libpq through ctypes costs ~10 ms. libpq itself does everything
a connection is made of, as psycopg's does: URLs and `key=value` strings, service and password files,
the PG* environment, TLS, SCRAM. The library is the one the `scorepad[postgres]` extra installs
(psycopg-binary's copy), else the system's libpq.

Safety as with psycopg: every value travels apart from the SQL text (the extended protocol's
parameters, PQsendQueryParams), never formatted into it; a text value with a NUL character, which
libpq's text parameters would cut short, is refused. Statements sent together (`pipeline`) run on the
server in order and stop at the first error. Nothing the server says is printed (its notices are
dropped, as psycopg logs them).
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import sys
from collections.abc import Sequence
from typing import Any

# ExecStatusType, ConnStatusType, PGTransactionStatusType (libpq-fe.h)
_COMMAND_OK, _TUPLES_OK, _PIPELINE_SYNC, _PIPELINE_ABORTED = 1, 2, 10, 11
_CONNECTION_OK = 0
IDLE, IN_TRANSACTION, IN_ERROR = 0, 2, 3
_SQLSTATE, _PRIMARY, _HINT = ord("C"), ord("M"), ord("H")

# result column types decoded to Python values as psycopg decodes them; any other type stays text
_INTS = frozenset({20, 21, 23, 26})   # int8, int2, int4, oid
_BOOL, _FLOATS, _NUMERIC, _JSON = 16, frozenset({700, 701}), 1700, frozenset({114, 3802})
_INT8_OID, _FLOAT8_OID = 20, 701


class PgError(Exception):
    """A statement the server refused (`sqlstate` its SQLSTATE code), or a connection that failed or
    broke (`sqlstate` None): the first line of libpq's or the server's message."""

    def __init__(self, message: str, sqlstate: str | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate
        self.hint = hint       # the server's HINT; a club guard's refusal names its sentence there


class _Option(ctypes.Structure):
    _fields_ = [("keyword", ctypes.c_char_p), ("envvar", ctypes.c_char_p), ("compiled", ctypes.c_char_p),
                ("val", ctypes.c_char_p), ("label", ctypes.c_char_p), ("dispchar", ctypes.c_char_p),
                ("dispsize", ctypes.c_int)]


def candidates() -> list[str]:
    """Where libpq may be: the copy psycopg-binary ships (found on sys.path without importing it), then the
    system's by its usual names (the dynamic loader searches)."""
    found: list[str] = []
    for entry in sys.path:
        for folder in ("psycopg_binary.libs", os.path.join("psycopg_binary", ".dylibs")):
            where = os.path.join(entry or ".", folder)
            try:
                names = os.listdir(where)
            except OSError:
                continue
            found += [os.path.join(where, n) for n in sorted(names) if n.startswith(("libpq-", "libpq."))]
    return [*found, *{"darwin": ["libpq.5.dylib", "libpq.dylib"], "win32": ["libpq.dll"]}.get(sys.platform,
                                                                                            ["libpq.so.5"])]


_LIB: list[Any] = []


def library() -> Any:
    """libpq loaded, its functions typed; None when no libpq can be loaded (the extra is not installed)."""
    if _LIB:
        return _LIB[0]
    lib = None
    for path in candidates():
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError:
            continue
    if lib is None:
        return None
    _declare(lib)
    _LIB.append(lib)
    return lib


def _declare(lib: Any) -> None:
    p, i, s, u = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint
    sigs: dict[str, tuple[Any, list[Any]]] = {
        "PQconnectdbParams": (p, [ctypes.POINTER(s), ctypes.POINTER(s), i]),
        "PQstatus": (i, [p]), "PQerrorMessage": (s, [p]), "PQfinish": (None, [p]), "PQuser": (s, [p]),
        "PQsocket": (i, [p]), "PQtransactionStatus": (i, [p]),
        "PQsendQueryParams": (i, [p, s, i, ctypes.POINTER(u), ctypes.POINTER(s), p, p, i]),
        "PQgetResult": (p, [p]), "PQisBusy": (i, [p]), "PQconsumeInput": (i, [p]),
        "PQresultStatus": (i, [p]), "PQresultErrorField": (s, [p, i]), "PQclear": (None, [p]),
        "PQntuples": (i, [p]), "PQnfields": (i, [p]), "PQftype": (u, [p, i]),
        "PQgetvalue": (s, [p, i, i]), "PQgetisnull": (i, [p, i, i]),
        "PQconninfoParse": (ctypes.POINTER(_Option), [s, ctypes.POINTER(p)]),
        "PQconninfoFree": (None, [ctypes.POINTER(_Option)]), "PQfreemem": (None, [p]),
        "PQsetNoticeProcessor": (p, [p, p, p]),
        "PQgetCancel": (p, [p]), "PQcancel": (i, [p, s, i]), "PQfreeCancel": (None, [p]),
        "PQsetnonblocking": (i, [p, i]), "PQflush": (i, [p]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    for name, restype in (("getvalue", s), ("getisnull", i)):   # the per-value calls, without argtypes
        fast = lib["PQ" + name]
        fast.restype = restype
        setattr(lib, "fast_" + name, fast)
    for name, argtypes in (("PQenterPipelineMode", [p]), ("PQexitPipelineMode", [p]), ("PQpipelineSync", [p])):
        fn = getattr(lib, name, None)   # libpq 14 and later: several statements in one round trip
        if fn is not None:
            fn.restype, fn.argtypes = i, argtypes


def parse_conninfo(spec: str) -> dict[str, str]:
    """The parameters a URL or `key=value` string sets, as libpq reads it; PgError when it reads none."""
    lib = library()
    if lib is None:
        raise PgError("libpq, the PostgreSQL client library, is not installed")
    err = ctypes.c_void_p()
    opts = lib.PQconninfoParse(spec.encode(), ctypes.byref(err))
    if not opts:
        message = ctypes.string_at(err.value).decode(errors="replace").strip() if err.value else "out of memory"
        if err.value:
            lib.PQfreemem(err)
        raise PgError(message.splitlines()[0] if message else "invalid connection string")
    out: dict[str, str] = {}
    try:
        k = 0
        while opts[k].keyword is not None:
            if opts[k].val is not None:
                out[opts[k].keyword.decode()] = opts[k].val.decode(errors="replace")
            k += 1
    finally:
        lib.PQconninfoFree(opts)
    return out


_NOTICES = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)(lambda _arg, _message: None)


def _param(value: Any) -> tuple[int, bytes | None]:
    """(type OID, text) of one parameter: as psycopg sends them (a str as 'unknown', for the server to
    read as the column's type; whole numbers as bigint; True/False as boolean)."""
    if value is None:
        return 0, None
    if isinstance(value, str):
        if "\x00" in value:
            raise PgError("PostgreSQL text cannot contain NUL (0x00) characters", "22021")
        return 0, value.encode()
    if isinstance(value, bool):
        return _BOOL, b"t" if value else b"f"
    if isinstance(value, int):
        return (_INT8_OID if -2**63 <= value < 2**63 else _NUMERIC), str(value).encode()
    if isinstance(value, float):
        return _FLOAT8_OID, repr(value).replace("inf", "Infinity").replace("nan", "NaN").encode()
    raise TypeError(f"no PostgreSQL parameter for a {type(value).__name__}")


def _decoder(oid: int) -> Any:
    if oid in _INTS:
        return int
    if oid == _BOOL:
        return lambda text: text == "t"
    if oid in _FLOATS:
        return float
    if oid == _NUMERIC:
        from decimal import Decimal  # start-up: ~3 ms; only a numeric column needs it

        return Decimal
    if oid in _JSON:
        return json.loads
    return None


class Result:
    """A finished statement: `rows` (tuples) when it returns rows, else None."""

    __slots__ = ("rows",)

    def __init__(self, rows: list[tuple[Any, ...]] | None) -> None:
        self.rows = rows


class Connection:
    """One libpq connection. `query` runs one statement; `pipeline` several in one round trip."""

    def __init__(self, params: Sequence[tuple[str, str]]) -> None:
        """`params`: libpq keywords and values in order, a later one overriding an earlier; a `dbname`
        holding a URL or `key=value` string is read whole (libpq's expand_dbname)."""
        lib = self.lib = library()
        n = len(params)
        keys = (ctypes.c_char_p * (n + 1))(*[k.encode() for k, _ in params], None)
        values = (ctypes.c_char_p * (n + 1))(*[v.encode() for _, v in params], None)
        self.pg = lib.PQconnectdbParams(keys, values, 1)
        if not self.pg:
            raise PgError("out of memory")
        if lib.PQstatus(self.pg) != _CONNECTION_OK:
            message = self._message()
            self.close()
            raise PgError(message)
        lib.PQsetNoticeProcessor(self.pg, ctypes.cast(_NOTICES, ctypes.c_void_p), None)
        # sends never block: what the server answers meanwhile is read while the rest goes out (_flush),
        # so a long pipeline cannot leave both sides waiting for the other to read
        lib.PQsetnonblocking(self.pg, 1)
        self.user = (lib.PQuser(self.pg) or b"").decode()
        self.pipelines = getattr(lib, "PQenterPipelineMode", None) is not None

    def _message(self) -> str:
        text = (self.lib.PQerrorMessage(self.pg) or b"").decode(errors="replace").strip()
        return text.splitlines()[0] if text else "the connection to the server was lost"

    def close(self) -> None:
        if self.pg:
            self.lib.PQfinish(self.pg)
            self.pg = None

    def __del__(self) -> None:   # a store nobody closed (as psycopg's connections close when collected)
        if getattr(self, "pg", None):
            self.close()

    def alive(self) -> bool:
        """Open, and not known to be broken (libpq learns that a connection broke when it next uses it)."""
        return bool(self.pg) and self.lib.PQstatus(self.pg) == _CONNECTION_OK

    def status(self) -> int:
        """IDLE, IN_TRANSACTION, IN_ERROR, or another of libpq's transaction states."""
        return int(self.lib.PQtransactionStatus(self.pg)) if self.pg else 4

    def query(self, sql: str, params: Sequence[Any] = ()) -> Result:
        return self.pipeline([(sql, params)])[0]

    def pipeline(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[Result]:
        """Run the statements in order, sent together (one round trip where libpq has pipelines); the
        first error raises PgError and the rest are not run."""
        if not self.pg:
            raise PgError("the connection to the server was closed")
        encoded = [(sql.encode(), [_param(v) for v in params]) for sql, params in statements]
        lib, pg = self.lib, self.pg
        piped = len(encoded) > 1 and self.pipelines
        in_pipe = False
        try:
            if piped:
                if not lib.PQenterPipelineMode(pg):
                    raise PgError(self._message())
                in_pipe = True
            out: list[Result] = []
            for sql, params in encoded:
                n = len(params)
                types = (ctypes.c_uint * n)(*[t for t, _ in params]) if n else None
                values = (ctypes.c_char_p * n)(*[v for _, v in params]) if n else None
                if not lib.PQsendQueryParams(pg, sql, n, types, values, None, None, 0):
                    raise PgError(self._message())
                if not piped:
                    self._flush()
                    out.append(self._result())
            if piped:
                if not lib.PQpipelineSync(pg):
                    raise PgError(self._message())
                self._flush()
                failure: PgError | None = None
                for _ in encoded:
                    try:
                        got = self._result()
                    except PgError as exc:
                        failure = failure or exc
                        continue
                    out.append(got)
                self._sync()
                lib.PQexitPipelineMode(pg)
                in_pipe = False
                if failure is not None:
                    raise failure
            return out
        except PgError:
            if in_pipe:
                self._abandon()   # left halfway through a pipeline: no later statement could trust it
            raise
        except BaseException:
            self._abandon()   # interrupted while the server works: cancel it and give the connection up
            raise

    def _flush(self) -> None:
        """Send what libpq holds, reading the server's answers into libpq's memory whenever they come."""
        lib, pg = self.lib, self.pg
        while True:
            left = lib.PQflush(pg)
            if left == 0:
                return
            if left < 0:
                raise PgError(self._message())
            sock = lib.PQsocket(pg)
            readable, _w, _x = select.select([sock], [sock], [])
            if readable and not lib.PQconsumeInput(pg):
                raise PgError(self._message())

    def _wait(self) -> None:
        lib, pg = self.lib, self.pg
        while lib.PQisBusy(pg):
            select.select([lib.PQsocket(pg)], [], [])
            if not lib.PQconsumeInput(pg):
                raise PgError(self._message())

    def _result(self) -> Result:
        """The one result of the next statement (and the end of its results)."""
        lib, pg = self.lib, self.pg
        self._wait()
        res = lib.PQgetResult(pg)
        if not res:
            raise PgError(self._message())
        error: PgError | None = None
        try:
            status = lib.PQresultStatus(res)
            if status == _TUPLES_OK:
                result = Result(_rows(lib, res))
            elif status == _COMMAND_OK:
                result = Result(None)
            elif status == _PIPELINE_ABORTED:
                error = PgError("not run: an earlier statement failed", "25P02")
            else:
                error = _error(lib, res, self)
        finally:
            lib.PQclear(res)
        while True:   # the end of this statement's results (NULL); another result here is an error too
            self._wait()
            extra = lib.PQgetResult(pg)
            if not extra:
                break
            if error is None and lib.PQresultStatus(extra) not in (_TUPLES_OK, _COMMAND_OK):
                error = _error(lib, extra, self)
            lib.PQclear(extra)
        if error is not None:
            raise error
        return result

    def _sync(self) -> None:
        lib, pg = self.lib, self.pg
        self._wait()
        res = lib.PQgetResult(pg)
        status = lib.PQresultStatus(res) if res else None
        if res:
            lib.PQclear(res)
        if status != _PIPELINE_SYNC:
            raise PgError(self._message())

    def _abandon(self) -> None:
        """Ask the server to stop the running statement, and close: an uncommitted transaction is rolled back."""
        if not self.pg:
            return
        cancel = self.lib.PQgetCancel(self.pg)
        if cancel:
            self.lib.PQcancel(cancel, ctypes.create_string_buffer(256), 256)
            self.lib.PQfreeCancel(cancel)
        self.close()


def _error(lib: Any, res: Any, conn: Connection) -> PgError:
    state = lib.PQresultErrorField(res, _SQLSTATE)
    primary = lib.PQresultErrorField(res, _PRIMARY)
    hint = lib.PQresultErrorField(res, _HINT)
    if primary:
        return PgError(primary.decode(errors="replace").strip().split("\n")[0], state.decode() if state else None,
                       hint.decode(errors="replace") if hint else None)
    return PgError(conn._message(), state.decode() if state else None)


def _rows(lib: Any, res: Any) -> list[tuple[Any, ...]]:
    """The rows of a result, column by column: one call into libpq a value, without ctypes' argument
    conversion (the result as a pointer object, the row and column as plain ints; ~3x faster)."""
    ntuples, nfields = lib.PQntuples(res), lib.PQnfields(res)
    if not ntuples:
        return []
    ptr, value, isnull = ctypes.c_void_p(res), lib.fast_getvalue, lib.fast_getisnull
    rows = range(ntuples)
    columns = []
    for c in range(nfields):
        raw = [value(ptr, r, c) for r in rows]
        nulls = [r for r, b in enumerate(raw) if not b and isnull(ptr, r, c)]
        decode = _decoder(lib.PQftype(res, c))
        if decode is None:
            column: list[Any] = [b.decode() for b in raw]
        elif decode is int or decode is float:
            column = [decode(b) if b else None for b in raw]   # int() and float() read bytes as they are
        else:
            column = [decode(b.decode()) if b else None for b in raw]
        for r in nulls:
            column[r] = None
        columns.append(column)
    return list(zip(*columns, strict=True))
