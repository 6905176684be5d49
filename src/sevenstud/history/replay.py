"""Play PHH hands through our engine, and write our hands as PHH.

:func:`play_phh` rebuilds the deck from the file's deals (unknown cards ``??`` are filled with
cards nobody saw), replays every action through :class:`~sevenstud.hand.Hand` and raises
:class:`ReplayError`, naming the action, at the first one our rules do not allow or when the
file's own ``finishing_stacks`` disagree with ours. Other tables' procedures are accepted where
the chips cannot differ: ``sm`` (show or muck) lines are honoured in whatever order the file
writes them, because showing first decides no chips; the community card arrives as ``d db``; a
raise written to exactly what the only opponents who can answer it have (older PokerKit caps a
raise there) is played as the full raise, whose excess comes back uncalled.

Unknown cards are filled so that the file's own actions stand: an unknown up card decides the
bring-in and who acts first on later streets, so when the first filling makes our engine pick
another player than the file shows acting (a folded player's unknown door card becoming the
bring-in, an unknown up card making the best board), other spare cards are tried in those places
until the file's actions replay (:func:`_fill_unknown`).

:func:`to_phh` writes a finished (or unfinished) hand of ours as a :class:`PHHHand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sevenstud.cards import CARDS, Card, parse_cards
from sevenstud.dealing import DealingError, deal_slots
from sevenstud.deck import Deck
from sevenstud.games import Game, GameError, Stakes, game_by_name, game_class, tournament_rules
from sevenstud.hand import (
    Action,
    ActionKind,
    ActionTaken,
    CardDealt,
    CommunityCardDealt,
    Hand,
    HandError,
    HandMucked,
    HandShown,
    IllegalAction,
    Phase,
)
from sevenstud.history.phh import UNKNOWN_CARD, PHHAction, PHHHand

_CBR = (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)
_GAME_OF_VARIANT = {"F7S/8": "stud8", "F7S": "stud", "FR": "razz"}


class ReplayError(ValueError):
    """A hand our engine cannot play as the file writes it; the message names the action."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """What the file deals and shows, worked out before play."""

    hole: list[list[str]]  # per player, every card in dealing order ("??" unknown)
    board: str | None
    shows: dict[int, PHHAction]


def _plan(hand: PHHHand, actions: list[PHHAction]) -> _Plan:
    hole: list[list[str]] = [[] for _ in range(hand.player_count)]
    board: str | None = None
    shows: dict[int, PHHAction] = {}
    for action in actions:
        if action.kind == "deal_hole":
            assert action.player is not None and action.cards is not None
            hole[action.player].extend(action.cards)
        elif action.kind == "deal_board":
            assert action.cards is not None
            if board is not None or len(action.cards) != 1:
                raise ReplayError(f"{action}: stud deals at most one community card")
            board = action.cards[0]
    # A show names the cards that the deals left unknown.
    for action in actions:
        if action.kind != "show_muck":
            continue
        seat = action.actor
        assert seat is not None
        shows[seat] = action
        if action.cards is None:  # a muck, or "sm -": the cards dealt
            continue
        dealt = hole[seat]
        shown = action.cards
        # A show lists the player's cards in dealing order: all of them, or those dealt so far
        # (PokerKit shows all-in hands before the last streets are dealt).
        if len(shown) > len(dealt):
            raise ReplayError(f"{action}: shows {len(shown)} cards, but p{seat + 1} was dealt {len(dealt)}")
        _place_shown(str(action), seat, dealt, shown)
    return _Plan(hole, board, shows)


def _place_shown(where: str, seat: int, dealt: list[str], shown: Sequence[str]) -> None:
    """Fill ``dealt`` (a player's cards in dealing order, ``??`` unknown) from a show. The up
    cards must be where they were dealt; the down cards (two on 3rd street, one on 7th) are
    matched as a set, as in the PokerStars and Full Tilt replayer, because a site may list them
    in its own order: a card dealt keeps its place, a new one fills an unknown down place (its
    own first), and a card that is neither is refused."""
    named = [card for card in shown if card != UNKNOWN_CARD]
    twice = next((card for card in named if named.count(card) > 1), None)
    if twice is not None:
        raise ReplayError(f"{where}: shows {twice} twice")
    for k, card in enumerate(shown):
        if k in _UP_CARDS and card not in (UNKNOWN_CARD, dealt[k]):
            if dealt[k] != UNKNOWN_CARD:
                raise ReplayError(f"{where}: p{seat + 1} was dealt {dealt[k]}, not {card}")
            dealt[k] = card
    places = [k for k in range(len(shown)) if k not in _UP_CARDS]
    held = {dealt[k] for k in places} - {UNKNOWN_CARD}
    new = [(k, shown[k]) for k in places if shown[k] != UNKNOWN_CARD and shown[k] not in held]
    free = [k for k in places if dealt[k] == UNKNOWN_CARD]
    if len(new) > len(free):
        known = " ".join(dealt[k] for k in places)
        cards = " ".join(card for _, card in new)
        raise ReplayError(f"{where}: p{seat + 1} was dealt {known} down, not {cards}")
    rest = [card for k, card in new if k not in free]
    for k, card in new:
        if k in free:
            free.remove(k)
            dealt[k] = card
    for k, card in zip(free, rest, strict=False):
        dealt[k] = card


_UP_CARDS = (2, 3, 4, 5)  # a player's door card and 4th to 6th street cards are dealt face up


def _deal_slots(plan: _Plan) -> list[tuple[str, int | None, int]]:
    """Every card in our engine's dealing order (:func:`sevenstud.dealing.deal_slots`), as
    (card or ``??``, player or None for the community card, the card's place in the player's
    hand): the file deals a player still in one card a street, so a folded player has fewer."""
    try:
        slots = deal_slots([len(h) for h in plan.hole], plan.board is not None)
    except DealingError as error:
        raise ReplayError(f"the deals are impossible: {error}") from None
    board = plan.board or UNKNOWN_CARD  # (deal_slots gives no community slot without one)
    return [(board if p is None else plan.hole[p][k], p, k) for p, k in slots]


def _deck_order(plan: _Plan, fill: dict[int, Card] | None = None) -> list[Card]:
    """The deck in our engine's dealing order (see :func:`_deal_slots`); unknown cards are
    ``fill[i]`` at place ``i`` where given, else the spare cards in order."""
    order = [card for card, _, _ in _deal_slots(plan)]
    known = [c for c in order if c != UNKNOWN_CARD]
    try:
        used = set(parse_cards(known))
    except ValueError as error:
        raise ReplayError(f"the deals are impossible: {error}") from None
    chosen = fill or {}
    used.update(chosen.values())
    spare = iter(c for c in CARDS if c not in used)
    return [
        (chosen[i] if i in chosen else next(spare)) if c == UNKNOWN_CARD else parse_cards(c)[0]
        for i, c in enumerate(order)
    ]


def _engine_action(hand: Hand, action: PHHAction) -> Action:
    kind = action.kind
    legal = hand.legal_actions()
    if kind == "post_bring_in":
        return Action(ActionKind.BRING_IN)
    if kind == "fold":
        return Action(ActionKind.FOLD)
    if kind == "check_call":
        check = [a for a in legal if a.kind is ActionKind.CHECK]
        return check[0] if check else Action(ActionKind.CALL)
    assert kind == "complete_bet_raise" and action.amount is not None
    for candidate in legal:
        if candidate.kind in _CBR and candidate.amount == action.amount:
            return candidate
    for candidate in legal:
        # A player whose chips after the ante are the bring-in or less cannot complete:
        # PokerKit writes its forced all-in as a completion to that amount ('cbr 2').
        if candidate.kind is ActionKind.BRING_IN and candidate.amount == action.amount:
            return candidate
    full = _full_raise_for_capped(hand, action.amount, legal)
    if full is not None:
        return full
    aggressive = [a for a in legal if a.kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)]
    kind_word = aggressive[0].kind if aggressive else ActionKind.RAISE
    return Action(kind_word, action.amount)


def _full_raise_for_capped(hand: Hand, amount: int, legal: list[Action]) -> Action | None:
    """The full raise (or the raiser's all-in) when ``amount`` is exactly the most that any
    opponent still in can put in this street, short of what our rules let the raiser make it.

    Older PokerKit caps a raise at what the opponents can answer; the chips cannot differ from
    the full raise, whose excess nobody can call and so comes back uncalled."""
    seat = hand.to_act
    if seat is None:
        return None
    reach = [hand.street_bets[o] + hand.stacks[o] for o in range(hand.n) if o != seat and not hand.folded[o]]
    if not reach or amount != max(reach) or amount <= max(hand.street_bets):
        return None
    bigger = [a for a in legal if a.kind in _CBR and a.amount is not None and a.amount > amount]
    return min(bigger, key=lambda a: a.amount or 0) if bigger else None


def _settle_showdown(hand: Hand, plan: _Plan, *, final: bool) -> None:
    """Answer the engine's showdown questions from the file's ``sm`` lines, in our order."""
    while hand.phase is Phase.SHOWDOWN and hand.to_act is not None:
        seat = hand.to_act
        decision = plan.shows.get(seat)
        if decision is None:
            if not final:
                return
            if UNKNOWN_CARD in plan.hole[seat]:
                raise ReplayError(
                    f"p{seat + 1} reaches the showdown but the file neither shows nor mucks "
                    "the cards, and they are unknown"
                )
            hand.act(Action(ActionKind.SHOW), seat)
        elif decision.is_muck:
            hand.act(Action(ActionKind.MUCK), seat)
        else:
            hand.act(Action(ActionKind.SHOW), seat)


def game_of(phh: PHHHand) -> Game:
    """Our game for a PHH hand's variant and stakes."""
    if len(set(phh.antes)) != 1:
        raise ReplayError(f"antes {phh.antes}: unequal antes are not a stud game we know")
    # Where the rake comes from (user field ``_rake_from``, with ``_rake``): our engine takes
    # it from every pot in proportion unless the card room took it from the main pot alone.
    rake_from = phh.extra.get("_rake_from", "each_pot")
    if rake_from not in ("each_pot", "main_pot"):
        raise ReplayError(f"_rake_from: {rake_from!r} is not 'each_pot' or 'main_pot'")
    try:
        game = game_by_name(
            _GAME_OF_VARIANT[phh.variant],
            Stakes(
                ante=phh.antes[0],
                bring_in=phh.bring_in,
                small_bet=phh.small_bet,
                big_bet=phh.big_bet,
            ),
            rake_from=rake_from,
        )
        # A tournament's hand (user field ``_tournament_rules``): the TDA's options.
        return tournament_rules(game) if phh.extra.get("_tournament_rules") is True else game
    except GameError as error:
        raise ReplayError(f"stakes: {error}") from None


class _Stopped(ReplayError):
    """A replay that stopped at ``reached`` (the index of the failing action; past the last
    action for what fails after them), so that fillings of unknown cards can be compared."""

    def __init__(self, message: str, reached: int) -> None:
        super().__init__(message)
        self.reached = reached


def play_phh(phh: PHHHand) -> Hand:
    """Replay a PHH hand through our engine; :class:`ReplayError` names the first action our
    rules refuse, or the disagreement with the file's ``finishing_stacks``. Unknown cards are
    filled so that the file's actions stand, where any filling lets them (:func:`_fill_unknown`)."""
    actions = phh.parsed_actions()
    plan = _plan(phh, actions)
    game = game_of(phh)
    try:
        return _fill_unknown(phh, actions, plan, game)
    except _Stopped as stopped:
        raise ReplayError(str(stopped)) from None


# Fillings tried at most, so that a hand no filling can save fails in bounded time.
_MAX_FILLINGS = 4000


def _fill_unknown(phh: PHHHand, actions: list[PHHAction], plan: _Plan, game: Game) -> Hand:
    """Play the hand with the unknown cards filled by the spare cards in order; when that stops
    before the end, put other spare cards in the unknown up cards dealt by the street where it
    stopped, keeping each change that lets the file's actions go further, until they all stand.

    Only up cards decide who brings in or acts first (and the open pair of stud's 4th street);
    an unknown down card decides nothing unless shown, and then the show names it."""
    try:
        return _play_once(phh, actions, plan, game, {})
    except _Stopped as stopped:
        first = best = stopped
    slots = _deal_slots(plan)
    up = [
        i
        for i, (card, player, k) in enumerate(slots)
        if card == UNKNOWN_CARD and player is not None and k in _UP_CARDS
    ]
    if not up or first.reached >= len(actions):
        raise first  # (once every action stands, the cards nobody saw decide no chips)
    known = {c for c, _, _ in slots if c != UNKNOWN_CARD}
    fill: dict[int, Card] = {}
    tried = 0
    while True:
        street = _street_at(actions, best.reached)
        places = [i for i in up if slots[i][2] + 1 <= street]
        improved = False
        for place in places:
            taken = known | {str(c) for p, c in fill.items() if p != place}
            for card in CARDS:
                if str(card) in taken or fill.get(place) == card:
                    continue
                tried += 1
                if tried > _MAX_FILLINGS:
                    raise best if best.reached > first.reached else first
                trial = {**fill, place: card}
                try:
                    return _play_once(phh, actions, plan, game, trial)
                except _Stopped as stopped:
                    if stopped.reached > best.reached:
                        best, fill, improved = stopped, trial, True
                        break
            if improved:
                break
        if not improved:
            raise best if best.reached > first.reached else first


def _street_at(actions: list[PHHAction], index: int) -> int:
    """The street being played at ``actions[index]`` (7 past the end): 3 plus the rounds of
    single-card deals seen before it (3rd street deals each player three cards at once, or one
    line per card; a later street one card a player)."""
    dealt: dict[int, int] = {}
    for action in actions[: max(index, 0)]:
        if action.kind == "deal_hole" and action.player is not None and action.cards:
            dealt[action.player] = dealt.get(action.player, 0) + len(action.cards)
    return 7 if index >= len(actions) else max(3, max(dealt.values(), default=3))


def _play_once(
    phh: PHHHand, actions: list[PHHAction], plan: _Plan, game: Game, fill: dict[int, Card]
) -> Hand:
    """One replay with the unknown cards filled as ``fill`` says (the rest in order)."""
    deck = _deck_order(plan, fill)
    try:
        rake = phh.extra.get("_rake")  # the rake a card room took (user field; PHH has none)
        dead = phh.extra.get("_dead", [])  # the seats dead from the deal (user field, p1 first)
        if not isinstance(dead, list) or not all(type(p) is int for p in dead):
            raise HandError(f"_dead: a list of player numbers (p1 is 1), not {dead!r}")
        hand = Hand(
            game,
            phh.starting_stacks,
            Deck.ordered(deck),
            auto_showdown=False,
            rake=rake if isinstance(rake, int) and not isinstance(rake, bool) else None,
            dead=[player - 1 for player in dead],
        )
    except (HandError, ValueError) as error:
        raise _Stopped(f"cannot start the hand: {error}", -1) from None
    end = len(actions)
    for index, action in enumerate(actions):
        where = f"actions[{index}] {phh.actions[index]!r}"
        try:
            if action.kind in ("deal_hole", "deal_board", "no_op", "show_muck"):
                if action.kind == "show_muck":
                    _settle_showdown(hand, plan, final=False)
                continue
        except ReplayError as error:
            raise _Stopped(str(error), index) from None
        if hand.is_over:
            raise _Stopped(f"{where}: the hand is already over under our rules", index)
        if hand.phase is Phase.SHOWDOWN:
            raise _Stopped(f"{where}: our engine has reached the showdown", index)
        seat = action.actor
        assert seat is not None
        if seat != hand.to_act:
            raise _Stopped(
                f"{where}: p{seat + 1} acts, but our engine has p{(hand.to_act or 0) + 1} to act",
                index,
            )
        try:
            hand.act(_engine_action(hand, action), seat)
        except IllegalAction as error:
            raise _Stopped(f"{where}: illegal under our rules: {error}", index) from None
    try:
        _settle_showdown(hand, plan, final=True)
        if not hand.is_over:
            raise ReplayError(f"the file ends before the hand does (p{(hand.to_act or 0) + 1} to act)")
        _check_deals(hand, plan)
    except ReplayError as error:
        raise _Stopped(str(error), end) from None
    if phh.finishing_stacks is not None and list(phh.finishing_stacks) != list(hand.stacks):
        raise _Stopped(
            f"finishing_stacks: the file says {phh.finishing_stacks}, our engine {hand.stacks}",
            end + 1,
        )
    return hand


def _check_deals(hand: Hand, plan: _Plan) -> None:
    for seat, cards in enumerate(plan.hole):
        ours = [str(c) for c in hand.cards[seat]]
        theirs = [c for c in cards]
        if len(ours) != len(theirs) or any(
            t not in (UNKNOWN_CARD, o) for o, t in zip(ours, theirs, strict=False)
        ):
            raise ReplayError(
                f"deals: the file deals p{seat + 1} {' '.join(theirs)}, our engine {' '.join(ours)}"
            )
    ours_board = str(hand.community) if hand.community is not None else None
    if ours_board != plan.board:
        raise ReplayError(f"deals: the file's community card is {plan.board}, ours {ours_board}")


_PHH_VERB = {
    ActionKind.BRING_IN: "pb",
    ActionKind.COMPLETE: "cbr",
    ActionKind.BET: "cbr",
    ActionKind.RAISE: "cbr",
    ActionKind.CALL: "cc",
    ActionKind.CHECK: "cc",
    ActionKind.FOLD: "f",
}


def to_phh(hand: Hand, players: Sequence[str] | None = None, **fields: Any) -> PHHHand:
    """Our hand in PHH: the deals (3rd street as one ``d dh`` line per player), every action, the
    community card as ``d db``, shows as ``sm CARDS`` and mucks as a bare ``sm``."""
    lines: list[str] = []
    third: dict[int, list[Card]] = {}  # 3rd street is written one line per player, as PokerKit does

    def flush_third() -> None:
        lines.extend(f"d dh p{s + 1} {''.join(map(str, cards))}" for s, cards in sorted(third.items()))
        third.clear()

    for event in hand.events:
        if isinstance(event, CardDealt) and event.street == 3:
            assert event.card is not None
            third.setdefault(event.seat, []).append(event.card)
            continue
        if third:
            flush_third()
        if isinstance(event, CardDealt):
            assert event.card is not None
            lines.append(f"d dh p{event.seat + 1} {event.card}")
        elif isinstance(event, CommunityCardDealt):
            lines.append(f"d db {event.card}")
        elif isinstance(event, ActionTaken):
            verb = _PHH_VERB.get(event.action.kind)
            if verb is None or (event.seat in hand.dead and event.action.kind == ActionKind.FOLD):
                continue  # (a dead hand's fold is the dealer's, out of turn: ``_dead`` replays it)
            amount = f" {event.action.amount}" if verb == "cbr" else ""
            lines.append(f"p{event.seat + 1} {verb}{amount}")
        elif isinstance(event, HandShown):
            lines.append(f"p{event.seat + 1} sm {''.join(map(str, event.cards))}")
        elif isinstance(event, HandMucked):
            lines.append(f"p{event.seat + 1} sm")
    stakes = hand.game.stakes
    # What PHH has no field for, in user fields the replay reads back: a tournament's rules (TDA)
    # and the seats whose hands were dead from the deal (players away at a tournament table).
    marks: dict[str, Any] = {}
    if hand.game == tournament_rules(hand.game) != game_class(hand.game.code)(stakes):
        marks["_tournament_rules"] = True
    if hand.dead:
        marks["_dead"] = sorted(seat + 1 for seat in hand.dead)
    if marks:
        fields["extra"] = {**fields.get("extra", {}), **marks}
    return PHHHand(
        variant=hand.game.phh_variant,
        antes=[stakes.ante] * hand.n,
        bring_in=stakes.bring_in,
        small_bet=stakes.small_bet,
        big_bet=stakes.big_bet,
        starting_stacks=list(hand.starting_stacks),
        actions=lines,
        players=list(players) if players is not None else None,
        finishing_stacks=list(hand.stacks) if hand.is_over else None,
        **fields,
    )
