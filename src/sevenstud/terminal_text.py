"""The words of ``sevenstud play``: how the terminal says the table and reads what you type.

Everything here is text in, text out, with no table and no terminal behind it: the boards
(:func:`board_text`, :func:`table_lines`), what your cards make so far (:func:`holding_text`), a
shown hand's names (:func:`hand_names`), the prompt and the reading of an answer to it
(:func:`prompt_for`, :func:`parse_choice`), the bring-in's door card (:func:`door_card_seat`) and
chip counts (:func:`chips`). :mod:`sevenstud.terminal` prints them and re-exports them
(``--stakes`` is read by :func:`sevenstud.arguments.parse_stakes`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from sevenstud.actions import Action, ActionKind, IllegalAction
from sevenstud.cards import RANK_CHARS, RANK_NAMES, RANK_PLURALS, Card
from sevenstud.events import HandShown
from sevenstud.games import Game
from sevenstud.i18n import _, current, hand_name, n_
from sevenstud.refusals import Refusal
from sevenstud.views import SeatView
from sevenstud.wording import HOLDING


def plural(n: int, word: str) -> str:
    """``"1 hand"``, ``"2 hands"``: a count and its word.

    >>> plural(1, "time"), plural(2, "time")
    ('1 time', '2 times')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def chips(n: int) -> str:
    """``"1 chip"``, ``"3 chips"``.

    >>> chips(1), chips(0), chips(3)
    ('1 chip', '0 chips', '3 chips')
    """
    return n_("{n} chip", "{n} chips", n).format(n=n)


def in_your_words(error: Refusal, legal: Sequence[Action], already: int = 0) -> str:
    """An illegal action's refusal said to the player who tried it ("you cannot ...", where the
    table and the hand name the seat for a server's log), its list of legal actions in the
    prompt's words (a call by the chips it puts in, ``already`` chips being in on this street),
    so that the reply never offers what the prompt would refuse; in the terminal's language.

    >>> from sevenstud.hand import Action, ActionKind as K
    >>> legal = [Action(K.FOLD), Action(K.CALL, 5), Action(K.RAISE, 10)]
    >>> why = Refusal("kind_not_possible", kind="bet")
    >>> error = IllegalAction("action_not_legal", seat=0, action="bet 7", reason=why, options="fold")
    >>> in_your_words(error, legal, 2)
    'you cannot bet 7: bet is not possible now (legal now: [f]old  [c]all 3  [r]aise to 10)'
    """
    if error.code == "seat_refused" and isinstance(error.params.get("error"), Refusal):
        error = error.params["error"]  # the table's wrapping names the seats: the hand's words
    params = {**error.params, "options": prompt_for(legal, already)}
    # The engine names the action in code ("call", "bet 999"): said in the prompt's words
    # instead (the Russian table wrote "вы не можете call").
    action = params.get("action")
    if isinstance(action, str):
        with contextlib.suppress(IllegalAction):  # not an action's words: said as typed
            action = Action.parse(action)
    if isinstance(action, Action):
        params["action"] = _action_words(action)
    if error.code == "amount_must_be":
        error = Refusal("you_amount_must_be", **{k: params[k] for k in ("action", "amount", "options")})
    elif error.code == "action_not_legal":
        error = Refusal("you_cannot", **{k: params[k] for k in ("action", "reason", "options")})
    elif error.code == "amount_needed":
        error = Refusal("amount_needed_now", **params)
    return error.said(current())


def read_as(text: str, action: Action) -> str | None:
    """What a raise or a completion typed without "to" was taken for: its number is the street
    total, not the chips added; None when the words said it already.

    >>> from sevenstud.hand import Action, ActionKind as K
    >>> read_as("raise 10", Action(K.RAISE, 10)), read_as("r 10", Action(K.RAISE, 10))
    ('raise 10 read as raise to 10', 'r 10 read as raise to 10')
    >>> read_as("raise to 10", Action(K.RAISE, 10)), read_as("r", Action(K.RAISE, 10))
    (None, None)
    """
    words = text.strip().lower().split()
    amounted = action.kind in (ActionKind.RAISE, ActionKind.COMPLETE) and len(words) > 1
    if not amounted or "to" in words[1:] or action.amount is None:
        return None
    return _("{typed} read as {action}").format(typed=" ".join(words), action=_action_words(action))


def hand_names(event: HandShown, game: Game) -> str:
    """``"HI: a full house, Kings full of Threes; LO: 8,6,4,3,2"`` for a shown hand."""
    parts = []
    if game.has_high:
        parts.append(_("HI: {hand}").format(hand=hand_name(event.high, current())))
    if game.has_low:
        parts.append(_("LO: {hand}").format(hand=event.low) if event.low else _("LO: no low"))
    return "; ".join(parts)


