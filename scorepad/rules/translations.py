"""A ruleset's texts in other languages: the `[translations.<lang>]` tables at the end of a ruleset file.

A ruleset keeps its own (English) texts; each `[translations.<lang>]` table may replace any of them,
keyed by the ids the ruleset already uses, and may add field-name aliases and input words players of
that language type. `translate(rs, lang)` gives a copy with the texts of `lang`, falling back per
string; `translation_problems(data)` lists what `rules check` (and the loader) refuses: unknown keys
and ids, placeholders that differ from the original, aliases or words that collide. Only texts and
input words change, never a formula, so a translated ruleset scores exactly like the original.
The format is documented in docs/rulesets.md ("Translations").
"""

from __future__ import annotations

import ast
import copy
import re
from collections import Counter
from collections.abc import Container, Iterator, Mapping
from dataclasses import replace
from typing import Any

from scorepad.locale import N_, Said
from scorepad.rules.expr import MAX_SOURCE
from scorepad.rules.model import Ruleset
from scorepad.rules.names import TEMPLATE_RE
from scorepad.rules.problems import Problems
from scorepad.rules.reading import word_meaning
from scorepad.rules.sections.variants import apply_variant

LANG_RE = re.compile(r"^[a-z]{2,3}$")
ALIAS_RE = re.compile(r"^[^\s=.,/{}\[\]\"']{1,40}$")
LANG_KEYS = {"name", "description", "notes", "end", "info", "fields", "options", "checks", "scores", "rules",
             "display", "display_words", "variants", "seats", "side_names", "stats"}
FIELD_TR_KEYS = {"help", "names", "words"}
OPTION_TR_KEYS = {"help", "name", "values"}
RULE_TR_KEYS = {"label", "message"}
VARIANT_SECTIONS = ("fields", "options", "checks", "scores", "rules", "display", "stats")
VARIANT_TR_KEYS = {"name", "description", "notes", "info", "end", *VARIANT_SECTIONS}


def placeholders(text: str) -> Counter[str]:
    """The `{formula}` parts of a message, as the multiset of their texts (order may differ by language)."""
    return Counter(m.group(1).strip() for m in TEMPLATE_RE.finditer(text))


# --------------------------------------------------------------------------- checking

