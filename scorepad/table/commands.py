"""The commands of `play` and the words each language has for them.

A command is known by its English name (what the README and `scorepad --help` use) and by the words
of the language shown: `выход` or `välju` leaves, `отмена` or `tagasi` takes back. The words are one
table per language here, the help texts are in the catalogs; `help` in `play` lists each command by
its words in the language shown, the English name beside them.
"""

from __future__ import annotations

from scorepad.locale import N_, _

# Each command: the words after it (a catalog text; empty when it takes none) and what it does.
PLAY_COMMANDS: dict[str, tuple[str, str]] = {
    "bid": (N_("FIELD=VALUE..."), N_("write down the bids of the next hand (bid alone asks them)")),
    "undo": ("", N_("take back the bid written down, else the finish, else the last hand")),
    "redo": ("", N_("put back the hand undo took back")),
    "edit": (N_("N [FIELD=VALUE...]"), N_("correct hand N (without values: asks again, with the old ones as defaults)")),
    "sheet": ("", N_("the score sheet, hand by hand")),
    "standings": ("", N_("totals, counters, who deals")),
    "rules": ("", N_("the game's rules: fields, options, scoring")),
    "log": ("", N_("the audit trail: every undo, edit and finish, with what changed")),
    "finish": ("", N_("end the game now by the ruleset's rule (asks first)")),
    "rematch": ("", N_("a new game: same game, players and house rules")),
    "use": (N_("GAME"), N_("switch to another game (id or name)")),
    "new": (N_("GAME PLAYER..."), N_("start a new game")),
    "help": ("", N_("this list")),
    "quit": ("", N_("leave (Ctrl-D too); everything is stored already")),
}

# Other English words for a command (besides its name).
ENGLISH = {"quit": ("exit", "q"), "help": ("?", "h")}

# The words of each language for the commands, the first one shown in `help`. Nouns and verbs as the
# table says them (ru `отмена` and `отменить`); none is a letter, so none is taken for an answer.
WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "et": {
        "bid": ("paku", "pakkumine"), "undo": ("tagasi", "tühista"), "redo": ("taasta", "uuesti"),
        "edit": ("paranda", "muuda"), "sheet": ("leht", "punktileht"), "standings": ("seis", "tulemused"),
        "rules": ("reeglid",), "log": ("logi",), "finish": ("lõpeta", "lõpp"), "rematch": ("kordusmäng", "revanš"),
        "use": ("vali", "mine"), "new": ("uus",), "help": ("abi", "spikker"), "quit": ("välju", "lahku"),
    },
    "ru": {
        "bid": ("заказ", "заказать"), "undo": ("отмена", "отменить"), "redo": ("вернуть", "возврат"),
        "edit": ("правка", "исправить"), "sheet": ("запись", "лист"), "standings": ("итоги", "счёт", "счет"),
        "rules": ("правила",), "log": ("журнал",), "finish": ("завершить", "конец"), "rematch": ("реванш",),
        "use": ("перейти", "игра"), "new": ("новая",), "help": ("помощь", "справка"),
        "quit": ("выход", "выйти"),
    },
    "uk": {
        "bid": ("заявка", "заявити"), "undo": ("скасувати", "скасування"), "redo": ("повернути", "повернення"),
        "edit": ("правка", "виправити"), "sheet": ("запис", "аркуш"), "standings": ("підсумки", "рахунок"),
        "rules": ("правила",), "log": ("журнал",), "finish": ("завершити", "кінець"), "rematch": ("реванш",),
        "use": ("перейти", "гра"), "new": ("нова",), "help": ("допомога", "довідка"),
        "quit": ("вихід", "вийти"),
    },
}


def command(word: str, lang: str) -> str | None:
    """The command a word names: its English name or word, or a word of the language `lang`."""
    typed = word.strip().lower()
    if typed in PLAY_COMMANDS:
        return typed
    for name, words in (*ENGLISH.items(), *WORDS.get(lang, {}).items()):
        if typed in words:
            return name
    return None


def words(lang: str) -> list[str]:
    """Every word that names a command in `lang` (what Tab completes at the prompt of `play`)."""
    out = list(PLAY_COMMANDS)
    for local in WORDS.get(lang, {}).values():
        out += [w for w in local if " " not in w and w not in out]
    return out


def help_lines(lang: str) -> list[str]:
    """`help` in `play`: each command by the language's first word, its English name beside it."""
    rows = []
    for name, (args, what) in PLAY_COMMANDS.items():
        local = WORDS.get(lang, {}).get(name, ())
        head = f"{local[0]} ({name})" if local else name
        rows.append((f"{head} {_(args)}" if args else head, _(what)))
    width = max(len(head) for head, _what in rows) + 2
    return [f"{head:<{width}}{what}" for head, what in rows]
