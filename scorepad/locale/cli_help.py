"""The CLI's --help texts in the chosen language.

Typer reads its help texts (the `help=` of every option and argument, and each command's docstring)
when the commands are declared, in English; those English texts are the message ids. `localized(app)`
puts the chosen language's texts into the declared objects while Typer builds and runs the commands,
paragraph by paragraph, and `extract` is the Babel extractor that finds those texts in
cli.py without importing it (babel.cfg), besides the ordinary `_()` calls.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from scorepad.locale import N_, _, current, ngettext, shown

# Typer's own words in help and usage errors: typer.core looks them up with gettext's `_` (`localized`
# gives it ours); the words its bundled click writes as they are ("Usage:", the help option's help)
# are put in place by `localized` too. Listed here so that the extractor puts them in the catalogs.
TYPER_TEXTS = (N_("Usage:"), N_("Options"), N_("Arguments"), N_("Commands"), N_("Show this message and exit."),
               N_("required"), N_("default: {default}"), N_("Aborted!"), N_("Missing command."),
               N_("No such command {name!r}."), N_("(dynamic)"), N_("env var: {var}"),
               N_("Install completion for the current shell."),
               N_("Show completion for the current shell, to copy it or customize the installation."))


def translate_help(text: str) -> str:
    """A help text paragraph by paragraph (paragraphs are the message ids): a paragraph added at run
    time (the current game's fields) stays as it is; an example keeps its command and translates
    "Example:" and the words after it in brackets."""
    out = []
    for para in text.split("\n\n"):
        keep = "\b\n" if para.startswith("\b\n") else ""   # click's mark for a paragraph printed unwrapped
        if para[len(keep):].startswith("Example:"):
            command, gap, comment = para[len(keep) + len("Example:"):].partition("   (")
            said = f"{gap}{_(comment[:-1])})" if gap and comment.endswith(")") else gap + comment
            out.append(keep + _("Example:") + command + said)
        else:
            out.append(_(para))
    return "\n\n".join(out)


def _typers(app: Any) -> Iterator[Any]:
    yield app
    for group in getattr(app, "registered_groups", []):
        yield from _typers(group.typer_instance)


def _texts(app: Any) -> Iterator[tuple[Any, str, str]]:
    """(object, attribute, English text) of every help text of a Typer app and its sub-apps."""
    for typer_app in _typers(app):
        if isinstance(typer_app.info.help, str):
            yield typer_app.info, "help", typer_app.info.help
        callbacks = [c.callback for c in typer_app.registered_commands]
        if typer_app.registered_callback is not None:
            callbacks.append(typer_app.registered_callback.callback)
        for command in typer_app.registered_commands:
            text = command.help if isinstance(command.help, str) else inspect.getdoc(command.callback)
            if text:
                yield command, "help", text
        for callback in callbacks:
            if callback is None:
                continue
            for param in inspect.signature(callback).parameters.values():
                if isinstance(getattr(param.default, "help", None), str) and param.default.help:
                    yield param.default, "help", param.default.help


@contextmanager
def localized(app: Any) -> Iterator[None]:
    """Every help text of a Typer app in the chosen language while the block runs (Typer reads them
    when it builds the commands); the English texts are put back afterwards."""
    if current() == "en":
        yield
        return
    saved = []
    for obj, attr, text in list(_texts(app)):
        saved.append((obj, attr, getattr(obj, attr)))
        setattr(obj, attr, translate_help(text))
    patches = _typer_words()
    installed = len(patches)
    for obj, attr, ours in patches[:installed]:
        saved.append((obj, attr, getattr(obj, attr)))
        setattr(obj, attr, ours)
    try:
        yield
    finally:
        for obj, attr, old in reversed(saved):
            setattr(obj, attr, old)
        for option, _attr, _ours in patches[installed:]:   # help options (cached) translated meanwhile
            option.help = "Show this message and exit."


def _typer_words() -> list[tuple[Any, str, Any]]:
    """(object, attribute, replacement) that make Typer and its bundled click write their words in
    the chosen language; only what the installed Typer has (nothing changes where it differs)."""
    import importlib  # start-up: only extracting the help's words needs it

    out: list[tuple[Any, str, Any]] = []
    core = importlib.import_module("typer.core")
    if hasattr(core, "_"):
        out.append((core, "_", _))
    try:
        formatting = importlib.import_module("typer._click.formatting")
        click_core = importlib.import_module("typer._click.core")
    except ImportError:
        return out
    formatter = getattr(formatting, "HelpFormatter", None)
    if formatter is not None and all(hasattr(formatter, m) for m in ("write_usage", "write_heading", "write_dl")):
        usage, heading, rows = formatter.write_usage, formatter.write_heading, formatter.write_dl

        def write_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
            usage(self, prog, args, _("Usage:") + " " if prefix is None else prefix)

        def write_heading(self: Any, text: str) -> None:
            heading(self, _(text))

        def write_dl(self: Any, items: Any, *args: Any, **kwargs: Any) -> None:
            # the options Typer adds itself (--install-completion) carry English help texts
            rows(self, [(term, _(text) if text else text) for term, text in items], *args, **kwargs)

        out += [(formatter, "write_usage", write_usage), (formatter, "write_heading", write_heading),
                (formatter, "write_dl", write_dl)]
    command = getattr(click_core, "Command", None)
    if command is not None and hasattr(command, "get_help_option"):
        get_help_option = command.get_help_option

        def help_option(self: Any, ctx: Any) -> Any:
            option = get_help_option(self, ctx)   # cached on the command: given its English back on the way out
            if option is not None and getattr(option, "help", None) == "Show this message and exit.":
                out.append((option, "help", _("Show this message and exit.")))
                option.help = _("Show this message and exit.")
            return option

        out.append((command, "get_help_option", help_option))
        out += _parse_args(command, importlib.import_module("typer._click.exceptions"))
    return out


def _parse_args(command: Any, errors: Any) -> list[tuple[Any, str, Any]]:
    """click's parsing, its usage errors kept with what `usage_error` needs to say them in the chosen
    language: the command's context (the parser raises an option's errors without it), and the extra
    arguments, which click refuses with a plain UsageError whose sentence holds them (a command that takes
    none is parsed allowing them, and refuses them itself with the arguments on the error: `extra_args`)."""
    parse_args = getattr(command, "parse_args", None)
    usage = getattr(errors, "UsageError", None)
    if parse_args is None or usage is None:
        return []

    def parse(self: Any, ctx: Any, args: list[str]) -> list[str]:
        try:
            return list(parse_args(self, ctx, args))
        except usage as error:
            if getattr(error, "ctx", None) is None:
                error.ctx = ctx
            raise

    def strict_parse_args(self: Any, ctx: Any, args: list[str]) -> list[str]:
        if ctx.allow_extra_args or ctx.resilient_parsing:
            return parse(self, ctx, args)
        ctx.allow_extra_args = True
        try:
            rest = parse(self, ctx, args)
        finally:
            ctx.allow_extra_args = False
        if rest:
            error = usage(f"Got unexpected extra argument(s) ({' '.join(rest)})", ctx)
            error.extra_args = rest
            raise error
        return rest

    return [(command, "parse_args", strict_parse_args)]


def extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[int, Any, Any, Any]]:
    """Babel extraction method: `_()` calls as usual, plus `help="..."` keywords and command docstrings."""
    from babel.messages.extract import extract_python  # start-up: babel ~30 ms; only the catalog tools need it

    source = fileobj.read()
    fileobj.seek(0)
    yield from extract_python(fileobj, keywords, comment_tags, options)
    text = source.decode("utf-8") if isinstance(source, bytes) else source
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.keyword) and node.arg == "help":
            value = node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
                for para in value.value.split("\n\n"):
                    if not para.startswith("Example:"):
                        yield value.lineno, "", para, []
            elif isinstance(value, ast.JoinedStr):   # not translatable: say so in review, never silently
                continue
        elif isinstance(node, ast.FunctionDef) and node.decorator_list:
            doc = ast.get_docstring(node)
            if doc and any(_is_command(d) for d in node.decorator_list):
                for para in doc.split("\n\n"):
                    if not para.startswith("Example:"):   # an example command is the same in every language
                        yield node.lineno, "", para, []
    yield 0, "", "Example:", []


def _is_command(decorator: ast.expr) -> bool:
    """`@app.command(...)`, `@rules_app.command(...)`, `@app.callback()`."""
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(func, ast.Attribute) and func.attr in ("command", "callback")


# click's words around a usage error (typer's bundled click writes them in English, without gettext):
# `usage_error` prints them in the chosen language, the message made from the exception's own fields
# for the kinds a person meets (an unknown option, a missing argument, a value of the wrong kind);
# any other message is click's own English.
CLICK_TEXTS = (N_("Try '{command} {option}' for help."), N_("Error: {message}"), N_("No such option: {name}"),
               N_("(Possible options: {options})"), N_("Missing argument {name}."), N_("Missing option {name}."),
               N_("Missing parameter {name}."), N_("Invalid value for {name}: {message}"),
               N_("Option {name} does not take a value."))


def usage_error(exc: Any) -> None:
    """Print a click usage error (while `localized` is in force: the usage line in the chosen language)."""
    from typer import echo  # start-up: typer is imported already when a usage error is printed

    if current() == "en":
        exc.show()
        return
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        hint = ""
        if ctx.command.get_help_option(ctx) is not None:
            hint = _("Try '{command} {option}' for help.").format(command=ctx.command_path,
                                                                  option=ctx.help_option_names[0]) + "\n"
        echo(f"{ctx.get_usage()}\n{hint}", err=True, color=ctx.color)
    echo(_("Error: {message}").format(message=_click_message(exc)), err=True, color=getattr(ctx, "color", None))


def _click_message(exc: Any) -> str:
    """The message of a click usage error from its fields, by its kind (click's classes and typer's copy)."""
    kinds = {cls.__name__ for cls in type(exc).__mro__}
    param = getattr(exc, "param", None)
    hint = getattr(exc, "param_hint", None)
    if hint is None and param is not None and hasattr(param, "get_error_hint"):
        hint = param.get_error_hint(*([exc.ctx] if _takes_ctx(param.get_error_hint) else []))
    elif hint is not None and not isinstance(hint, str):
        hint = " / ".join(repr(x) for x in hint)
    if "NoSuchOption" in kinds and getattr(exc, "option_name", None):
        said = _("No such option: {name}").format(name=exc.option_name)
        if getattr(exc, "possibilities", None):
            said += " " + _("(Possible options: {options})").format(options=", ".join(sorted(exc.possibilities)))
        return said
    if "MissingParameter" in kinds:
        if not exc.message and hint and not (param is not None and param.get_missing_message(ctx=exc.ctx)):
            kind = exc.param_type or getattr(param, "param_type_name", None)
            said = {"argument": _("Missing argument {name}."), "option": _("Missing option {name}.")}.get(
                str(kind), _("Missing parameter {name}."))
            return said.format(name=hint)
        return str(exc.format_message())
    if "BadParameter" in kinds and hint:
        return _("Invalid value for {name}: {message}").format(name=hint, message=shown(exc.message))
    if "BadOptionUsage" in kinds and getattr(exc, "option_name", None):
        return _option_usage(exc)
    extra = getattr(exc, "extra_args", None)
    if extra:
        return ngettext("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})",
                        len(extra)).format(args=" ".join(extra))
    return str(exc.format_message())


def _option_usage(exc: Any) -> str:
    """An option given without its value, or a flag given one: said from the option the command declares."""
    name = exc.option_name
    ctx = getattr(exc, "ctx", None)
    params = ctx.command.get_params(ctx) if ctx is not None else []
    option = next((p for p in params if name in (*getattr(p, "opts", ()), *getattr(p, "secondary_opts", ()))), None)
    if option is None:
        return str(exc.format_message())
    if getattr(option, "is_flag", False) or getattr(option, "count", False):
        return _("Option {name} does not take a value.").format(name=repr(name))
    nargs = max(1, int(getattr(option, "nargs", 1)))
    if nargs == 1:
        return _("Option {name} requires an argument.").format(name=repr(name))
    return ngettext("Option {name} requires {n} argument.", "Option {name} requires {n} arguments.",
                    nargs).format(name=repr(name), n=nargs)


def _takes_ctx(method: Any) -> bool:
    try:
        return len(inspect.signature(method).parameters) > 0
    except (TypeError, ValueError):
        return False
