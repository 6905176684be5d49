"""What a seat did in a hand, worded once: the sentences the card room's table log, the hand
downloads and the terminal table say of an event ("Ann raises to 10", "You fold"), in the
catalogs' languages. Each sentence is a template here, said of a seat by name (:data:`OF_A_SEAT`)
or, at the terminal, of the player at the keyboard (:data:`OF_YOU`: "You fold" is not "You
folds" in any of our languages).

>>> from sevenstud.actions import Action, ActionKind
>>> from sevenstud.events import ActionTaken
>>> from sevenstud.i18n import translation
>>> raised = ActionTaken(2, 4, Action(ActionKind.RAISE, 10), all_in=False, chips=8)
>>> action_line("Ann", raised), action_line("Ann", raised, translation("et"))
('Ann raises to 10', 'Ann tõstab 10-ni')
>>> said("call", "You", you=True, chips=3)
'You call 3'
"""

from __future__ import annotations

from typing import Any

from sevenstud.events import ActionTaken, AntePosted, BetReturned, HandMucked, HandShown, HandTurnedUp
from sevenstud.i18n import N_, Translations, hand_name, translation

__all__ = ["ENGLISH", "HOLDING", "OF_A_SEAT", "OF_YOU", "PAGE", "action_line", "said"]

ENGLISH: Translations = translation("en")
"""The code's own words (every function here speaks English unless given a catalog)."""

OF_A_SEAT: dict[str, str] = {
    "ante": N_("{name} posts the ante of {amount}"),
    "fold": N_("{name} folds"),
    "check": N_("{name} checks"),
    "call": N_("{name} calls {chips}"),
    "bring-in": N_("{name} brings in for {amount}"),
    "complete": N_("{name} completes to {amount}"),
    "bet": N_("{name} bets {amount}"),
    "raise": N_("{name} raises to {amount}"),
    "show": N_("{name} shows"),
    "shows cards": N_("{name} shows {cards}"),
    "muck": N_("{name} mucks"),
    "win": N_("{name} wins {chips} from {pot}"),
    "time out": N_("{name} runs out of time"),
    "returned": N_("{amount} uncalled returned to {name}"),
    "turned up": N_("{name} turns the hand face up: {cards}"),
    "all-in": N_(" and is all-in"),
}
"""Each event said of a seat by its name (``{name}``); an action by its kind (``call``:
``{chips}`` put in, ``raise``: to ``{amount}`` in all on the street)."""

OF_YOU: dict[str, str] = {
    "ante": N_("{name} ante {amount}"),
    "fold": N_("{name} fold"),
    "check": N_("{name} check"),
    "call": N_("{name} call {chips}"),
    "bring-in": N_("{name} bring in for {amount}"),
    "complete": N_("{name} complete to {amount}"),
    "bet": N_("{name} bet {amount}"),
    "raise": N_("{name} raise to {amount}"),
    "shows cards": N_("{name} show {cards}"),
    "muck": N_("{name} muck"),
    "win": N_("{name} win {chips} from {pot}"),
    "time out": N_("{name} run out of time"),
    "all-in": N_(" and are all-in"),
}
"""The same said to the player at the terminal (``{name}`` is "You" in the table's language)."""

PAGE: dict[str, str] = {
    "log.ante": "ante",
    "log.all_in": "all-in",
    "log.folds": "fold",
    "log.checks": "check",
    "log.calls": "call",
    "log.brings_in": "bring-in",
    "log.completes": "complete",
    "log.bets": "bet",
    "log.raises": "raise",
    "log.shows_hand": "show",
    "log.shows": "shows cards",
    "log.mucks": "muck",
    "log.timed_out": "time out",
    "log.returned": "returned",
    "log.turned_up": "turned up",
}
"""The table page's log (``web/table_log.js``) says these events in these sentences: its
catalogs' entries (``web/i18n/<lang>.json``, by key) are written from the gettext catalogs by
``tools/i18n_compile.py``, never by hand, so the page and the server say an event alike. (Not
yet the award, "{name} wins {chips} from {pot}": the page's pot words are its own, declined
for its own sentence.)"""


HOLDING: dict[str, str] = {
    "hand.low_so_far": N_("no low yet ({cards} toward one)"),
    "hand.no_low_yet": N_("no low yet"),
}
"""What a hand of fewer than five cards holds toward a low, said alike by the terminal
(:func:`sevenstud.terminal_text.holding_text`) and the table page ("LO: no low yet (7 toward
one)": a bare "LO: 7" beside three cards read as a low made). The page's catalogs get these
entries, by key, from the gettext catalogs (``tools/i18n_compile.py``), as :data:`PAGE`'s."""


def said(what: str, name: str, tr: Translations = ENGLISH, *, you: bool = False, **parts: Any) -> str:
    """The sentence ``what`` (a key of :data:`OF_A_SEAT`, or of :data:`OF_YOU` when ``you``)
    of ``name``, in the language of ``tr``, its ``parts`` put in."""
    return tr.gettext((OF_YOU if you else OF_A_SEAT)[what]).format(name=name, **parts)


def action_line(name: str, event: object, tr: Translations = ENGLISH) -> str | None:
    """One event of a hand in words ("Ann brings in for 1", "Bob completes to 2"); None for an
    event a log does not say (cards dealt, streets begun, the awards: a summary says those)."""
    if isinstance(event, AntePosted):
        line = said("ante", name, tr, amount=event.amount)
        return line + (tr.gettext(OF_A_SEAT["all-in"]) if event.all_in else "")
    if isinstance(event, ActionTaken):
        action = event.action
        line = said(action.kind.value, name, tr, chips=event.chips, amount=action.amount)
        return line + (tr.gettext(OF_A_SEAT["all-in"]) if event.all_in else "")
    if isinstance(event, BetReturned):
        return said("returned", name, tr, amount=event.amount)
    if isinstance(event, HandTurnedUp):
        return said("turned up", name, tr, cards=" ".join(map(str, event.cards)))
    if isinstance(event, HandShown):
        names = (hand_name(n, tr) or n for n in (event.high, event.low) if n is not None)
        shown = tr.gettext(" and ").join(names)
        line = said("shows cards", name, tr, cards=" ".join(map(str, event.cards)))
        return line + (f": {shown}" if shown else "")
    if isinstance(event, HandMucked):
        return said("muck", name, tr)
    return None
