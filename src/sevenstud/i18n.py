"""The card room's languages with the standard library alone: English, Ukrainian, Russian and
Estonian (the languages of the card room whose rule pages are our seeds).

The engine and the terminal table read the compiled catalogs (``locale/<lang>/LC_MESSAGES/
sevenstud.mo``, committed beside their ``.po`` sources; ``tools/i18n_compile.py`` rebuilds them
with Babel) through :mod:`gettext`; the server wraps the same catalogs with Babel
(:mod:`sevenstud.server.i18n`). English is the source language: its catalog is the code itself,
so an unknown language or a missing catalog always falls back to English, never to an error.

Two kinds of text are translated after the fact, from their English, because the engine writes
them into its events and errors (which are data, stored and replayed, and stay English):

* hand names (``"a full house, Kings full of Threes"``): :func:`hand_name` reads the English
  name's grammar (:mod:`sevenstud.evaluate` and :mod:`sevenstud.showdown_hands` write it) and
  says it again in the language;
* refusals (``"seat 3 is taken (by 'ann')"``): :func:`refusal` matches the English against the
  templates of :data:`REFUSALS` and translates the one that matches, its parts in place.

>>> tr = translation("ru")
>>> hand_name("a full house, Kings full of Threes", tr)
'фулл-хаус: короли и тройки'
>>> hand_name("two pair, Aces and Deuces", translation("xx"))
'two pair, Aces and Deuces'
"""

from __future__ import annotations

import functools
import gettext
import os
import re
from collections.abc import Mapping
from pathlib import Path

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "REFUSALS",
    "WORDS",
    "Translations",
    "current",
    "from_environment",
    "hand_name",
    "language_of",
    "n_",
    "refusal",
    "translation",
    "use",
]

Translations = gettext.NullTranslations
"""What every translating function takes: ``gettext``, ``ngettext``, ``pgettext``."""

LANGUAGES: tuple[str, ...] = ("en", "uk", "ru", "et")
"""The languages, by their ISO 639-1 codes; English first (the source and the default)."""

DEFAULT = "en"
"""The language of a client that names none (existing clients keep their English)."""

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "uk": "Українська", "ru": "Русский", "et": "Eesti"}
"""Each language in its own words, as a language menu shows it."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""The package's catalogs: ``<lang>/LC_MESSAGES/sevenstud.po`` and its compiled ``.mo``."""

DOMAIN = "sevenstud"


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it now."""
    return message


def language_of(tag: str | None) -> str | None:
    """One of :data:`LANGUAGES` for a language tag or locale name (``"uk-UA"``,
    ``"ru_RU.UTF-8"``, ``"et"``, ``"en-GB"``), or None when it names none of them.

    >>> language_of("ru_RU.UTF-8"), language_of("uk-UA"), language_of("de"), language_of("C")
    ('ru', 'uk', None, None)
    """
    if not tag:
        return None
    base = re.split(r"[-_.@]", tag.strip().lower(), maxsplit=1)[0]
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from the environment as gettext reads it: ``LANGUAGE`` (a list
    separated by colons), then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; the first one that names
    one of :data:`LANGUAGES`, else English.

    >>> from_environment({"LANG": "et_EE.UTF-8"}), from_environment({"LC_ALL": "C", "LANG": "ru_RU"})
    ('et', 'en')
    """
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        if variable == "LANGUAGE":
            for part in value.split(":"):
                found = language_of(part)
                if found:
                    return found
            continue
        # The first variable set decides, as the C library does: LC_ALL=C means English.
        return language_of(value) or DEFAULT
    return DEFAULT


@functools.cache
def translation(lang: str | None) -> Translations:
    """The catalog of ``lang`` (one of :data:`LANGUAGES`); English (the code's own words) for
    English, an unknown language or a missing catalog."""
    code = language_of(lang)
    if code is None or code == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


# ---------------------------------------------------------------------- hand names

