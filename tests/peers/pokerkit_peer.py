"""Replay one stud hand through PokerKit, the peer implementation we cross-check against.

PokerKit is a *test* dependency: nothing under ``src/`` may import this module.

:func:`pokerkit_play` takes the exact dealing order and the PHH-style actions of one
hand, makes PokerKit deal the same cards to the same players (PokerKit's own dealing
and burning automations are switched off, burning is removed from its streets) and
lets PokerKit post antes, collect bets, show or muck, kill hands and push/pull chips.
Where PokerKit cannot follow our rules (see ``POKERKIT_NOTES.md`` next to this file)
it raises :class:`PeerDiffers` instead of returning a silently different result.

Heads-up, checked down (the deck only needs the cards that are dealt):

>>> limits = dict(ante=1, bring_in=2, small_bet=5, big_bet=10)
>>> deck = "2c 3d 4h 5s Kd Kc 9h 9s Ah Ad Th Td Jh Jd".split()
>>> r = pokerkit_play("stud", **limits, stacks=[100, 100], deck=deck,
...                   actions=["p2 pb", "p1 cc"] + ["p1 cc", "p2 cc"] * 4)
>>> r.bring_in_player, r.first_actor_per_street  # Kc brings in; Kd-9h ties Kc-9s: p1 leads
(1, [1, 0, 0, 0, 0])
>>> r.payoffs, r.finishing_stacks  # p1's heart flush takes the 6 chips
([3, -3], [103, 97])

Everybody folds to the completer, who gets the completion back and wins 3 antes and
the bring-in:

>>> deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
>>> r = pokerkit_play("stud8", **limits, stacks=[50] * 3, deck=deck,
...                   actions=["p1 pb", "p2 cbr 5", "p3 f", "p1 f"])
>>> r.bring_in_player, r.payoffs  # 3h < 3s < 4c
(0, [-3, 4, -1])

Eight players check it down: the 4 cards left for 7th street cannot give everyone a
card, so the next one (Ac) is a community card:

>>> def around(first):
...     return [f"p{(first + i) % 8 + 1} cc" for i in range(8)]
>>> actions = ["p1 pb", *around(1)[:7], *around(4) * 4]
>>> r = pokerkit_play("stud8", **limits, stacks=[50] * 8, deck=deck, actions=actions)
>>> r.first_actor_per_street, r.payoffs
([0, 4, 4, 4, 4], [0, 0, 0, 0, 9, -3, -3, -3])
>>> [op for op in r.raw_operations if op.startswith("BoardDealing")]
['BoardDealing(commentary=None, cards=(Ac,))']

PokerKit has no 4th-street double bet for an open pair:

>>> try:
...     pokerkit_play("stud", **limits, stacks=[50] * 3, deck=deck,
...                   actions=["p1 pb", "p2 cc", "p3 cc", "p3 cbr 10"])
... except PeerDiffers as error:
...     print(error)  # doctest: +ELLIPSIS
action 4 'p3 cbr 10': PokerKit refuses (The amount 10 is above ...); it allows cc (0), cbr 5
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from pokerkit import (
    Automation,
    Card,
    ChipsPushing,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    HandHistory,
    Mode,
    Poker,
    State,
)
from pokerkit.games import SevenCardStud

__all__ = [
    "GAMES",
    "REPLAY_AUTOMATIONS",
    "PeerDiffers",
    "PeerResult",
    "create_state",
    "pokerkit_play",
]

#: Our game names -> PokerKit's game definitions.
GAMES: Final[dict[str, type[SevenCardStud]]] = {
    "stud8": FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    "stud": FixedLimitSevenCardStud,
    "razz": FixedLimitRazz,
}

#: What PokerKit does on its own when replaying: everything except card burning,
#: hole/board dealing (we deal from the given deck) and the bring-in (it is a
#: player action in PokerKit, "pb"; there is no automation for it).  Runout-count
#: selection never happens in stud (no board streets) nor in tournament mode.
REPLAY_AUTOMATIONS: Final[tuple[Automation, ...]] = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,  # no blinds in stud: a no-op
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

STREET_NAMES: Final[tuple[str, ...]] = ("3rd", "4th", "5th", "6th", "7th")

_ACTION = re.compile(r"p(?P<player>[1-9]\d*) (?P<verb>pb|cc|f|cbr) ?(?P<amount>\d+)?")


class PeerDiffers(Exception):
    """PokerKit cannot or will not follow our rules for this hand (the reason says why)."""


@dataclass
class PeerResult:
    """What PokerKit made of one hand.

    ``first_actor_per_street[i]`` is the player PokerKit put first to act once the cards
    of street ``i`` (0 = 3rd street) were dealt, ``None`` when nobody could act (all-in
    runout).  Only streets that were dealt are listed.  ``bring_in_player`` is the first
    actor on 3rd street (who must bring in or complete), -1 if nobody could act there.
    ``opener_per_street`` is PokerKit's ``opener_index`` at that moment: the player whose
    up cards decide the opening (the bring-in card, the best/worst board), who may
    differ from the first actor when that player is all-in.
    """

    finishing_stacks: list[int]
    payoffs: list[int]
    bring_in_player: int
    first_actor_per_street: list[int | None]
    raw_operations: list[str]
    opener_per_street: list[int | None] = field(default_factory=list)
    peer_warnings: list[str] = field(default_factory=list)
    phh: str = ""
    """The hand as PokerKit writes it in PHH (its own order of show lines, and so on)."""


def create_state(
    game: str,
    *,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    stacks: Sequence[int],
    automations: tuple[Automation, ...] = REPLAY_AUTOMATIONS,
    burn_cards: bool = False,
    mode: Mode = Mode.TOURNAMENT,
) -> State:
    """A fresh PokerKit state for ``game`` ("stud8", "stud" or "razz"); see :func:`definition`."""
    return definition(
        game,
        ante=ante,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        automations=automations,
        burn_cards=burn_cards,
        mode=mode,
    )(tuple(stacks), len(stacks))


def definition(
    game: str,
    *,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    automations: tuple[Automation, ...] = REPLAY_AUTOMATIONS,
    burn_cards: bool = False,
    mode: Mode = Mode.TOURNAMENT,
) -> Poker:
    """PokerKit's game for ``game`` ("stud8", "stud" or "razz").

    ``burn_cards=False`` rebuilds PokerKit's streets without card burning, so that the
    only cards leaving PokerKit's deck are the ones we deal.  Chips are plain ints; the
    default ``divmod`` (builtin ``divmod`` for ints) and zero ``rake`` are kept.
    """
    try:
        definition_type = GAMES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}; expected one of {sorted(GAMES)}") from None
    definition = definition_type(
        automations,
        True,  # ante trimming: uniform antes
        ante,
        bring_in,
        small_bet,
        big_bet,
        mode=mode,
    )
    if not burn_cards:
        definition.streets = tuple(
            dataclasses.replace(street, card_burning_status=False) for street in definition.streets
        )
    return definition


def _parse_deck(deck: Sequence[str]) -> list[Card]:
    cards: list[Card] = []
    for text in deck:
        parsed = Card.clean(text)
        if len(parsed) != 1 or not parsed[0]:
            raise ValueError(f"bad card {text!r} in deck")
        cards.append(parsed[0])
    if len(set(cards)) != len(cards):
        raise ValueError("deck has duplicate cards")
    return cards


class _Replay:
    """Deals the given cards into a PokerKit state street by street."""

    def __init__(self, state: State, cards: list[Card]) -> None:
        self.state = state
        self.cards = cards
        self.position = 0
        self.dealt_street = -1
        self.first_actor: list[int | None] = []
        self.opener: list[int | None] = []

    def _pending(self) -> bool:
        state = self.state
        return (
            state.status
            and state.street_index is not None
            and state.street_index > self.dealt_street
            and (any(state.hole_dealing_statuses) or any(state.board_dealing_counts))
        )

    def _next_card(self) -> Card:
        if self.position >= len(self.cards):
            raise ValueError(f"deck exhausted after {self.position} cards")
        card = self.cards[self.position]
        self.position += 1
        if card not in self.state.deck_cards:
            raise ValueError(f"{card!r} is no longer in PokerKit's deck")
        return card

    def deal_pending(self) -> None:
        """Deal every street PokerKit is waiting for (several in an all-in runout)."""
        state = self.state
        while self._pending():
            street_index = state.street_index
            assert street_index is not None and state.street is not None
            active = [i for i in state.player_indices if state.statuses[i]]
            undealt = len(state.deck_cards)
            per_player = len(state.street.hole_dealing_statuses)
            # Our rule: a single community card when the deck cannot give everyone one.
            ours_community = undealt < per_player * len(active)
            theirs_community = not any(state.hole_dealing_statuses)
            if theirs_community != ours_community:
                reserve = len(tuple(state.reserved_cards))
                raise PeerDiffers(
                    f"{STREET_NAMES[street_index]} street: {undealt} undealt cards for "
                    f"{len(active)} players; we deal "
                    f"{'one community card' if ours_community else 'hole cards'}, PokerKit "
                    f"{'one community card' if theirs_community else 'hole cards'} "
                    f"(it refills the deck from its {reserve} mucked/burned cards; "
                    "State._begin_dealing, State._consume_cards)"
                )
            if theirs_community:  # one board card per hole card the street deals
                for _ in range(per_player):
                    state.deal_board((self._next_card(),))
            else:
                for _ in range(per_player):
                    for player in active:
                        state.deal_hole((self._next_card(),), player)
            self.dealt_street = street_index
            # Betting has begun (or was skipped because nobody can act).
            self.first_actor.append(state.actor_index)
            self.opener.append(state.opener_index)


def _check_low_halves(state: State) -> None:
    """Refuse PokerKit's hi/lo split of a pot in which nobody has a low, if it matters.

    PokerKit decides per *board* whether a low half exists (any shown hand has a low,
    ``State._begin_chips_pushing``), then ``State.push_chips`` gives each pot's low half
    to the pot's players whose low equals the best one; in a side pot where nobody has
    a low the best one is ``None``, which every remaining player of that pot "has", so
    they all share that low half.  The rules give the whole pot to the high hand(s).
    PokerKit's result still agrees when that pot's only remaining player is its high
    winner (losers are usually killed or mucked), so only a different split is refused.
    """
    shares: dict[tuple[int, int], list[int]] = {}
    no_low: set[tuple[int, int]] = set()
    for operation in state.operations:
        if not isinstance(operation, ChipsPushing) or operation.board_index is None:
            continue
        key = (operation.pot_index, operation.board_index)
        share = shares.setdefault(key, [0] * state.player_count)
        for player, amount in enumerate(operation.amounts):
            share[player] += amount
            if (
                operation.hand_type_index == 1
                and amount
                and state.get_hand(player, operation.board_index, 1) is None
            ):
                no_low.add(key)
    if not no_low:
        return
    pots = list(state.pots)
    for pot_index, board in sorted(no_low):
        players = [i for i in pots[pot_index].player_indices if state.statuses[i]]
        highs = {i: state.get_hand(i, board, 0) for i in players}
        best = max(hand for hand in highs.values() if hand is not None)
        winners = [i for i in players if highs[i] == best]
        share = shares[pot_index, board]
        quotient, remainder = divmod(sum(share), len(winners))
        expected = [0] * state.player_count
        for i in winners:
            expected[i] = quotient + (remainder if i == winners[0] else 0)
        if share != expected:
            raise PeerDiffers(
                f"pot {pot_index} has no qualifying low, yet PokerKit split its low half "
                f"among all its players: {share} instead of {expected} to the high hand "
                "(State._begin_chips_pushing decides the low half per board, "
                "State.push_chips: None == None)"
            )


def _describe_options(state: State) -> str:
    options = []
    if state.can_post_bring_in():
        options.append("pb")
    if state.can_fold():
        options.append("f")
    if state.can_check_or_call():
        options.append(f"cc ({state.checking_or_calling_amount})")
    if state.can_complete_bet_or_raise_to():
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        options.append(f"cbr {low}" if low == high else f"cbr {low}..{high}")
    return ", ".join(options) or "nothing"


def pokerkit_play(
    game: str,
    *,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    stacks: list[int],
    deck: list[str],
    actions: list[str],
) -> PeerResult:
    """Play one hand through PokerKit with the given dealing order and actions.

    ``deck`` is the dealing order (no burn cards): 3rd street down, down, up to each
    player in rounds from player 0, then one card per street to the players still in
    the hand, in seat order; on 7th street, if fewer undealt cards remain (of the
    52-card deck) than players, the next card is one community card.

    ``actions`` are PHH player actions, ``p1`` being player index 0: ``pN pb`` (post
    the bring-in), ``pN cbr X`` (complete/bet/raise *to* X, the player's street total),
    ``pN cc`` (check/call), ``pN f`` (fold).  Dealer lines (``d ...``) and showdown
    lines (``pN sm ...``) are skipped: we deal from ``deck`` and PokerKit shows or
    mucks by itself.

    Raises :class:`PeerDiffers` when PokerKit expects another player to act, rejects an
    action, deals 7th street differently, loses chips, gives part of a low half to a
    player without a low, or has not finished the hand when the actions run out.
    Raises :class:`ValueError` for malformed input (bad card, duplicate, short deck).
    """
    cards = _parse_deck(deck)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        poker = definition(game, ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet)
        state = poker(tuple(stacks), len(stacks))
        replay = _Replay(state, cards)
        replay.deal_pending()
        for number, line in enumerate(actions, 1):
            line = line.strip()
            if not line or line.startswith("d ") or re.match(r"p\d+ sm\b", line):
                continue
            match = _ACTION.fullmatch(line)
            if match is None or (match["verb"] == "cbr") != (match["amount"] is not None):
                raise ValueError(f"action {number}: cannot parse {line!r}")
            player = int(match["player"]) - 1
            if not 0 <= player < len(stacks):
                raise ValueError(f"action {number}: no player {match['player']} in {line!r}")
            where = f"action {number} {line!r}"
            if not state.status:
                raise PeerDiffers(f"{where}: PokerKit's hand is already over")
            if state.actor_index != player:
                expected = "nobody" if state.actor_index is None else f"p{state.actor_index + 1}"
                raise PeerDiffers(f"{where}: PokerKit expects {expected} to act")
            try:
                match match["verb"]:
                    case "pb":
                        state.post_bring_in()
                    case "cc":
                        state.check_or_call()
                    case "f":
                        state.fold()
                    case "cbr":
                        state.complete_bet_or_raise_to(int(match["amount"]))
            except ValueError as error:
                raise PeerDiffers(
                    f"{where}: PokerKit refuses ({error}); it allows {_describe_options(state)}"
                ) from error
            replay.deal_pending()
        if state.status:
            expected = "nobody" if state.actor_index is None else f"p{state.actor_index + 1}"
            raise PeerDiffers(f"actions ran out but PokerKit still expects {expected} to act")
    if sum(state.payoffs) != 0:
        raise PeerDiffers(f"PokerKit lost chips: payoffs {state.payoffs} do not sum to 0")
    _check_low_halves(state)
    first_actor = replay.first_actor
    bring_in_player = first_actor[0] if first_actor and first_actor[0] is not None else -1
    return PeerResult(
        finishing_stacks=list(state.stacks),
        payoffs=list(state.payoffs),
        bring_in_player=bring_in_player,
        first_actor_per_street=first_actor,
        raw_operations=[repr(operation) for operation in state.operations],
        opener_per_street=replay.opener,
        peer_warnings=[str(warning.message) for warning in caught],
        phh=HandHistory.from_game_state(poker, state).dumps(),
    )
