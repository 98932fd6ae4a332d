"""The bundled rulesets carry their player-facing texts in the language of their source text.

Estonian (et) for the games of the Estonian rule texts, Russian (ru) for the games of the Russian
text, Ukrainian (uk) and Russian (ru) for Skid. What must be translated is computed from each
ruleset itself, so a new check, field or note without its translation fails here.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorepad.app.scenario import run_scenario
from scorepad.rules.registry import load
from scorepad.rules.translations import placeholders, translate, translation_problems

pytestmark = pytest.mark.slow  # every bundled ruleset's translations: `python -m pytest -m slow` (CI runs it)

RULESETS = Path(__file__).parents[2] / "rulesets"
SCENARIOS = Path(__file__).parents[1] / "scenarios"

RUSSIAN_TEXT = {"piquet", "pinochle", "pitch", "pope-joan", "two-hands-down", "thirty-one-lives", "pra",
                "ace-clears", "propushchenka", "old-maid", "durak", "king"}


def source_languages(ruleset_id: str) -> list[str]:
    """The languages of the rule text a bundled game comes from."""
    if ruleset_id == "skid":
        return ["uk", "ru"]
    if ruleset_id in RUSSIAN_TEXT:
        return ["ru"]
    return ["et"]


def load_data(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def languages(data: dict[str, Any]) -> list[str]:
    """The source languages, then every other language the file translates into (checked the same way)."""
    own = source_languages(data["game"]["id"])
    return own + sorted(set(data.get("translations", {})) - set(own))


FILES = sorted(RULESETS.glob("*.toml"))
CASES = [(p, lang) for p in FILES for lang in languages(load_data(p))]
CASE_IDS = [f"{p.stem}-{lang}" for p, lang in CASES]


def _sections(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The ruleset's top level and each variant: ids, fields and options are shared between them."""
    yield data
    yield from data.get("variants", {}).values()


def _section_texts(section: dict[str, Any]) -> dict[tuple[str, ...], str]:
    """The field and option helps, check messages, score labels and rule texts of one section."""
    texts: dict[tuple[str, ...], str] = {}
    for group in ("fields", "options"):
        for name, spec in section.get(group, {}).items():
            if spec.get("help"):
                texts[(group, name, "help")] = spec["help"]
    for entry in section.get("check", []):
        if "message" in entry:
            texts[("checks", entry["id"])] = entry["message"]
    for entry in section.get("score", []):
        if "label" in entry:
            texts[("scores", entry["id"])] = entry["label"]
    for entry in section.get("rule", []):
        for key in ("label", "message"):
            if key in entry:
                texts[("rules", entry["id"], key)] = entry[key]
    return texts


def required(data: dict[str, Any]) -> dict[tuple[str, ...], Any]:
    """Every translatable text of a ruleset: key path in the translation table -> original text.

    Lists (notes, info) map to the original list, so counts can be compared.
    """
    need: dict[tuple[str, ...], Any] = {}
    game = data["game"]
    for key in ("name", "description"):
        if key in game:
            need[(key,)] = game[key]
    if game.get("notes"):
        need[("notes",)] = game["notes"]
    if "description" in data.get("end", {}):
        need[("end",)] = data["end"]["description"]
    if data.get("display", {}).get("info"):
        need[("info",)] = data["display"]["info"]
    for section in _sections(data):
        for name, spec in section.get("fields", {}).items():
            if "help" in spec:
                need.setdefault(("fields", name, "help"), spec["help"])
        for name, spec in section.get("options", {}).items():
            if "help" in spec:
                need.setdefault(("options", name, "help"), spec["help"])
        for entry in section.get("check", []):
            if "message" in entry:
                need.setdefault(("checks", entry["id"]), entry["message"])
        for entry in section.get("score", []):
            if "label" in entry:
                need.setdefault(("scores", entry["id"]), entry["label"])
        for entry in section.get("rule", []):
            for key in ("label", "message"):
                if key in entry:
                    need.setdefault(("rules", entry["id"], key), entry[key])
        for kind in ("side", "next"):
            for label in section.get("display", {}).get(kind, {}):
                need.setdefault(("display", label), label)
        for name, spec in section.get("stats", {}).items():
            if "label" in spec:
                need.setdefault(("stats", name), spec["label"])
    for vid, variant in data.get("variants", {}).items():
        # a text the variant words differently from the base game is translated for that variant
        for key, text in _section_texts(variant).items():
            if key in need and need[key] != text:
                need[("variants", vid, *key)] = text
        for key in ("name", "description"):
            if key in variant:
                need[("variants", vid, key)] = variant[key]
        notes = variant.get("notes") or variant.get("game", {}).get("notes")   # a variant's notes: [variants.X.game]
        if notes:
            need[("variants", vid, "notes")] = notes
        if variant.get("display", {}).get("info"):
            need[("variants", vid, "info")] = variant["display"]["info"]
        if "description" in variant.get("end", {}):
            need[("variants", vid, "end")] = variant["end"]["description"]
    return need