_RANKS = (
    "Deuce",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
_RANK_WORD = "|".join(_RANKS)
_PLURALS = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks",
            "Queens", "Kings", "Aces")  # fmt: skip
_PLURAL_WORD = "|".join(_PLURALS)


def _rank(name: str, tr: Translations) -> str:
    """A rank in the singular ("King")."""
    words = {
        "Deuce": N_("Deuce"), "Three": N_("Three"), "Four": N_("Four"), "Five": N_("Five"),
        "Six": N_("Six"), "Seven": N_("Seven"), "Eight": N_("Eight"), "Nine": N_("Nine"),
        "Ten": N_("Ten"), "Jack": N_("Jack"), "Queen": N_("Queen"), "King": N_("King"), "Ace": N_("Ace"),
    }  # fmt: skip
    return tr.pgettext("rank", words[name])


def _ranks(name: str, tr: Translations) -> str:
    """A rank in the plural ("Kings")."""
    words = {
        "Deuces": N_("Deuces"), "Threes": N_("Threes"), "Fours": N_("Fours"), "Fives": N_("Fives"),
        "Sixes": N_("Sixes"), "Sevens": N_("Sevens"), "Eights": N_("Eights"), "Nines": N_("Nines"),
        "Tens": N_("Tens"), "Jacks": N_("Jacks"), "Queens": N_("Queens"), "Kings": N_("Kings"),
        "Aces": N_("Aces"),
    }  # fmt: skip
    return tr.pgettext("ranks", words[name])


_A, _B = f"(?P<a>{_RANK_WORD})", f"(?P<b>{_RANK_WORD})"
_AS, _BS = f"(?P<a>{_PLURAL_WORD})", f"(?P<b>{_PLURAL_WORD})"
_HAND_NAMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(f"^{pattern}$"), words)
    for pattern, words in (
        ("a Royal Flush", N_("a Royal Flush")),
        (f"a straight flush, {_A} to {_B}", N_("a straight flush, {a} to {b}")),
        (f"four of a kind, {_AS}", N_("four of a kind, {a}")),
        (f"a full house, {_AS} full of {_BS}", N_("a full house, {a} full of {b}")),
        (f"a flush, {_A} high", N_("a flush, {a} high")),
        (f"a straight, {_A} to {_B}", N_("a straight, {a} to {b}")),
        (f"three of a kind, {_AS}", N_("three of a kind, {a}")),
        (f"two pair, {_AS} and {_BS}", N_("two pair, {a} and {b}")),
        (f"a pair of {_AS}", N_("a pair of {a}")),
        (f"high card {_A}", N_("high card {a}")),
        (f"{_A} high", N_("{a} high")),
    )
)


def hand_name(name: str | None, tr: Translations) -> str | None:
    """A hand's name (as the engine writes it, in English) in the language of ``tr``; a low
    (``"8,6,4,3,2"``) and a name this grammar does not know are returned as they are."""
    if name is None:
        return None
    for pattern, words in _HAND_NAMES:
        match = pattern.match(name)
        if match is None:
            continue
        parts = {
            key: (_ranks(value, tr) if value in _PLURALS else _rank(value, tr))
            for key, value in match.groupdict().items()
        }
        return tr.gettext(words).format(**parts)
    return name


# ---------------------------------------------------------------------- refusals

GAME_NAMES = (N_("Seven Card Stud Hi/Lo"), N_("Seven Card Stud"), N_("Razz"))
"""The games' names (``Game.name``), marked for the catalogs: the terminal says them so."""

STREETS = (N_("3rd street"), N_("4th street"), N_("5th street"), N_("6th street"), N_("7th street"))
"""The streets' names (:data:`sevenstud.games.STREET_NAMES`), marked for the catalogs."""