def board_text(cards: Sequence[Card | None], face_up: Sequence[bool]) -> str:
    """``"[Ah] [4d] 7c"``: down cards in brackets (``[xx]`` when hidden), up cards bare."""
    out = []
    for card, up in zip(cards, face_up, strict=True):
        text = "xx" if card is None else str(card)
        out.append(text if up else f"[{text}]")
    return " ".join(out)


def table_lines(view: SeatView, names: Sequence[str]) -> list[str]:
    """Every seat's board, stack and bet as ``view`` shows them, then the pot."""
    width = max(len(n) for n in names)
    lines = []
    for seat, name in enumerate(names):
        board = board_text(view.cards[seat], view.face_up[seat])
        marker = ">" if seat == view.to_act else " "
        status = ""
        if view.folded[seat]:
            status = _("folded")
        elif view.stacks[seat] == 0:
            status = _("all-in")
        bet = _("bet {amount}").format(amount=view.bets[seat]) if view.bets[seat] else ""
        stack = _("stack {amount}").format(amount=f"{view.stacks[seat]:>5}")
        lines.append(f"  {marker} {name:<{width}}  {board:<34}  {stack}  {bet:<8} {status}".rstrip())
    community = _(", community card {card}").format(card=view.community) if view.community is not None else ""
    lines.append("    " + _("pot {amount}").format(amount=view.pot) + community)
    return lines


_LETTERS = {
    ActionKind.FOLD: "f",
    ActionKind.CHECK: "c",
    ActionKind.CALL: "c",
    ActionKind.BRING_IN: "b",
    ActionKind.BET: "b",
    ActionKind.RAISE: "r",
    ActionKind.COMPLETE: "r",
    ActionKind.SHOW: "s",
    ActionKind.MUCK: "m",
}

_KEY_WORDS = {"f": "fold", "c": "call", "b": "bet", "r": "raise", "s": "show", "m": "muck"}
"""Each key's action when no legal action has it (``c`` is a call: a check would be legal)."""


def _label(action: Action, already: int = 0) -> str:
    text = _action_words(action)
    if action.kind is ActionKind.CALL and action.amount is not None:
        # the chips to put in, as the log counts it
        text = _("call {amount}").format(amount=action.amount - already)
    letter = _LETTERS[action.kind]
    if text.startswith(letter):
        return f"[{letter}]{text[1:]}"
    return f"[{letter}] {text}"