def translation_problems(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every problem of a ruleset's `[translations]` table, as (TOML key, sentence); the raw file data."""
    out: list[tuple[str, str]] = []
    merged: dict[str, dict[str, Any]] = {}   # each variant applied once, whatever the number of languages
    table = data.get("translations", {})
    if not isinstance(table, dict):
        return [("translations", Said(N_("must be a table of languages ([translations.et] ...)")))]
    for lang, tr in table.items():
        _language_problems(data, lang, tr, out, merged)
    return out


def language_problems(data: Mapping[str, Any], lang: str) -> list[tuple[str, str]]:
    """The problems translation_problems finds in the table of one language (and of the table of
    languages itself): what showing the texts of `lang` depends on."""
    table = data.get("translations", {})
    if not isinstance(table, dict):
        return [("translations", Said(N_("must be a table of languages ([translations.et] ...)")))]
    out: list[tuple[str, str]] = []
    if lang in table:
        _language_problems(data, lang, table[lang], out, {})
    return out


def _language_problems(data: Mapping[str, Any], lang: Any, tr: Any, out: list[tuple[str, str]],
                       merged: dict[str, dict[str, Any]]) -> None:
    key = f"translations.{lang}"
    if not LANG_RE.match(str(lang)):
        out.append((key, Said(N_("a language is a lower-case ISO 639 code such as et, ru, uk or en"))))
    elif not isinstance(tr, dict):
        out.append((key, Said(N_("must be a table"))))
    else:
        _check_language(data, tr, key, out, merged)


def check_translations(rs: Ruleset, lang: str | None = None) -> None:
    """A game's pinned ruleset (loaded without checking its translations): the texts of `lang`, or
    of every language (None), checked as loading a ruleset file checks them; RulesetError if wrong."""
    base = rs.unchecked_translations
    if base is None or lang in rs.checked_languages:
        return
    problems = translation_problems(base) if lang is None else language_problems(base, lang)
    if problems:
        p = Problems(rs.source)
        for key, message in problems:
            p.add(key, message)
        p.fail_if_any()
    if lang is None:
        rs.unchecked_translations = None   # checked whole: as if when loaded (verify: once per text)
    else:
        rs.checked_languages.add(lang)


def _unknown(value: Mapping[str, Any], allowed: set[str], key: str, out: list[tuple[str, str]]) -> None:
    for k in value:
        if k not in allowed:
            out.append((f"{key}.{k}", Said(N_("unknown key (known: {names})"), names=", ".join(sorted(allowed)))))


def _text(value: Any, original: Any, key: str, out: list[tuple[str, str]]) -> None:
    """A translated text: text, and with the same {placeholders} as the original."""
    if not isinstance(value, str):
        out.append((key, Said(N_("must be text"))))
        return
    orig = original if isinstance(original, str) else ""
    if placeholders(value) != placeholders(orig):
        want = ", ".join("{" + p + "}" for p in sorted(placeholders(orig))) or Said(N_("none"))
        got = ", ".join("{" + p + "}" for p in sorted(placeholders(value))) or Said(N_("none"))
        out.append((key, Said(N_("uses the placeholders {got}, but the original uses {want}"), got=got, want=want)))


def _texts(value: Any, original: Any, key: str, out: list[tuple[str, str]]) -> None:
    """A translated list (notes, info): text, same count and order as the original."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        out.append((key, Said(N_("must be a list of text"))))
        return
    orig = original if isinstance(original, list) else []
    if len(value) != len(orig):
        out.append((key, Said(N_("has {n} lines, but the original has {original} (same count and order)"),
                              n=len(value), original=len(orig))))
        return
    for i, (v, o) in enumerate(zip(value, orig, strict=True)):
        _text(v, o, f"{key}[{i}]", out)


def _ids(data: Mapping[str, Any], section: str) -> dict[str, list[dict[str, Any]]]:
    """The entries of a [[check]]/[[score]]/[[rule]] list by id, including those only a variant adds."""
    found: dict[str, list[dict[str, Any]]] = {}
    lists = [data.get(section, [])]
    variants = data.get("variants", {})
    if isinstance(variants, dict):
        lists += [v.get(section, []) for v in variants.values() if isinstance(v, dict)]
    for items in lists:
        for i, entry in enumerate(items if isinstance(items, list) else []):
            if isinstance(entry, dict):
                ident = str(entry.get("id", f"{section}{i}"))
                found.setdefault(ident, []).append(entry)
    return found


def _fields(data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Fields of the base and of every variant (a variant may add a field)."""
    found: dict[str, dict[str, Any]] = {}
    tables = [data.get("fields", {})]
    variants = data.get("variants", {})
    if isinstance(variants, dict):
        tables += [v.get("fields", {}) for v in variants.values() if isinstance(v, dict)]
    for t in tables:
        for name, spec in (t.items() if isinstance(t, dict) else ()):
            if isinstance(spec, dict):
                found.setdefault(name, {}).update(spec)
    return found


def _merged(data: Mapping[str, Any], table: str, sub: str = "") -> dict[str, Any]:
    """The entries of a table (or of its sub-table) of the base and of every variant: a variant may add
    an option or a display label, and its translation sits with the others."""
    found: dict[str, Any] = {}
    variants = data.get("variants", {})
    for source in [data, *(variants.values() if isinstance(variants, dict) else [])]:
        t = source.get(table, {}) if isinstance(source, dict) else {}
        if sub:
            t = t.get(sub, {}) if isinstance(t, dict) else {}
        for name, spec in (t.items() if isinstance(t, dict) else ()):
            found.setdefault(name, spec)
    return found


def _check_language(data: Mapping[str, Any], tr: Mapping[str, Any], key: str, out: list[tuple[str, str]],
                    merged: dict[str, dict[str, Any]]) -> None:
    _unknown(tr, LANG_KEYS, key, out)
    game = _section(data, "game")
    _check_own_texts(tr, data, game.get("name"), game.get("description"), key, out)
    _check_sections(data, tr, key, out)
    _check_seats(data, tr, key, out)
    _check_variants(data, tr, key, out, merged)


def _check_seats(data: Mapping[str, Any], tr: Mapping[str, Any], key: str, out: list[tuple[str, str]]) -> None:
    """A language's seat letters and side names (`seats = ["С", "В", "Ю", "З"]`): one per seat or
    side of [players], in its order, each typable and not another seat's or side's own name."""
    players = _section(data, "players")
    for k in ("seats", "side_names"):
        if k not in tr:
            continue
        original = players.get(k)
        value = tr[k]
        if not isinstance(original, list):
            out.append((f"{key}.{k}", Said(N_("the ruleset's [players] has no {name}"), name=k)))
        elif (not isinstance(value, list) or len(value) != len(original)
              or not all(isinstance(v, str) and ALIAS_RE.match(v.strip()) for v in value)):
            out.append((f"{key}.{k}", Said(N_("must be a list of {n} names without spaces, one for each of {names}, "
                                              "in that order"), n=len(original), names=", ".join(map(str, original)))))
        else:
            own = {str(o).strip().lower(): i for i, o in enumerate(original)}
            for i, v in enumerate(value):
                if own.get(v.strip().lower(), i) != i:
                    out.append((f"{key}.{k}", Said(N_("{name} is already the name of {other}"), name=repr(v),
                                                   other=original[own[v.strip().lower()]])))


def _check_sections(data: Mapping[str, Any], tr: Mapping[str, Any], key: str, out: list[tuple[str, str]]) -> None:
    """Fields, options, checks, scores, rules and display labels of a language (or of one variant's)."""
    _check_fields(data, tr.get("fields", {}), f"{key}.fields", out)
    options = _merged(data, "options")
    for oname, otr, okey in _entries(tr, "options", options, N_("the ruleset has no option {name}"), OPTION_TR_KEYS,
                                     key, out, N_("must be a table with help, name and/or values")):
        _check_option(options[oname], otr, okey, out)
    for section, tkey, attr in (("check", "checks", "message"), ("score", "scores", "label")):
        known = _ids(data, section)
        for ident, text in _table(tr, tkey, key, out).items():
            ikey = f"{key}.{tkey}.{ident}"
            if ident not in known:
                out.append((ikey, Said(N_("the ruleset has no [[{section}]] with id {name}"), section=section,
                                       name=repr(ident))))
                continue
            for entry in known[ident]:
                _text(text, entry.get(attr, ""), ikey, out)
    rules = _ids(data, "rule")
    for ident, rtr, rkey in _entries(tr, "rules", rules, N_("the ruleset has no [[rule]] with id {name}"), RULE_TR_KEYS,
                                     key, out, N_("must be a table with label and/or message")):
        for entry in rules[ident]:
            for k in ("label", "message"):
                if k in rtr:
                    _text(rtr[k], entry.get(k, entry.get("message", "") if k == "label" else ""), f"{rkey}.{k}", out)
    _check_display(data, tr, key, out)
    statistics = _merged(data, "stats")
    for sid, text in _table(tr, "stats", key, out).items():
        skey = f"{key}.stats.{sid}"
        if sid not in statistics:
            out.append((skey, Said(N_("the ruleset has no statistic {name} in [stats]"), name=repr(sid))))
        else:
            spec = statistics[sid]
            _text(text, spec.get("name", "") if isinstance(spec, dict) else "", skey, out)


def _check_option(spec: Any, otr: Mapping[str, Any], key: str, out: list[tuple[str, str]]) -> None:
    """An option's help, its name in the language and the words of its word values."""
    spec = spec if isinstance(spec, dict) else {}
    if "help" in otr:
        _text(otr["help"], spec.get("help", ""), f"{key}.help", out)
    if "name" in otr:
        _text(otr["name"], "", f"{key}.name", out)
        if isinstance(otr["name"], str) and not otr["name"].strip():
            out.append((f"{key}.name", Said(N_("must be text"))))
    if "values" not in otr:
        return
    values = otr["values"]
    if not isinstance(values, dict):
        out.append((f"{key}.values", Said(N_("must be a table like {{ standard = \"tavaline\" }} (the value = its "
                                               "word in the language)"))))
        return
    own = [v for v in spec.get("values") or [] if isinstance(v, str)]
    seen: dict[str, str] = {}
    for value, word in values.items():
        vkey = f"{key}.values.{value}"
        if value not in own:
            said = (Said(N_("the option has no value {value} (its values: {values})"), value=repr(value),
                         values=", ".join(own)) if own else
                    Said(N_("the option has no word values to translate ({value})"), value=repr(value)))
            out.append((vkey, said))
        elif not isinstance(word, str) or not word.strip():
            out.append((vkey, Said(N_("must be text"))))
        elif seen.setdefault(word.strip().lower(), value) != value:
            out.append((vkey, Said(N_("{name} is already the word for {other}"), name=repr(word),
                                   other=repr(seen[word.strip().lower()]))))


def _check_display(data: Mapping[str, Any], tr: Mapping[str, Any], key: str, out: list[tuple[str, str]]) -> None:
    """The display labels of a language, and its words for what the display formulas show."""
    labels = set()
    for sub in ("side", "next"):
        labels |= set(_merged(data, "display", sub))
    for label, text in _table(tr, "display", key, out).items():
        if label not in labels:
            out.append((f"{key}.display.{label}", Said(N_("the ruleset has no [display.side] or [display.next] label "
                                                          "{label}"), label=repr(label))))
        elif not isinstance(text, str):
            out.append((f"{key}.display.{label}", Said(N_("must be text"))))
    shown = _display_words(data)
    for word, text in _table(tr, "display_words", key, out).items():
        if word not in shown:
            said = (Said(N_("no display formula or message placeholder shows the word {word} (they show: {words})"),
                         word=repr(word), words=", ".join(sorted(shown))) if shown else
                    Said(N_("no display formula or message placeholder shows the word {word} (they show no words)"),
                         word=repr(word)))
            out.append((f"{key}.display_words.{word}", said))
        elif not isinstance(text, str) or not text.strip():
            out.append((f"{key}.display_words.{word}", Said(N_("must be text"))))


def _display_words(data: Mapping[str, Any]) -> set[str]:
    """The words the ruleset shows from its formulas: those its [display.side] and [display.next]
    formulas give, and those filled into a [[rule]] or [[check]] message's `{placeholders}` (Lambapea's
    `{outcome_names[outcome]}`), written in them (`'neither'`) or held in a [tables] entry they read
    (King's `schedule[hand_no]`): what a translation's `display_words` may give in its language."""
    words: set[str] = set()
    variants = data.get("variants", {})
    tables = [data, *(variants.values() if isinstance(variants, dict) else [])]
    named = [t.get("tables", {}) for t in tables if isinstance(t, dict)]
    ruleset_tables = {k: v for n in named if isinstance(n, dict) for k, v in n.items()}
    displays = [t.get("display", {}) for t in tables if isinstance(t, dict)]
    sources = [src for d in displays if isinstance(d, dict) for sub in ("side", "next")
               if isinstance(d.get(sub), dict) for src in d[sub].values() if isinstance(src, str)]
    for t in tables:
        for section in ("rule", "check"):
            entries = t.get(section, []) if isinstance(t, dict) else []
            for entry in entries if isinstance(entries, list) else []:
                message = entry.get("message") if isinstance(entry, dict) else None
                if isinstance(message, str):
                    sources += [m.group(1) for m in TEMPLATE_RE.finditer(message)]
    for source in sources:
        if len(source) <= MAX_SOURCE:
            try:
                tree = ast.parse(source.strip(), mode="eval")
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue   # the loader has said what is wrong with it
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    words.add(node.value)
                elif isinstance(node, ast.Name) and node.id in ruleset_tables:
                    words |= _table_words(ruleset_tables[node.id])
    return words


def _table_words(value: Any) -> set[str]:
    """The words held in a [tables] entry, at any depth (its values, not its keys)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {w for v in value.values() for w in _table_words(v)}
    if isinstance(value, list):
        return {w for v in value for w in _table_words(v)}
    return set()


def _variant_data(data: Mapping[str, Any], vname: str, cache: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The ruleset as variant `vname` makes it, without the translations (which the variant's texts are
    checked against, never copied): merging copies its tables, and three languages' tables dwarf the rules."""
    if vname not in cache:
        rules = {k: v for k, v in data.items() if k != "translations"}
        try:
            cache[vname] = apply_variant(rules, vname, "")
        except Exception:  # noqa: BLE001 - the loader reports a broken variant itself
            cache[vname] = rules
    return cache[vname]


def _section(data: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name)
    return value if isinstance(value, dict) else {}


def _check_own_texts(tr: Mapping[str, Any], data: Mapping[str, Any], name: Any, description: Any, key: str,
                     out: list[tuple[str, str]]) -> None:
    """The name, description, end, notes and info of a language (or of a variant: `data` is the ruleset
    as the variant makes it), against the originals."""
    for k, original in (("name", name), ("description", description),
                        ("end", _section(data, "end").get("description"))):
        if k in tr:
            _text(tr[k], original, f"{key}.{k}", out)
    if "notes" in tr:
        _texts(tr["notes"], _section(data, "game").get("notes", []), f"{key}.notes", out)
    if "info" in tr:
        _texts(tr["info"], _section(data, "display").get("info", []), f"{key}.info", out)


def _check_variants(data: Mapping[str, Any], tr: Mapping[str, Any], key: str, out: list[tuple[str, str]],
                    cache: dict[str, dict[str, Any]]) -> None:
    variants = data.get("variants", {}) if isinstance(data.get("variants"), dict) else {}
    for vname, vtr, vkey in _entries(tr, "variants", variants, N_("the ruleset has no variant {name}"), VARIANT_TR_KEYS,
                                     key, out):
        overlay = variants[vname] if isinstance(variants[vname], dict) else {}
        merged = _variant_data(data, vname, cache)
        _check_own_texts(vtr, merged, overlay.get("name", vname), overlay.get("description", ""), vkey, out)
        sections = {k: vtr[k] for k in VARIANT_SECTIONS if k in vtr}
        if sections:   # what the variant itself says differently: checked against the variant's texts
            _check_sections({k: v for k, v in merged.items() if k != "variants"}, sections, vkey, out)


def _entries(tr: Mapping[str, Any], k: str, known: Container[str], missing: str, keys: set[str], key: str,
             out: list[tuple[str, str]], shape: str = N_("must be a table")) -> Iterator[tuple[str, dict[str, Any], str]]:
    """The translated tables under `k` that name something the ruleset has, with unknown keys reported.
    `missing` and `shape` are the message ids of the sentences for a name the ruleset lacks and for a value
    that is not such a table."""
    for name, value in _table(tr, k, key, out).items():
        nkey = f"{key}.{k}.{name}"
        if name not in known:
            out.append((nkey, Said(missing, name=repr(name))))
        elif not isinstance(value, dict):
            out.append((nkey, Said(shape)))
        else:
            _unknown(value, keys, nkey, out)
            yield name, value, nkey


def _table(tr: Mapping[str, Any], k: str, key: str, out: list[tuple[str, str]]) -> dict[str, Any]:
    value = tr.get(k, {})
    if not isinstance(value, dict):
        out.append((f"{key}.{k}", Said(N_("must be a table"))))
        return {}
    return value


def _check_fields(data: Mapping[str, Any], ftr: Any, key: str, out: list[tuple[str, str]]) -> None:
    if not isinstance(ftr, dict):
        out.append((key, Said(N_("must be a table of fields"))))
        return
    fields = _fields(data)
    taken: dict[str, str] = {name: name for name in fields}   # every name or alias -> its field
    for fname, spec in ftr.items():
        fkey = f"{key}.{fname}"
        if fname not in fields:
            out.append((fkey, Said(N_("the ruleset has no field {name}"), name=repr(fname))))
            continue
        if not isinstance(spec, dict):
            out.append((fkey, Said(N_("must be a table with help, names and/or words"))))
            continue
        _unknown(spec, FIELD_TR_KEYS, fkey, out)
        if "help" in spec:
            _text(spec["help"], fields[fname].get("help", ""), f"{fkey}.help", out)
        names = spec.get("names", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            out.append((f"{fkey}.names", Said(N_("must be a list of names"))))
            names = []
        for alias in names:
            low = alias.strip().lower()
            if not ALIAS_RE.match(low):
                out.append((f"{fkey}.names", Said(N_("{name} cannot be typed as a field name (no spaces, = . , / or "
                                                     "quotes)"), name=repr(alias))))
            elif taken.get(low, fname) != fname:
                out.append((f"{fkey}.names", Said(N_("{name} is already the name of field {field}"), name=repr(alias),
                                                  field=repr(taken[low]))))
            else:
                taken[low] = fname
        words = spec.get("words", {})
        if not isinstance(words, dict):
            out.append((f"{fkey}.words", Said(N_("must be a table like {{ jah = \"yes\" }} (the word = what it stands "
                                                 "for)"))))
            continue
        for word, target in words.items():
            try:
                word_meaning(fields[fname], str(word), target)
            except ValueError as exc:
                out.append((f"{fkey}.words.{word}", exc.args[0] if exc.args else str(exc)))


def drop_stale(merged: dict[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """A derived ruleset (`base = ...` and an overlay) without the base's translations the overlay made stale.

    A text the overlay replaces (name, notes, a check's message ...) is no longer the one its base
    translation renders, and a translated list no longer has the original's count: such translations
    are dropped, so the derived ruleset falls back to its own text. The overlay's own translations
    are kept and still checked.
    """
    table = merged.get("translations")
    if not isinstance(table, dict):
        return merged
    own = overlay.get("translations", {}) if isinstance(overlay.get("translations"), dict) else {}
    replaced = _replaced_texts(overlay)
    for lang, tr in table.items():
        if not isinstance(tr, dict):
            continue
        mine = own.get(lang, {}) if isinstance(own.get(lang), dict) else {}
        for path in replaced:
            _drop(tr, path, mine)
    for key, _ in translation_problems(merged):   # what still does not fit, unless the overlay wrote it
        parts = key.split(".")
        if len(parts) > 2 and isinstance(table.get(parts[1]), dict):
            path = tuple(re.sub(r"\[\d+\]$", "", p) for p in parts[2:])
            _drop(table[parts[1]], path, own.get(parts[1], {}) if isinstance(own.get(parts[1]), dict) else {})
    return merged


def _replaced_texts(overlay: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """Where, in a translation, the texts an overlay replaces are (a translation of them is stale)."""
    game = overlay.get("game", {}) if isinstance(overlay.get("game"), dict) else {}
    replaced: list[tuple[str, ...]] = [(k,) for k in ("name", "description", "notes") if k in game]
    if "description" in (overlay.get("end") or {}):
        replaced.append(("end",))
    if "info" in (overlay.get("display") or {}):
        replaced.append(("info",))
    for section, key in (("fields", "help"), ("options", "help")):
        for name, spec in (overlay.get(section) or {}).items():
            if isinstance(spec, dict) and key in spec:
                replaced.append((section, name, key))
    for sid, spec in (overlay.get("stats") or {}).items():
        if isinstance(spec, dict) and "label" in spec:
            replaced.append(("stats", str(sid)))
    for section, group in (("check", "checks"), ("score", "scores"), ("rule", "rules")):
        for entry in overlay.get(section) or []:
            if isinstance(entry, dict) and "id" in entry:
                replaced.append((group, str(entry["id"])))
    return replaced


def _drop(tr: dict[str, Any], path: tuple[str, ...], keep: Mapping[str, Any]) -> None:
    """Remove tr[path...] unless the overlay's own translation `keep` has that key."""
    node: Any = tr
    mine: Any = keep
    for k in path[:-1]:
        if not isinstance(node, dict) or not isinstance(node.get(k), dict):
            return
        node, mine = node[k], mine.get(k, {}) if isinstance(mine, dict) else {}
    if isinstance(node, dict) and path[-1] in node and not (isinstance(mine, dict) and path[-1] in mine):
        del node[path[-1]]


# --------------------------------------------------------------------------- translating

def languages(rs: Ruleset) -> list[str]:
    """The languages a ruleset carries translations for."""
    table = rs.data.get("translations", {})
    return sorted(table) if isinstance(table, dict) else []


def option_words(rs: Ruleset, name: str) -> dict[str, str | None]:
    """The words every language the ruleset carries gives an option's word values (lower case -> value):
    `--opt` reads them in any language, as a field's words are; a word two values share maps to None."""
    out: dict[str, str | None] = {}
    table = rs.data.get("translations", {})
    for tr in (table.values() if isinstance(table, dict) else ()):
        values = tr.get("options", {}).get(name, {}).get("values", {}) if isinstance(tr, dict) else {}
        for value, word in (values.items() if isinstance(values, dict) else ()):
            low = str(word).strip().lower()
            out[low] = value if out.get(low, value) == value else None
    return out


def translate(rs: Ruleset, lang: str | None) -> Ruleset:
    """`rs` with the texts of `lang`, each missing string falling back to the original: a view built
    once per ruleset and language (kept in `rs.views`), so a command or a server's requests that show
    a game in a language many times share one.

    Formulas are shared, never recompiled; a message's parts are reordered to follow the translated
    text (the placeholders are the same, their order may differ). Unknown languages return `rs`.
    """
    rs = rs.own or rs   # a view asked for another language: the ruleset's own texts are the fallback
    if lang:
        check_translations(rs, lang)   # a game's pinned ruleset: its texts in `lang` checked now
    table = rs.data.get("translations", {})
    tr = table.get(lang) if isinstance(table, dict) and lang else None
    if not isinstance(tr, dict):   # the loader has checked the table; here only its use
        return rs
    view = rs.views.get(str(lang))
    if view is None:   # two threads at once may both build it: the same texts, one kept
        view = rs.views.setdefault(str(lang), _view(rs, str(lang), tr))
    return view


def _view(rs: Ruleset, lang: str, tr: dict[str, Any]) -> Ruleset:
    """A copy of `rs` with the texts of one language's table `tr` (the formulas the same objects)."""
    out = copy.copy(rs)
    out.views, out.own = {}, rs
    vtr: dict[str, Any] = {}
    if rs.variant:
        vtr = tr.get("variants", {}).get(rs.variant, {})
        tr = _with_variant_sections(tr, vtr)
    out.name = tr.get("name") or rs.names.get(str(lang)) or rs.name
    game = rs.data.get("game", {})
    base_data = rs.data
    variants_table = base_data.get("variants", {}) if isinstance(base_data.get("variants"), dict) else {}
    if rs.variant:
        base_desc = tr.get("description", game.get("description", ""))
        extra = vtr.get("description", variants_table.get(rs.variant, {}).get("description", ""))
        out.description = f"{base_desc}\n{extra}".strip() if extra else base_desc
    else:
        out.description = tr.get("description", rs.description)
    out.notes = tuple(vtr.get("notes") or (tr.get("notes") if not _variant_sets(rs, "game", "notes") else None)
                      or rs.notes)
    out.display_info = tuple(vtr.get("info") or (tr.get("info") if not _variant_sets(rs, "display", "info") else None)
                             or rs.display_info)
    end_text = vtr.get("end") or (tr.get("end") if not _variant_sets(rs, "end", "description") else None)
    if end_text:
        out.end = replace(rs.end, description=end_text)
    vnames = tr.get("variants", {})
    out.variants = {k: vnames.get(k, {}).get("name", v) for k, v in rs.variants.items()}
    out.fields, out.field_aliases = _translated_fields(rs, tr.get("fields", {}))
    out.options = {k: _translated_option(o, tr.get("options", {}).get(k, {})) for k, o in rs.options.items()}
    checks_tr = tr.get("checks", {})
    out.checks = tuple(replace(c, message=checks_tr[c.id], message_parts=_reorder(c.message, c.message_parts,
                                                                                            checks_tr[c.id]))
                       if c.id in checks_tr else c for c in rs.checks)
    scores_tr = tr.get("scores", {})
    out.scores = tuple(replace(s, label=scores_tr.get(s.id, s.label)) for s in rs.scores)
    out.rules = _translated_rules(rs, tr.get("rules", {}))
    statistics_tr = tr.get("stats", {})
    out.statistics = tuple(replace(st, name=statistics_tr.get(st.id, st.name)) for st in rs.statistics)
    display_tr = tr.get("display", {})
    out.display_side = {display_tr.get(k, k): f for k, f in rs.display_side.items()}
    out.display_next = {display_tr.get(k, k): f for k, f in rs.display_next.items()}
    out.display_words = dict(tr.get("display_words", {}))
    return out


def _translated_fields(rs: Ruleset, fields_tr: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The fields with their help, value words and names in the language (the aliases it adds)."""
    fields = dict(rs.fields)
    aliases: dict[str, str] = dict(rs.field_aliases)
    for fname, spec in fields_tr.items():
        fdef = fields.get(fname)
        if fdef is None:
            continue   # a field only another variant has
        words = dict(fdef.words)
        synonyms = dict(fdef.synonyms)
        raw_spec = {"type": fdef.type, "words": fdef.words, "values": list(fdef.values), "synonyms": fdef.synonyms}
        for word, target in spec.get("words", {}).items():
            try:
                kind, value = word_meaning(raw_spec, str(word), target)
            except ValueError:
                continue   # a word a variant's own field does not take
            if kind == "word":
                words[str(word).strip().lower()] = value
            elif kind == "synonym":
                synonyms[str(word).strip().lower()] = value
            # a combination's name, or a word of two meanings: read (and refused) by Ruleset.reading
        fields[fname] = replace(fdef, help=spec.get("help", fdef.help), words=words, synonyms=synonyms)
        for alias in spec.get("names", []):
            aliases[alias.strip().lower()] = fname
    return fields, aliases


def _translated_option(o: Any, otr: Mapping[str, Any]) -> Any:
    """An option with its help, name and value words in the language (each falling back to the original)."""
    if not otr:
        return o
    return replace(o, help=otr.get("help", o.help), label=otr.get("name", o.label),
                   value_names={**o.value_names, **otr.get("values", {})})


def _translated_rules(rs: Ruleset, rules_tr: Mapping[str, Any]) -> tuple[Any, ...]:
    """The threshold rules with their messages and labels in the language (a message's parts reordered)."""
    rules = []
    for r in rs.rules:
        rt = rules_tr.get(r.id, {})
        if not rt:
            rules.append(r)
            continue
        message = rt.get("message", r.message)
        label = rt.get("label") or (rt.get("message") if r.label == r.message and "message" in rt else r.label)
        rules.append(replace(r, label=label, message=message,
                                         message_parts=_reorder(r.message, r.message_parts, message)))
    return tuple(rules)


def _with_variant_sections(tr: Mapping[str, Any], vtr: Mapping[str, Any]) -> dict[str, Any]:
    """The language's table with a variant's own field, option, check, score, rule and display texts
    laid over it (for the texts the variant words differently from the base game)."""
    out = dict(tr)
    for section in VARIANT_SECTIONS:
        if not isinstance(vtr.get(section), dict):
            continue
        merged = dict(out.get(section, {}))
        for name, value in vtr[section].items():
            if isinstance(value, dict) and isinstance(merged.get(name), dict):
                merged[name] = {**merged[name], **value}
            else:
                merged[name] = value
        out[section] = merged
    return out


def _variant_sets(rs: Ruleset, table: str, key: str) -> bool:
    """Whether the chosen variant replaces this text itself (then the base translation no longer fits)."""
    if not rs.variant:
        return False
    overlay = rs.data.get("variants", {}).get(rs.variant, {})
    return isinstance(overlay, dict) and isinstance(overlay.get(table), dict) and key in overlay[table]


def _reorder(original: str, parts: tuple[Any, ...], translated: str) -> tuple[Any, ...]:
    """The compiled parts of `original` in the order the translated text uses its placeholders."""
    by_text: dict[str, list[Any]] = {}
    for m, f in zip(TEMPLATE_RE.finditer(original), parts, strict=False):
        by_text.setdefault(m.group(1).strip(), []).append(f)
    out = []
    for m in TEMPLATE_RE.finditer(translated):
        queue = by_text.get(m.group(1).strip())
        if not queue:
            return parts
        out.append(queue.pop(0) if len(queue) > 1 else queue[0])
    return tuple(out)