REFUSALS: tuple[str, ...] = (
    # the card room (server/tables/room.py, server/app.py, server/connection.py)
    N_("this table has stopped"),
    N_("log in or play as a guest first"),
    N_("say hello first (the protocol version and the table)"),
    N_("you are not seated at this table"),
    N_("only a player seated at this table adds or removes its bots"),
    N_("only the table's owner (who opened it) adds or removes its bots"),
    N_("seat {seat} is offered from the waiting list"),
    N_("seat {seat} is offered to the first on the waiting list until {until}"),
    N_("you are seated at this table"),
    N_("you are on the waiting list already, number {number}"),
    N_("seat {seat} is free: sit in it"),
    N_("you are not on the waiting list of this table"),
    N_("malformed message: {why}"),
    # the card room's HTTP answers (server/accounts/auth.py, server/app.py), said in Accept-Language
    N_("the name {name} is taken"),
    N_("a name is 3 to 20 letters, digits, '_' or '-'"),
    N_("names starting with 'guest' or 'bot' are kept for guests and bots"),
    N_("names starting with {word} are kept for the dealer"),
    N_("a password has at least {count} characters"),
    N_("a password has at most 200 characters"),
    N_("no account with that name and password"),
    N_("a refill is for a balance under {limit} chips (you have {balance})"),
    N_("{count} refills a day, and you have had them today"),
    N_("{bots} bots leave no seat free at a table of {seats}"),
    N_("too many messages: slow down"),
    N_("no table {table}"),
    N_("table {table} is served at {where}"),
    N_("that action is for hand {hand}, street {street}: it is hand {now_hand}, street {now_street} now"),
    N_("a buy-in of {amount} is more than your balance of {balance}"),
    N_("a top-up of {amount} is more than your balance"),
    N_("your balance of {balance} is below the table's minimum buy-in of {amount}"),
    # the table (table.py) and the hand (hand.py, betting.py)
    N_("seat {seat} is taken (by {player})"),
    N_("player {player} already sits in seat {seat}"),
    N_("the buy-in must be between {low} and {high} chips, not {amount}"),
    N_("{player} is in the hand in progress: chips can be added only between hands"),
    N_(
        "a top-up of {amount} would take {player} to {stack}, above the maximum of {high} (at most {more} more)"  # noqa: E501
    ),
    N_("{player} is leaving the table already"),
    N_("{player} is sitting out already"),
    N_("{player} is leaving the table"),
    N_("{player} is sitting in already"),
    N_("{player} has {stack} chips and cannot post the ante: top up first (at least {more} more)"),
    N_("{player} is leaving already (when the hand ends)"),
    N_("no hand is being played"),
    N_("seat {seat} is not in hand {hand}"),
    N_("seat {seat} cannot act now: it is seat {other}'s turn"),
    N_("seat {seat}'s time ran out at {deadline}: the table applies time_out"),
    N_("seat {seat} (seat {hand_seat} of the hand): {error}"),
    N_("the hand is over: nobody is to act"),
    N_("seat {seat} is at the showdown and may only show or muck (not {action})"),
    N_("seat {seat} must say how much to {kind}: {amounts} (legal: {options})"),
    N_("seat {seat} cannot {action}: the amount must be {amount} (legal: {options})"),
    N_("seat {seat} cannot {action}: {reason} (legal: {options})"),
    N_("player {player} is not seated at this table"),
    N_("seats are numbered 1 to {seats}, not {seat}"),
    N_("{what} must be a positive whole number of chips, not {amount}"),
    N_("seat {seat} cannot fold: the bring-in must be posted or completed first"),
    # the terminal's words for the same (terminal_text.in_your_words)
    N_("you cannot {action}: the amount must be {amount} (legal now: {options})"),
    N_("you cannot {action}: {reason} (legal now: {options})"),
    N_("seat {seat} must say how much to {kind}: {amounts} (legal now: {options})"),
    # why an action is not legal (betting.why_not)
    N_("cannot check facing a bet of {amount}"),
    N_("nothing to call: check instead of folding (this game's fold_without_bet is off)"),
    N_("the betting is capped ({cap} bets and raises made)"),
    N_("the betting was not reopened to this seat (a short all-in raise)"),
    N_("the bring-in must be posted or completed first"),
    N_("{kind} is not possible now"),
    # the websocket's refusals of a message's form (server/app.py, server/protocol.py, rooms.py)
    N_("a binary frame: every message is JSON text, sent as a text frame"),
    N_("a message is at most {count} bytes"),
    N_("protocol version {version}: this server speaks {ours}"),
    N_("no such message here: {message}"),
    N_("a tournament table: its seats are the tournament's (no {message} here)"),
    N_("type: missing (every message names its type: hello, act, sit ...)"),
    N_("type: expected a string naming the message, got {got}"),
    N_("type: no message is called {name} (one of {tags})"),
    N_("a message is a JSON object, got {got}"),
    N_("{field}: missing (the {tag} message needs it)"),
    N_("{field}: the {tag} message has no such field"),
    N_("{field}: expected {what}, got {got}"),
    N_("{field}: at least {count} characters"),
    N_("{field}: at most {count} characters"),
    N_("{field}: at least {least}, got {value}"),
    N_("{field}: at most {most}, got {value}"),
    N_("{field}: text with an unpaired surrogate (\\ud800 to \\udfff alone is not Unicode)"),
    N_("invalid JSON: {why}"),
    N_("{said} (and {count} more)"),
    # the websocket's close reasons (server/connection.py, server/app.py)
    N_("too far behind: reconnect and say hello with the last number you saw"),
    N_("this table is no longer served here: ask the lobby where it is"),
    N_("this table has closed"),
    N_("session ended"),
    N_("logged out"),
    N_("origin or host not allowed"),
    # the limits (server/limits.py, server/app.py, server/tables/chat.py)
    # the operators' side (server/health.py, server/operators/, server/accounts/auth.py)
    N_("metrics are served to the addresses given with --metrics-from"),
    N_("this is for the room's operators"),
    N_("sign in again: an operator acts within 5 minutes of signing in"),
    N_("this account is suspended until {ends}: {why}"),
    N_("this account is banned: {why}"),
    N_("this account is suspended"),
    N_("this account is banned"),
    N_("an operator does not revoke their own role: another operator does"),
    N_("no account named {name}"),
    N_("say why: every operator action is written down with its reason"),
    N_("a reason is one line of at most 500 printable characters"),
    N_("a chip move is a whole number of chips other than 0, not {amount}"),
    N_("{name} has {balance} chips: {amount} cannot be taken"),
    N_("a suspension ends in the future"),
    N_("{name} is an operator: revoke that first"),
    N_("{name} is not suspended"),
    N_("{name} is a guest: only an account with a password runs the room"),
    N_("{name} is an operator already"),
    N_("{name} is a player already"),
    N_("no seat {seat} to be dead at this hand (seats 0 to {last})"),
    N_("this token is not a live token of this room"),
    N_("this token lacks the scope {scope}"),
    N_("a token's label is one line of 1 to 60 printable characters"),
    N_("a token's scopes are some of {scopes}, not {given}"),
    N_("no live token {token}"),
    N_("too many {what}: {count} per {span} (try again in {seconds} s)"),
    N_("too many failed log-ins for {whom}: try again in {seconds} s"),
    N_("the server is busy checking passwords: try again in a moment"),
    N_("too many connections from your address: {count} at once"),
    N_("too many connections for your account: {count} at once"),
    N_("you have {count} tables open: a table of nobody but bots, unwatched, closes by itself after a while"),
    # the edge's refusals (server/edge.py)
    N_("this server does not answer to the host {host}"),
    N_("refused: a request from another site ({site}) may not change anything here"),
    N_("refused: a request from {origin} may not change anything here"),
    N_("a request body is JSON (Content-Type: application/json), not {media}"),
    N_("Content-Length {length} is not a number"),
    N_("a request body is at most {limit} bytes (this one says {declared})"),
    N_("a request body is at most {limit} bytes"),
    N_("a request's line and headers are at most {count} bytes"),
    # the chat and the notes (server/tables/chat.py, server/accounts/notes.py)
    N_("a chat message needs some text"),
    N_("chat is plain text on one line: no {what} (U+{code})"),
    N_("only players seated at this table chat here: spectators read the chat"),
    N_("name: no player has a name that long once compared"),
    N_("you have no note on {name}"),
    N_("a note is plain text: no control characters but line breaks and tabs"),
    N_("you have {count} notes, the most kept: delete one first"),
    # the hands and the history (server/accounts/downloads.py, server/accounts/history.py)
    N_("no finished hand {hand} of yours"),
    N_("hand {number} of table {table} does not replay: {error}"),
    N_("you have no finished hands yet"),
    N_("game: one of {games}, not {game}"),
    N_("stakes: the small and the big bet as 5/10, not {stakes}"),
    N_("cards: {token} is neither a card (As) nor a rank (A)"),
    N_("cards: a stud hand holds at most 7 cards"),
    N_("{field}: a date as 2026-12-01 (UTC), not {text}"),
    N_("name: a player's name is 1 to 40 characters"),
    # the bots (server/tables/keeper.py)
    N_("unknown bot {kind}: expected one of {kinds}"),
    N_("no bot sits in seat {seat}"),
    N_("a bot's name starts with {prefix}"),
    # the tournaments (server/tournaments/routes.py, server/tournaments/service.py, tournament/director.py)
    N_("unknown state {state}: expected {states}"),
    N_("no finished tournament {tournament}"),
    N_("no tournament {tournament}"),
    N_("this server runs clocks at most {speed} times the wall's"),
    N_("bots fill a sit-and-go, leaving a seat for a person at least"),
    N_("tournament {tournament} is directed by another server ({where})"),
    N_("tournament {tournament} is being recovered: try again in a moment"),
    N_("tournament {tournament} is {state}"),
    N_("the entry costs {amount}, more than your balance of {balance}"),
    N_("a rebuy costs {amount}, more than your balance of {balance}"),
    N_("the add-on costs {amount}, more than your balance of {balance}"),
    N_("the tournament is full"),
    N_("registration is closed"),
    N_("a tournament that has started cannot be unregistered from"),
    N_("rebuys are over"),
    N_("re-entries need late registration: a scheduled tournament's"),
    N_("no deal answer {answer}: propose, accept or decline"),
    N_("late registration is a scheduled tournament's"),
    N_("{player} has no entry to make again: register instead"),
    N_("this tournament has no re-entries"),
    N_("re-entries are over: registration is closed"),
    N_("{player} has made every re-entry allowed ({limit})"),
    N_("this tournament has no rebuys"),
    N_("a deal is made at the final table"),
    N_("a deal is being talked over already ({player} asked)"),
    N_("a deal is talked over for a positive time, not {seconds}"),
    N_("no deal has been proposed"),
    N_("the hand in progress ends first: the offer is made on the stacks then"),
    N_("rebuys are over: the field closed on the bubble"),
    N_("this tournament has no add-on"),
    N_("the add-on is on only in the level after the rebuys"),
    N_("a deal is possible once every player left is in the money"),
    N_("{player} is already registered"),
    N_("{player} is still in the tournament"),
    N_("{player} is not registered"),
    N_("{player} has made every rebuy allowed ({limit})"),
    N_("{player} has more than the starting chips and cannot rebuy"),
    N_("{player} has taken the add-on already"),
    N_("{player} is not playing in this tournament"),
    N_("{player} is not in the tournament"),
    # a tournament's settings as a player asks for them (tournament/settings.py, structure.py)
    N_("{name} must be a whole number of at least {least}, not {value}"),
    N_("a sit-and-go is one table: max_entries cannot exceed seats"),
    N_("a scheduled tournament needs start_at"),
    # the equity jobs (server/study/jobs.py, server/study/worker.py): refused, failed, cut short
    N_(
        "exact counting of this position is {work} outcomes of work ({method}); this server counts at most {most} exactly (max_outcomes): ask for Monte Carlo, or give more of the cards"  # noqa: E501
    ),
    N_("{trials} trials asked for; this server draws at most {most} in one job (max_trials)"),
    N_("the server is stopping: no equity jobs now"),
    N_("your equity jobs running now: {count}; at most {most} run at once for one client (per_client): wait for one to end"),  # noqa: E501
    N_("the equity calculator is busy: {count} running, the most this server runs at once (running): try again shortly"),  # noqa: E501
    N_("too many equity jobs asked for: at most {most} a minute (starts_per_minute)"),
    N_("too many requests about equity jobs: at most {most} a second (polls_per_second)"),
    N_("no equity job {job} (a job is kept {minutes} min after it ended)"),
    N_("the equity job needed more memory than this server gives one job (memory_mb)"),
    N_("the equity job failed: {kind}"),
    N_("the equity job could not start: {problem}"),
    N_("the equity job's worker ended without an answer"),
    N_("cut short"),
    N_(
        "cut short at its deadline of {seconds} s (seconds): {drawn} of the {trials} trials were drawn; the result is theirs (its standard errors are larger)"  # noqa: E501
    ),
    N_(
        "cut short, the server stopping: {drawn} of the {trials} trials were drawn; the result is theirs (its standard errors are larger)"  # noqa: E501
    ),
    N_(
        "cut short at its deadline of {seconds} s (seconds), {percent}% counted: exact counting of this position takes longer than this server allows; ask for Monte Carlo"  # noqa: E501
    ),
    N_("cut short, the server stopping, with {percent}% counted"),
    N_("cut short at its deadline of {seconds} s (seconds) before its first trials were drawn"),
    N_("cut short, the server stopping, before its first trials were drawn"),
    # an equity job's position (equity.py), as a client gives it
    N_("not a card: {token} in {hand} (expected e.g. 'As 2s 3s 7h', '?? ?? 7h')"),
    N_("unknown game {game}: expected one of {games}"),
    N_("stud is for {low} to {high} players, not {count}"),
    N_(
        "player {seat} has too few cards ({count}): give at least the 3rd-street cards (two down and the door card; ?? for a card you do not know)"  # noqa: E501
    ),
    N_("player {seat} has too many cards ({count}): a stud hand has at most 7"),
    N_("the players are on different streets (cards per player: {counts}): give every player the same number of cards"),  # noqa: E501
    N_("the community card must be one known card, not {card}"),
    N_("a community card is dealt only on 7th street to players holding six cards, not {count}"),
    N_("the card {card} is given twice ({places})"),
    N_("too many cards: {players} players holding {held} cards each and the dead cards ({dead}) need {total}, a deck has 52"),  # noqa: E501
    N_("not enough cards: the deck cannot deal {street}th street to {players} players"),
    N_("not enough cards: the deck cannot deal 7th street to {players} players, not even a community card"),
    N_("not enough cards left to deal"),
    N_(
        "exact counting would hold {work} completions in memory (the limit is {limit}): too many unknown cards; use Monte Carlo (trials)"  # noqa: E501
    ),
    N_(
        "exact enumeration would list {ways} ways for the last player's cards at once: too many unknown cards; use Monte Carlo (trials)"  # noqa: E501
    ),
)
"""The refusals a player meets, as templates of the English the code raises; :func:`refusal`
translates a refusal that matches one (the parts named in :data:`_INNER` again, recursively)."""