_AMOUNTED = (ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


def _action_words(action: Action) -> str:
    """An action as the prompt says it (``str(action)`` in English)."""
    kind, amount = action.kind, action.amount
    if amount is None or kind not in _AMOUNTED:
        words = {
            ActionKind.FOLD: _("fold"), ActionKind.CHECK: _("check"), ActionKind.CALL: _("call"),
            ActionKind.SHOW: _("show"), ActionKind.MUCK: _("muck"),
        }  # fmt: skip
        # an amounted kind named without its amount ("raise"): the word a refusal names it by
        # (sevenstud.refusals.WORDS marks every kind's)
        return words.get(kind) or _(kind.value)
    amounted = {
        ActionKind.BRING_IN: _("bring-in {amount}"),
        ActionKind.COMPLETE: _("complete to {amount}"),
        ActionKind.BET: _("bet {amount}"),
        ActionKind.RAISE: _("raise to {amount}"),
    }
    return amounted[kind].format(amount=amount)


def prompt_for(legal: Sequence[Action], already: int = 0) -> str:
    """``"[f]old  [c]all 5  [r]aise to 10"``: the legal actions with their keys and amounts; a
    call shows the chips to put in, given ``already`` chips in on this street, other amounts
    are street totals.

    >>> from sevenstud.hand import Action, ActionKind as K
    >>> prompt_for([Action(K.FOLD), Action(K.CALL, 5), Action(K.RAISE, 10)])
    '[f]old  [c]all 5  [r]aise to 10'
    >>> prompt_for([Action(K.BRING_IN, 2), Action(K.COMPLETE, 5)])
    '[b]ring-in 2  [r] complete to 5'
    >>> prompt_for([Action(K.FOLD), Action(K.CALL, 5), Action(K.RAISE, 10)], already=2)
    '[f]old  [c]all 3  [r]aise to 10'
    """
    return "  ".join(_label(a, already) for a in legal)


def parse_choice(text: str, legal: Sequence[Action], already: int = 0) -> Action:
    """The action meant by what the player typed: a key from the prompt (``c``, ``r``, maybe
    with an amount: ``b 10``) or the words (``raise to 10``). A call's amount is the chips to
    put in (as the prompt shows it, with ``already`` chips in on this street) and is turned into
    the engine's street total. Raises :class:`IllegalAction` for text that is no action;
    whether the action is legal now is for the hand to say.

    >>> from sevenstud.hand import Action, ActionKind as K
    >>> parse_choice("c", [Action(K.CHECK), Action(K.BET, 5)])
    Action(kind=<ActionKind.CHECK: 'check'>, amount=None)
    >>> parse_choice("r", [Action(K.FOLD), Action(K.CALL, 5), Action(K.RAISE, 10)]).kind.value
    'raise'
    >>> parse_choice("call 3", [Action(K.FOLD), Action(K.CALL, 5)], already=2)
    Action(kind=<ActionKind.CALL: 'call'>, amount=5)
    """
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction(_("type an action: {actions}").format(actions=prompt_for(legal)))
    kinds = [a.kind for a in legal]
    head = words[0]
    if head in ("k", "x"):
        head = "check"
    elif len(head) == 1:
        matches = [k for k in kinds if _LETTERS[k] == head]
        # A key of the game whose action is not legal now is still that action, so that the
        # hand can say why not ("r" when nobody has bet: you cannot raise), not "unknown".
        head = matches[0].value if matches else _KEY_WORDS.get(head, head)
    action = Action.parse(" ".join([head, *words[1:]]))
    if action.kind is ActionKind.CALL and action.amount is not None:
        call = next((a for a in legal if a.kind is ActionKind.CALL), None)
        if call is None or call.amount is None:
            raise IllegalAction(_("there is nothing to call"))
        owed = call.amount - already
        if action.amount != owed:
            said = _("a call puts in {chips} now, not {amount}")
            raise IllegalAction(said.format(chips=chips(owed), amount=action.amount))
        return call
    return action


def door_card_seat(view: SeatView, game: Game) -> int | None:
    """The seat whose door card brings in by the game's rule (the lowest, razz: the highest;
    ties by ``game.suit_order`` or by seat), among the players still in; the bring-in itself
    passes to the next player clockwise when that seat is all-in."""
    doors = {
        seat: cards[2]
        for seat, cards in enumerate(view.cards)
        if len(cards) > 2 and cards[2] is not None and not view.folded[seat]
    }
    return game.bring_in_seat(doors) if doors else None


def holding_text(cards: Sequence[Card], game: Game) -> str:
    """Your best high and low so far, in the showdown's words; fewer than five cards are
    named by what they hold.

    >>> from sevenstud.cards import parse_cards
    >>> from sevenstud.games import Razz, Stakes, StudHiLo
    >>> stakes = Stakes(1, 2, 5, 10)
    >>> holding_text(parse_cards("Kc Kd Qs"), StudHiLo(stakes))
    'a pair of Kings; no low'
    >>> holding_text(parse_cards("Ac 2d 4s 7h"), StudHiLo(stakes))
    'high card Ace; no low yet (7,4,2,A toward one)'
    >>> holding_text(parse_cards("Ac 2d 4s 7h 8c"), StudHiLo(stakes))
    'high card Ace; low 8,7,4,2,A'
    >>> holding_text(parse_cards("Kc Kd Qs Qh 9c Jd Jh"), StudHiLo(stakes))
    'two pair, Kings and Queens; no low'
    >>> holding_text(parse_cards("9c 4d 2s"), Razz(stakes))
    'low 9,4,2 so far'
    """
    # Five cards or more make a hand: named as the showdown will name it, by the game.
    high, low = game.hand_names(*game.showdown_ranks(cards)) if len(cards) >= 5 else (None, None)
    parts = []
    if game.has_high:
        parts.append(hand_name(high, current()) or hand_name(_high_so_far(cards), current()) or "")
    if game.has_low:
        said_low = _("low {hand}").format(hand=low) if low else None
        parts.append(said_low or _low_so_far(cards, qualified=game.low_must_qualify))
    return "; ".join(parts)


def _high_so_far(cards: Sequence[Card]) -> str:
    """Fewer than five cards, named by what they hold."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    # Biggest group first, then the higher rank: the order a stud player reads a board in.
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    top = counts[order[0]]
    if top == 4:
        return f"four of a kind, {RANK_PLURALS[order[0]]}"
    if top == 3:
        return f"three of a kind, {RANK_PLURALS[order[0]]}"
    if top == 2 and counts[order[1]] == 2:
        return f"two pair, {RANK_PLURALS[order[0]]} and {RANK_PLURALS[order[1]]}"
    if top == 2:
        return f"a pair of {RANK_PLURALS[order[0]]}"
    return f"high card {RANK_NAMES[order[0]]}"


def _low_so_far(cards: Sequence[Card], *, qualified: bool) -> str:
    """No low made yet: the low cards toward one, or no low when too few cards are to come."""
    # Ace-to-five: the ace is the lowest card; an unpaired low card counts once.
    low = sorted({(c.rank + 1) % 13 for c in cards if not qualified or (c.rank + 1) % 13 <= 7})
    names = ",".join("A" if r == 0 else RANK_CHARS[r - 1] for r in reversed(low))
    if not qualified:
        return _("low {cards} so far").format(cards=names)
    if len(low) + 7 - len(cards) < 5:
        return _("no low")
    return _(HOLDING["hand.low_so_far"]).format(cards=names) if low else _(HOLDING["hand.no_low_yet"])