def lookup(table: dict[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = table
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def test_every_bundled_ruleset_has_a_source_language() -> None:
    sources = [(p, lang) for p in FILES for lang in source_languages(load_data(p)["game"]["id"])]
    assert len(sources) == len(FILES) + 1  # Skid has two
    assert set(sources) <= set(CASES)
    assert {load_data(p)["game"]["id"] for p in FILES} >= RUSSIAN_TEXT


@pytest.mark.parametrize(("path", "lang"), CASES, ids=CASE_IDS)
def test_translation_is_complete(path: Path, lang: str) -> None:
    data = load_data(path)
    table = data.get("translations", {}).get(lang)
    assert table, f"{path.name} has no [translations.{lang}]"
    missing, wrong = [], []
    for key, original in required(data).items():
        got = lookup(table, key)
        if got is None or got == "" or got == []:
            missing.append(".".join(key))
        elif isinstance(original, list):
            if not isinstance(got, list) or len(got) != len(original):
                wrong.append(f"{'.'.join(key)}: {len(original)} entries in the original")
            elif any(not s.strip() for s in got):
                wrong.append(f"{'.'.join(key)}: an empty entry")
    assert not missing, f"{path.name} [{lang}] lacks: {missing}"
    assert not wrong, f"{path.name} [{lang}]: {wrong}"


def text_pairs(path: Path, lang: str) -> Iterator[tuple[tuple[str, ...], str, str]]:
    """(key, original, translation) for every text the language must give (each line of a list)."""
    data = load_data(path)
    table = data["translations"][lang]
    for key, original in required(data).items():
        got = lookup(table, key)
        pairs = list(zip(original, got, strict=True)) if isinstance(original, list) else [(original, got)]
        for orig, text in pairs:
            yield key, orig, text


@pytest.mark.parametrize(("path", "lang"), CASES, ids=CASE_IDS)
def test_translation_is_translated(path: Path, lang: str) -> None:
    """Cyrillic languages are written in Cyrillic; the Estonian texts are not the English ones."""
    same = []
    for key, orig, text in text_pairs(path, lang):
        bare = PLACEHOLDER.sub("", text)
        latin_only = lang in ("ru", "uk") and len(re.sub(r"[^A-Za-z]", "", bare)) > 8 \
            and not re.search(r"[А-Яа-яЁёІіЇїЄєҐґ]", bare)
        unchanged = text == orig and len(re.findall(r"[A-Za-z]{4,}", bare)) > 1 and key[0] != "display" \
            and key != ("name",)   # a game's name may be the same word in both languages
        if latin_only or unchanged:
            same.append(".".join(key))
    assert not same, f"{path.name} [{lang}] left in English: {same}"


@pytest.mark.parametrize(("path", "lang"), CASES, ids=CASE_IDS)
def test_translation_keeps_placeholders(path: Path, lang: str) -> None:
    wrong = []
    for key, orig, text in text_pairs(path, lang):
        if placeholders(orig) != placeholders(text):
            wrong.append(f"{'.'.join(key)}: {sorted(placeholders(orig).elements())} vs "
                         f"{sorted(placeholders(text).elements())}")
    assert not wrong, f"{path.name} [{lang}]: {wrong}"


@pytest.mark.parametrize(("path", "lang"), CASES, ids=CASE_IDS)
def test_translation_has_no_unknown_keys(path: Path, lang: str) -> None:
    """Every translated id, field, option, label and variant exists in the ruleset."""
    data = load_data(path)
    table = data["translations"][lang]
    need = required(data)
    fields = {n for s in _sections(data) for n in s.get("fields", {})}
    unknown = []
    for group in ("checks", "scores", "display"):
        unknown += [f"{group}.{k}" for k in table.get(group, {}) if (group, k) not in need]
    for key, entry in table.get("rules", {}).items():
        unknown += [f"rules.{key}.{k}" for k in entry if ("rules", key, k) not in need]
    unknown += [f"fields.{k}" for k in table.get("fields", {}) if k not in fields]
    options = {n for s in _sections(data) for n in s.get("options", {})}   # a name or values need no help
    unknown += [f"options.{k}" for k in table.get("options", {}) if k not in options]
    for vid, entry in table.get("variants", {}).items():
        unknown += [f"variants.{vid}.{k}" for k in entry
                    if ("variants", vid, k) not in need and not isinstance(entry[k], dict)]
        for group in ("fields", "options", "rules"):
            unknown += [f"variants.{vid}.{group}.{name}.{k}" for name, spec in entry.get(group, {}).items()
                        for k in spec if k in ("help", "label", "message")
                        and ("variants", vid, group, name, k) not in need]
        for group in ("checks", "scores"):
            unknown += [f"variants.{vid}.{group}.{k}" for k in entry.get(group, {})
                        if ("variants", vid, group, k) not in need]
    assert not unknown, f"{path.name} [{lang}] translates what the ruleset does not have: {unknown}"


def _field_words(spec: dict[str, Any]) -> dict[str, Any]:
    """The words a field already understands, and what each stands for."""
    words: dict[str, Any] = {str(v).lower(): v for v in spec.get("values", [])}
    words.update({str(k).lower(): v for k, v in spec.get("synonyms", {}).items()})
    words.update({str(k).lower(): v for k, v in spec.get("words", {}).items()})
    return words


@pytest.mark.parametrize(("path", "lang"), CASES, ids=CASE_IDS)
def test_names_and_words_do_not_collide(path: Path, lang: str) -> None:
    data = load_data(path)
    table = data["translations"][lang]
    specs: dict[str, dict[str, Any]] = {}
    for section in _sections(data):
        for name, spec in section.get("fields", {}).items():
            specs.setdefault(name, {}).update(spec)
    owner: dict[str, str] = {name.lower(): name for name in specs}
    problems = []
    for name, entry in table.get("fields", {}).items():
        for alias in entry.get("names", []):
            key = alias.lower()
            if owner.get(key, name) != name:
                problems.append(f"{name}: alias {alias!r} is already {owner[key]!r}")
            owner[key] = name
            if not re.fullmatch(r"[^\W\d][\w-]*", alias):
                problems.append(f"{name}: alias {alias!r} is not a plain word")
        known = _field_words(specs[name])
        for word, value in entry.get("words", {}).items():
            if word.lower() in known and known[word.lower()] != value:
                problems.append(f"{name}: word {word!r} already means {known[word.lower()]!r}")
            values = specs[name].get("values")
            if values is not None and value not in values:
                problems.append(f"{name}: word {word!r} stands for {value!r}, not a value of the field")
    assert not problems, f"{path.name} [{lang}]: {problems}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_loader_accepts_the_translations(path: Path) -> None:
    """What `rules check` and the loader refuse: unknown ids, other placeholders, colliding names."""
    assert translation_problems(load_data(path)) == []


# What a translated ruleset changes: the texts of refusals, events and display labels. Everything
# else a scenario expects (points, totals, state, winners, which hands are refused) must hold.
TEXT_ONLY = ("refused with ", "no event containing ", "an event contains ", "display ", "next ")
SCENARIO_CASES = [(s, lang) for s in sorted(SCENARIOS.rglob("*.toml"))
                  for lang in languages(load_data(RULESETS / f"{s.parent.name}.toml"))]


@pytest.mark.parametrize(("scenario", "lang"), SCENARIO_CASES,
                         ids=[f"{s.parent.name}/{s.stem}-{lang}" for s, lang in SCENARIO_CASES])
def test_translated_ruleset_plays_its_scenarios(scenario: Path, lang: str) -> None:
    spec = load_data(scenario)
    original = load(str(spec["ruleset"]), (), spec.get("variant"))
    translated = translate(original, lang)
    assert translated is not original
    if spec.get("variant"):
        assert translated.variants[spec["variant"]] != original.variants[spec["variant"]]
    mismatches = [m for m in run_scenario(scenario, translated) if not m.what.startswith(TEXT_ONLY)]
    assert not mismatches, "\n".join(str(m) for m in mismatches)


def test_a_derived_ruleset_drops_the_translations_its_overlay_made_stale(tmp_path: Path) -> None:
    """`rules derive` and hand-written `base = ...` files replace texts the base's translations render."""
    from scorepad.rules.loader import load_text
    from scorepad.rules.registry import resolved_text

    path = tmp_path / "skid-house.toml"
    path.write_text('format = 1\nbase = "skid"\n[game]\nid = "skid-house"\nname = "Skid at home"\n'
                    'notes = ["one house note"]\n[[check]]\nid = "card_total"\nok = "sum(all_n_cards) <= 35"\n'
                    'message = "too many cards: {sum(all_n_cards)}"\n', encoding="utf-8")
    text, _ = resolved_text(path)
    rs = load_text(text, str(path))
    uk = translate(rs, "uk")
    assert uk.notes == ("one house note",)
    assert uk.name == "Skid at home"
    assert next(c.message for c in uk.checks if c.id == "card_total") == "too many cards: {sum(all_n_cards)}"
    # the texts the overlay left alone keep their translation
    assert next(c.message for c in uk.checks if c.id == "out_hand_empty").startswith("{me} виходить")
    assert uk.fields["reshuffles"].help.startswith("скільки разів")


def test_a_derived_ruleset_still_reports_its_own_bad_translation(tmp_path: Path) -> None:
    from scorepad.errors import RulesetError
    from scorepad.rules.loader import load_text
    from scorepad.rules.registry import resolved_text

    path = tmp_path / "skid-bad.toml"
    path.write_text('format = 1\nbase = "skid"\n[game]\nid = "skid-bad"\n'
                    '[translations.uk.checks]\ncard_total = "забагато карт: {len(cards)}"\n', encoding="utf-8")
    text, _ = resolved_text(path)
    with pytest.raises(RulesetError) as err:
        load_text(text, str(path))
    assert "translations.uk.checks.card_total" in "\n".join([err.value.message, *err.value.problems])


# A hand typed with the players' own field names and words scores exactly as the English one.
NATIVE_HANDS = [
    ("skid", "uk", ["a", "b", "c"], ["вийшов=a", "b.карти=K QS", "c.карти=A", "тасування=1"],
     ["out=a", "b.cards=K QS", "c.cards=A", "reshuffles=1"]),
    ("skid", "ru", ["a", "b", "c"], ["бридж=b", "a.карты=10", "b.карты=J", "c.карты=A 6", "перетасовки=2"],
     ["bridge=b", "a.cards=10", "b.cards=J", "c.cards=A 6", "reshuffles=2"]),
    ("skid", "ru", ["a", "b", "c"], ["вышел=c", "валет=да", "a.карты=дама пик", "b.карты=К"],
     ["out=c", "jack=yes", "a.cards=QS", "b.cards=K"]),
    ("pitch", "ru", ["a", "b", "c"], ["питчер=a", "объявление=2", "старший=a", "младший=b", "валет=нет", "игра=ничья"],
     ["pitcher=a", "bid=2", "high=a", "low=b", "jack=none", "game=tie"]),
    ("pitch", "ru", ["a", "b", "c"], ["питчер=a", "объявление=1", "старший=a", "младший=b", "валет=нет", "гейм=c"],
     ["pitcher=a", "bid=1", "high=a", "low=b", "jack=none", "game=c"]),
    ("pitch", "uk", ["a", "b", "c"], ["пітчер=a", "заявка=2", "старший=a", "молодший=b", "валет=нема", "гра=нічия"],
     ["pitcher=a", "bid=2", "high=a", "low=b", "jack=none", "game=tie"]),
    ("marjas", "et", ["a", "b", "c", "d"], ["trumbitegija=pole", "matid=viik", "viimane=a"],
     ["trump=none", "matt=tie", "last=a"]),
    ("spades", "et", ["a", "b", "c", "d"], ["pakkumine=3,nil,4,2", "tihid=4,0,5,4"],
     ["bid=3,0,4,2", "tricks=4,0,5,4"]),
    ("thousand", "uk", ["a", "b", "c"], ["грає=a", "заявка=110", "очки=70,30,20", "a.марьяжі=Ч", "b.марʼяжі=нема"],
     ["bidder=a", "bid=110", "points=70,30,20", "a.marriages=H", "b.marriages=-"]),
    # the usual spelling, with a typewriter or a typographic apostrophe, finds марʼяжі
    ("thousand", "uk", ["a", "b", "c"], ["грає=a", "заявка=110", "очки=70,30,20", "a.мар'яжі=Ч", "b.мар’яжі=нема"],
     ["bidder=a", "bid=110", "points=70,30,20", "a.marriages=H", "b.marriages=-"]),
    ("thousand", "et", ["a", "b", "c"], ["pakkuja=a", "pakkumine=110", "punktid=70,30,20", "a.trumbid=H", "b.trumbid=pole"],
     ["bidder=a", "bid=110", "points=70,30,20", "a.marriages=H", "b.marriages=-"]),
]


@pytest.mark.parametrize(("ruleset", "lang", "players", "native", "english"), NATIVE_HANDS,
                         ids=[f"{r}-{lang}-{i}" for i, (r, lang, *_) in enumerate(NATIVE_HANDS)])
def test_native_field_names_and_words(ruleset: str, lang: str, players: list[str], native: list[str],
                                      english: list[str]) -> None:
    from scorepad.app.scenario import record
    from scorepad.engine.game import initial_state, make_game

    translated = make_game(translate(load(ruleset), lang), players, None, {})
    original = make_game(load(ruleset), players, None, {})
    got = record(translated, initial_state(translated), native)
    want = record(original, initial_state(original), english)
    assert list(got.points) == list(want.points)
    assert any(p != 0 for p in want.points)


def test_a_variant_that_words_a_text_differently_has_its_own_translation() -> None:
    base = translate(load("pinochle"), "ru")
    auction = translate(load("pinochle", (), "auction"), "ru")
    assert base.fields["last"].help == "кто взял последнюю взятку (10)"
    assert auction.fields["last"].help.startswith("в торговле не нужно")
    assert auction.fields["bid"].help.startswith("объявление: 300")      # the language's own table still applies
    mirrors = translate(load("spades", (), "mirrors"), "et")
    assert next(c.message for c in mirrors.checks if c.id == "no_blind").startswith("{me}: Peeglis")
    points = translate(load("vene-pank", (), "points"), "et")
    assert [s.label for s in points.scores if s.id == "won"] == ["kaotaja allesjäänud kaardid"]


@pytest.mark.parametrize(("extra", "key", "says"), [
    ('[translations.ru.variants.auction.checks]\nno_such = "x"\n', "variants.auction.checks.no_such", "no [[check]]"),
    ('[translations.ru.variants.auction.checks]\nbid_tens = "{bid}{me}"\n', "variants.auction.checks.bid_tens",
     "placeholders"),
    ('[translations.ru.variants.auction.fields.nope]\nhelp = "x"\n', "variants.auction.fields.nope", "no field"),
    ('[translations.ru.variants.auction.options.target]\nhelpp = "x"\n', "variants.auction.options.target.helpp",
     "unknown key"),
    ('[translations.ru.options.nope]\nhelp = "x"\n', "options.nope", "no option 'nope'"),
    ('[translations.ru.rules]\nnope = "x"\n', "rules.nope", "no [[rule]] with id 'nope'"),
    ('[translations.ru.variants.nope]\nname = "x"\n', "variants.nope", "no variant 'nope'"),
])
def test_the_loader_checks_a_variant_s_own_translations(extra: str, key: str, says: str) -> None:
    data = tomllib.loads((RULESETS / "pinochle.toml").read_text(encoding="utf-8") + "\n" + extra)
    problems = translation_problems(data)
    assert any(k == f"translations.ru.{key}" and says in text for k, text in problems), problems


@pytest.mark.parametrize(("path", "says"), [
    (("options", "target"), "must be a table with help, name and/or values"),
    (("variants", "auction"), "must be a table"),
    (("rules",), "must be a table"),
])
def test_a_translation_entry_that_is_not_a_table_is_named(path: tuple[str, ...], says: str) -> None:
    data = tomllib.loads((RULESETS / "pinochle.toml").read_text(encoding="utf-8"))
    table = data["translations"]["ru"]
    for k in path[:-1]:
        table = table[k]
    table[path[-1]] = "x"
    problems = translation_problems(data)
    assert (f"translations.ru.{'.'.join(path)}", says) in problems, problems