WORDS: tuple[str, ...] = (
    # what a refusal's part may be (protocol.py's kinds of JSON value, limits.py's spans and
    # what is limited, a tournament's states): said again inside the sentence that holds it
    N_("an integer"),
    N_("a string"),
    N_("a boolean"),
    N_("null"),
    N_("an array"),
    N_("an object"),
    N_("true or false"),
    N_("hour"),
    N_("minute"),
    N_("{count} hours"),
    N_("{count} minutes"),
    N_("{count} s"),
    N_("guests from your address"),
    N_("new tables from your address"),
    N_("operator API calls"),
    N_("log-in attempts from your address"),
    N_("chat messages"),
    N_("this account"),
    N_("your address"),
    N_("untyped"),
    N_("the buy-in"),
    N_("a top-up"),
    N_("registering"),
    N_("running"),
    N_("break"),
    N_("finished"),
    N_("cancelled"),
    # where an equity position gives a card twice (equity.position)
    N_("player {seat} and player {other}"),
    N_("player {seat} twice"),
    N_("player {seat} and the dead cards"),
    N_("the dead cards twice"),
    N_("player {seat} and the community card"),
    N_("the dead cards and the community card"),
    # what plain text on one line refuses (server/plaintext.py)
    N_("control characters"),
    N_("line or paragraph separators"),
    N_("direction controls"),
    N_("invisible format characters"),
    N_("blank fillers"),
)
"""The words a refusal's parts are made of, translated where they stand inside one."""

_INNER = frozenset(
    {"error", "reason", "why", "what", "got", "whom", "span", "media", "said", "state", "places"}
)


@functools.cache
def _refusal_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    found = []
    for template in (*REFUSALS, *WORDS):
        pieces = re.split(r"\{(\w+)\}", template)
        regex = "".join(
            re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>.+?)" for i, piece in enumerate(pieces)
        )
        found.append((re.compile(f"^{regex}$", re.DOTALL), template))
    return tuple(found)


def _matched(text: str) -> tuple[str, dict[str, str]] | None:
    for pattern, template in _refusal_patterns():
        match = pattern.match(text)
        if match is not None:
            return template, match.groupdict()
    return None


def refusal(text: str, tr: Translations) -> str:
    """An error's English (as the code raised it) in the language of ``tr``: translated when it
    matches a template of :data:`REFUSALS` (or a word of :data:`WORDS`), else as it is
    (English). Several refusals joined by ``"; "`` (a message's validation errors) are each
    translated when each matches one.

    >>> refusal("buy_in: expected an integer, got a string; seat: missing (the sit message needs it)",
    ...         translation("et"))
    'buy_in: oodati täisarvu, saadi string; seat: puudub (sõnum sit vajab seda)'
    """
    pieces = text.split("; ")
    if len(pieces) > 1 and all(_matched(piece) for piece in pieces):
        return "; ".join(refusal(piece, tr) for piece in pieces)
    found = _matched(text)
    if found is None:
        return text
    template, parts = found
    for inner in _INNER & parts.keys():  # a refusal (or a word) inside a refusal: translated too
        parts[inner] = refusal(parts[inner], tr)
    return tr.gettext(template).format(**parts)


# ---------------------------------------------------------------------- the terminal's language

_current: list[Translations] = [gettext.NullTranslations()]


def use(lang: str | None) -> None:
    """Speak ``lang`` from now on in this process's terminal text (:func:`_`, :func:`n_`): the
    terminal table has one player, so its language is the process's (``--lang``, else
    :func:`from_environment`)."""
    _current[0] = translation(lang)


def _(message: str) -> str:
    """``message`` in the terminal's language (:func:`use`)."""
    return _current[0].gettext(message)


def n_(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in the terminal's language, by its
    plural rules (CLDR's, in the catalog's ``Plural-Forms``)."""
    return _current[0].ngettext(singular, plural, n)


def current() -> Translations:
    """The terminal's catalog now (what :func:`use` chose)."""
    return _current[0]
