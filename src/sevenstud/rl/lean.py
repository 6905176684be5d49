"""One hand at a time in plain Python, for the single environments (issue 17, point 5).

:class:`LeanStud` plays the same hands as :class:`~sevenstud.rl.core.HandRunner` (the same
decks from the same seed, the same legal actions, rewards and observations) without the
engine's :class:`~sevenstud.hand.Hand`: the cards are integers, the betting round a few
integers and a list of who still must act, and each seat's observation is a numpy array of its
own, kept up to date entry by entry as the hand goes (an action writes its betting-log entries,
the stack and the pot; a street writes its cards and who acts), instead of being built again at
every step. A :class:`~sevenstud.hand.Hand` spends most of a step on what a learning
environment never reads (events, views, the pots as they stand, the general betting round of
all-in play); this is the step without them.

It plays the rules again, as :mod:`sevenstud.rl.batched` does, so it plays only where that is
simple: the tables :func:`~sevenstud.rl.batched.batch_refusal` accepts (nobody can ever be
all-in, so there is one pot, every bet is a full one and no hand is turned face up early; the
games' default options, the cap and stud's 4th-street double bet apart). What it does not
re-decide it asks the game: the showdown ranks (:meth:`~sevenstud.games.Game.showdown_ranks`)
and the best board (:meth:`~sevenstud.games.Game.board_key`). tests/rl/test_lean.py plays
thousands of hands of every game and seat count through it and through ``Hand`` from the same
decks, with the same actions, and requires the same masks, observations (every seat's), seats
to act and rewards at every step.

The showdown shows and mucks as the engine does (from the last aggressor of 7th street, else the
one who acted first on it, in turn; a hand that can win nothing against those shown is mucked; the last
hand left unmucked is not shown when nobody else claims the pot): it decides which hands every
seat sees in the final observation. The pot goes as it would among all the live hands (a
mucked hand wins nothing in any case), as in :mod:`sevenstud.rl.batched`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from sevenstud.actions import ACTION_COUNT, ActionIndex, IllegalAction, numbered
from sevenstud.deck import Deck
from sevenstud.hand import Hand
from sevenstud.rl.batched import batch_refusal
from sevenstud.rl.core import NO_ACTIONS, HandRunner, TableConfig
from sevenstud.rl.encoding import BET_FEATURES, SLOTS, STREETS, Layout, ObsArray

Mask = npt.NDArray[np.int8]

# The betting-log feature each action index counts (sevenstud.rl.encoding.BettingLog): brought
# in 0, completions, bets and raises 1, calls 2, checks 3; a fold counts nothing (-1).
_COUNTED = (-1, 3, 2, 0, 1, 1, 1, 1, 1, -1, -1)
_AGGRESSIVE = (False, False, False, False, True, True, True, True, True, False, False)

# The bits of a mask's key (LeanStud._mask_key): which legal actions the seat to act has.
_DUE, _FACING, _MAY_RAISE, _OPEN_THIRD, _OPENING, _TWO_SIZES = 1, 2, 4, 8, 16, 32


def _legal_indices(key: int) -> tuple[int, ...]:
    """The legal action indices a mask key stands for, as ``BatchedStud._write`` lists them
    (the engine's ``BettingRound.legal`` where nobody is all-in)."""
    if key & _DUE:
        return (3, 4) if key & _MAY_RAISE else (3,)  # _MAY_RAISE: here, completing is allowed
    legal = [0, 2 if key & _FACING else 1]
    if key & _MAY_RAISE:
        if key & _OPEN_THIRD:
            legal.append(4)
        elif key & _OPENING:
            legal += [5, 7] if key & _TWO_SIZES else [5]
        else:
            legal += [6, 8] if key & _TWO_SIZES else [6]
    return tuple(legal)


def _masks() -> list[tuple[Mask, tuple[bool, ...]]]:
    """Every mask key's mask (read-only: shared by every step that has it) and the same as a
    tuple of booleans (an action checked against a tuple costs less than against an array)."""
    out = []
    for key in range(64):
        mask = np.zeros(ACTION_COUNT, np.int8)
        mask[list(_legal_indices(key))] = 1
        mask.flags.writeable = False
        out.append((mask, tuple(bool(m) for m in mask)))
    return out


_MASKS = _masks()
_ZERO = np.float32(0.0)

# random.shuffle's steps for 52 cards: from the last place down, a place drawn below it
# (Random._randbelow: getrandbits of its bit length, drawn again while too large).
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(51, 0, -1))


def _shuffle_inline(deck: list[int], shuffler: random.Random) -> None:
    """``shuffler.shuffle(deck)`` written out (a new hand's shuffle was a third of a step:
    the library's calls a method per card); the same order."""
    getrandbits = shuffler.getrandbits
    for i, bits in _SHUFFLE_STEPS:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def _library_shuffle(deck: list[int], shuffler: random.Random) -> None:
    shuffler.shuffle(deck)


def _same_as_the_library() -> bool:
    """Whether the shuffle written out orders a deck as this Python's ``random.shuffle`` does
    (its drawing is an implementation detail: checked once, at import)."""
    ours, theirs = list(range(52)), list(range(52))
    _shuffle_inline(ours, random.Random(17))
    random.Random(17).shuffle(theirs)
    return ours == theirs


_shuffle = _shuffle_inline if _same_as_the_library() else _library_shuffle


class LeanStud:
    """One table of ``config`` (:func:`~sevenstud.rl.batched.batch_refusal` must be None), one
    hand at a time: the runner interface of :class:`~sevenstud.rl.core.HandRunner`
    (:meth:`new_hand`, :meth:`step`, :meth:`observe`, :meth:`mask`, :meth:`rewards`,
    :attr:`to_act`, :attr:`is_over`), dealt the same decks from the same seed."""

    __slots__ = (
        "_bet_at",
        "_card_at",
        "_fold_at",
        "_hidden_at",
        "_key",
        "_log",
        "_pot_at",
        "_rng",
        "_seeds",
        "_shuffler",
        "_stack_at",
        "_template",
        "_to_act_at",
        "actions",
        "ante",
        "bets",
        "bets_made",
        "big",
        "big_bet_made",
        "bring_in",
        "bring_in_due",
        "bring_in_seat",
        "cap",
        "cards",
        "community",
        "completed",
        "config",
        "contributed",
        "current",
        "deck",
        "double",
        "double_bet",
        "folded",
        "game",
        "is_over",
        "last_aggressor",
        "layout",
        "level",
        "live",
        "n",
        "observations",
        "payouts",
        "pending",
        "position",
        "pot",
        "razz",
        "shown",
        "small",
        "split",
        "stack",
        "street",
        "street_first",
        "to_act",
        "total",
    )  # fmt: skip
    to_act: int | None
    """The seat to act (None once the hand is over)."""

    def __init__(self, config: TableConfig, seed: int | None = None) -> None:
        refusal = batch_refusal(config)
        if refusal is not None:
            raise ValueError(f"no lean engine for this table: {refusal}")
        game = self.game = config.game
        self.config = config
        n = self.n = config.players
        L = self.layout = Layout(n)
        stakes = game.stakes
        self.ante, self.bring_in = stakes.ante, stakes.bring_in
        self.small, self.big = stakes.small_bet, stakes.big_bet
        self.cap = game.cap
        self.razz = not game.has_high
        self.split = game.split
        # The big bet on an open pair's 4th street is a second size only when it differs.
        self.double = game.double_bet_on_open_pair and self.big > self.small
        self.stack = config.stack
        self.total = n * config.stack
        self.seed(seed)
        self._shuffler = random.Random()
        # Where each seat's entries lie in each observer's observation (rows are relative to
        # the observer): by seat, then observer.
        rel = [[(s - o) % n for o in range(n)] for s in range(n)]
        self._bet_at = [[L.betting + r * BET_FEATURES for r in rel[s]] for s in range(n)]
        self._stack_at = [[L.stack + r for r in rel[s]] for s in range(n)]
        self._fold_at = [[L.folded + r for r in rel[s]] for s in range(n)]
        self._card_at = [[L.cards + r * SLOTS * 52 for r in rel[s]] for s in range(n)]
        self._hidden_at = [[L.hidden + r * SLOTS for r in rel[s]] for s in range(n)]
        self._pot_at, self._to_act_at = L.pot, L.to_act
        # Each observer's observation at a new hand before its cards: its seat, every stack
        # after the ante, the pot of antes, 3rd street.
        self._template: list[ObsArray] = []
        for o in range(n):
            t = np.zeros(L.size, np.float32)
            t[L.seat + o] = 1.0
            t[L.stack : L.stack + n] = (config.stack - self.ante) / self.total
            t[L.pot] = n * self.ante / self.total
            t[L.street] = 1.0
            self._template.append(t)
        self.observations: list[ObsArray] = [t.copy() for t in self._template]
        """Each seat's observation now (the arrays are kept and overwritten: copy to keep)."""
        self.new_hand()

    # ------------------------------------------------------------------ the runner interface

    def seed(self, seed: int | None) -> None:
        """Draw every later deck from ``seed``."""
        self._rng = np.random.default_rng(seed)
        self._seeds: list[int] = []

    def _deck(self) -> list[int]:
        # Deck.seeded's order (random.Random(seed).shuffle of the 52 cards in card order) from
        # the same draws as HandRunner's, as plain integers, so that both deal the same hands.
        # The decks' seeds are drawn 256 at a time (the same numbers as one at a time).
        seeds = self._seeds
        if not seeds:
            seeds.extend(reversed(self._rng.integers(0, 2**63 - 1, size=256).tolist()))
        shuffler = self._shuffler
        shuffler.seed(seeds.pop())
        deck = list(range(52))
        _shuffle(deck, shuffler)
        return deck

    def new_hand(self) -> None:
        """Deal the next hand: antes, 3rd street, the bring-in to act."""
        n = self.n
        self.deck = self._deck()
        self.actions: list[int] = []
        self.is_over = False
        self.folded = [False] * n
        self.contributed = [self.ante] * n
        self.bets = [0] * n
        self.pot = n * self.ante
        self.live = n
        self.street = 3
        self.community = -1
        self.current = self.level = self.bets_made = 0
        self.completed = self.double_bet = self.big_bet_made = False
        self.bring_in_due = True
        self.last_aggressor = -1
        self.payouts: list[int] | None = None
        self.shown: list[int] = []
        self.street_first = -1
        """The seat that acted first on this street (4th street on: the best board)."""
        observations = self.observations
        for ob, t in zip(observations, self._template, strict=True):
            ob[:] = t
        # The betting log by street, seat and feature (BettingLog's table, flat): the counts as
        # integers, the chips as float32 sums made as BettingLog makes them (a float32 plus the
        # chips over the big bet), so that every observer is given the same float32 value.
        self._log: list[Any] = [0, 0, 0, 0, _ZERO] * (STREETS * n)
        # 3rd street: two down cards, then the door card, dealt round by round.
        deck = self.deck
        self.cards = [[deck[s], deck[n + s], deck[2 * n + s]] for s in range(n)]
        self.position = 3 * n
        for s in range(n):
            row, seen_at, hidden_at = self.cards[s], self._card_at[s], self._hidden_at[s]
            for o in range(n):
                ob = observations[o]
                if o == s:
                    base = seen_at[o]
                    ob[base + row[0]] = 1.0
                    ob[base + 52 + row[1]] = 1.0
                else:
                    ob[hidden_at[o]] = 1.0
                    ob[hidden_at[o] + 1] = 1.0
                ob[seen_at[o] + 104 + row[2]] = 1.0
        # The bring-in: the lowest door card, aces high, then the lowest suit (a card's int);
        # in razz the highest, aces low, then the highest suit.
        doors = [row[2] for row in self.cards]
        if self.razz:
            keys = [(((c >> 2) + 1) % 13) * 4 + (c & 3) for c in doors]
            first = keys.index(max(keys))
        else:
            first = doors.index(min(doors))
        self.bring_in_seat = first
        for o in range(n):
            observations[o][self.layout.bring_in + (first - o) % n] = 1.0
        self.pending = [s == first for s in range(n)]
        self._act_next(first)

    def _act_next(self, seat: int) -> None:
        """``seat`` is to act now: its to-act entry and its mask."""
        self.to_act = seat
        self.observations[seat][self._to_act_at] = 1.0
        self._key = self._mask_key(seat)

    def _mask_key(self, seat: int) -> int:
        if self.bring_in_due:
            return _DUE | (_MAY_RAISE if self.small > self.bring_in else 0)
        key = _FACING if self.current > self.bets[seat] else 0
        if self.bets_made < self.cap:  # nobody all-in: the betting is open to every seat
            key |= _MAY_RAISE
            if self.street == 3 and not self.completed:
                key |= _OPEN_THIRD
            elif self.current == 0:
                key |= _OPENING
            if self.double_bet and not self.big_bet_made:
                key |= _TWO_SIZES
        return key

    def step(self, index: int | np.integer[Any]) -> None:
        """The seat to act takes the numbered action ``index``; :class:`IllegalAction` naming
        it (and nothing changed) when it is not legal now."""
        seat = self.to_act
        if seat is None:
            raise IllegalAction("the hand is over: nobody is to act")
        if index.__class__ is not int:
            index = self._index(index)
        if not 0 <= index < ACTION_COUNT or not _MASKS[self._key][1][index]:
            self._refuse(index)
        self.actions.append(index)
        n = self.n
        observations = self.observations
        bets = self.bets
        # The street total the action comes to (nobody all-in: every amount is the full one).
        if index == 2:
            amount = self.current
        elif index == 3:
            amount = self.bring_in
        elif index == 4:
            amount = self.small
        elif index == 5 or index == 6:
            big = self.street >= 5 or (self.double_bet and self.big_bet_made)
            amount = self.level + (self.big if big else self.small)
        elif index >= 7:
            amount = self.level + self.big
        else:  # fold, check
            amount = bets[seat]
        chips = amount - bets[seat]
        # The betting log and, with chips, the stack and the pot, in every seat's observation.
        street_at = (self.street - 3) * n * BET_FEATURES
        feature = _COUNTED[index]
        if feature >= 0:
            log = self._log
            at = street_at + seat * BET_FEATURES
            count = log[at + feature] = log[at + feature] + 1
            if chips:
                bets[seat] = amount
                self.contributed[seat] += chips
                self.pot += chips
                in_big_bets = log[at + 4] = log[at + 4] + chips / self.big
                stack = (self.stack - self.contributed[seat]) / self.total
                pot_at, pot = self._pot_at, self.pot / self.total
                for ob, at, stack_at in zip(
                    observations, self._bet_at[seat], self._stack_at[seat], strict=True
                ):
                    at += street_at
                    ob[at + feature] = count
                    ob[at + 4] = in_big_bets
                    ob[stack_at] = stack
                    ob[pot_at] = pot
            else:
                for ob, at in zip(observations, self._bet_at[seat], strict=True):
                    ob[at + street_at + feature] = count
        observations[seat][self._to_act_at] = 0.0
        pending = self.pending
        if index == 0:
            self.folded[seat] = True
            self.live -= 1
            for ob, at in zip(observations, self._fold_at[seat], strict=True):
                ob[at] = 1.0
            if self.live == 1:
                self._win_by_folds()
                return
        elif index == 3 or _AGGRESSIVE[index]:
            # A bring-in or a bet, raise or completion: everybody else still in must act again.
            folded = self.folded
            for s in range(n):
                pending[s] = not folded[s]
            self.current = amount
            counts = _AGGRESSIVE[index] or self.bring_in >= self.small  # a full bet
            if counts:
                if self.double_bet and amount - self.level >= self.big:
                    self.big_bet_made = True
                self.level = amount
                self.bets_made += 1
                if self.street == 3:
                    self.completed = True
            if index != 3:
                self.last_aggressor = seat
            self.bring_in_due = False
        pending[seat] = False
        for step in range(1, n):
            nxt = seat + step
            if nxt >= n:
                nxt -= n
            if pending[nxt]:
                self._act_next(nxt)
                return
        if self.street == 7:
            self._showdown()
        else:
            self._next_street()

    def _index(self, index: object) -> int:
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise IllegalAction(f"an action is an index 0..{ACTION_COUNT - 1}, not {index!r}")
        return int(index)

    def _refuse(self, index: int) -> None:
        if not 0 <= index < ACTION_COUNT:
            raise IllegalAction(f"action index {index!r} is not one of 0..{ACTION_COUNT - 1}")
        number = ActionIndex(index)
        legal = ", ".join(f"{i} {ActionIndex(i).name}" for i in _legal_indices(self._key))
        raise IllegalAction(
            f"action index {index} ({number.name}) is not legal for seat {self.to_act} now (legal: {legal})"
        )

    def observe(self, seat: int, out: ObsArray | None = None) -> ObsArray:
        """Seat ``seat``'s observation now (a copy, or written into ``out``)."""
        if out is None:
            return self.observations[seat].copy()
        out[:] = self.observations[seat]
        return out

    def mask(self, seat: int) -> Mask:
        """The legal numbered actions for ``seat`` (all zero unless it is to act), a new array."""
        if seat != self.to_act:
            return np.zeros(ACTION_COUNT, np.int8)
        return _MASKS[self._key][0].copy()

    def shared_mask(self) -> Mask:
        """The mask of the seat to act, a read-only array shared by every step that has it
        (all zero when the hand is over)."""
        return NO_ACTIONS if self.to_act is None else _MASKS[self._key][0]

    def rewards(self) -> list[float]:
        """Each seat's result so far in big bets (0 for all until the hand is over)."""
        if self.payouts is None:
            return [0.0] * self.n
        big = self.big
        return [(p - c) / big for p, c in zip(self.payouts, self.contributed, strict=True)]

    @property
    def hand(self) -> Hand:
        """The hand so far as the engine's :class:`~sevenstud.hand.Hand`, replayed from the deck
        and the actions (for rendering and tests: it costs a whole hand)."""
        config = self.config
        hand = Hand(config.game, [config.stack] * config.players, Deck(self.deck))
        for index in self.actions:
            hand.act(numbered(hand.legal_actions())[ActionIndex(index)])
        return hand

    # ------------------------------------------------------------------ streets and the end

    def _next_street(self) -> None:
        """The betting round is over before 7th street's end: deal the next street to the live
        seats and open its betting to the best board."""
        n, L = self.n, self.layout
        street = self.street = self.street + 1
        observations = self.observations
        old_street, new_street = L.street + street - 4, L.street + street - 3
        for ob in observations:
            ob[old_street] = 0.0
            ob[new_street] = 1.0
        folded, cards, deck = self.folded, self.cards, self.deck
        if street == 7 and 52 - self.position < self.live:  # eight players: one card for all
            card = self.community = deck[self.position]
            self.position += 1
            for ob in observations:
                ob[L.community + card] = 1.0
        else:
            slot = street - 1
            face_up = street != 7
            position = self.position
            for s in range(n):
                if folded[s]:
                    continue
                card = deck[position]
                position += 1
                cards[s].append(card)
                seen_at, hidden_at = self._card_at[s], self._hidden_at[s]
                for o in range(n):
                    if face_up or o == s:
                        observations[o][seen_at[o] + slot * 52 + card] = 1.0
                    else:
                        observations[o][hidden_at[o] + slot] = 1.0
            self.position = position
        self.bets = [0] * n
        self.current = self.level = self.bets_made = 0
        self.big_bet_made = False
        self.last_aggressor = -1
        self.pending = [not f for f in folded]
        # Stud's open pair on 4th street: the big bet is allowed.
        self.double_bet = (
            self.double
            and street == 4
            and any(not folded[s] and cards[s][2] >> 2 == cards[s][3] >> 2 for s in range(n))
        )
        # The best board acts first (the first of equal boards: the lowest seat).
        first = self._best_board([s for s in range(n) if not folded[s]])
        self.street_first = first
        self._act_next(first)

    def _best_board(self, seats: list[int]) -> int:
        """The seat of ``seats`` showing the best board (of equal boards, the lowest seat)."""
        board_key, cards = self.game.board_key, self.cards
        first, best = -1, None
        for s in seats:
            key = board_key(cards[s][2:6])
            if best is None or key > best:
                first, best = s, key
        return first

    def _win_by_folds(self) -> None:
        winner = self.folded.index(False)
        payouts = [0] * self.n
        payouts[winner] = self.pot
        self._end(payouts)

    def _showdown(self) -> None:
        n, game = self.n, self.game
        live = [s for s in range(n) if not self.folded[s]]
        cards = self.cards
        community = self.community
        ranks: dict[int, tuple[int, int]] = {}
        for s in live:
            seven = cards[s] if community < 0 else [*cards[s], community]
            ranks[s] = game.showdown_ranks(seven)
        # Who shows: in turn from the last aggressor of 7th street, else the player who acted
        # first on it (TDA 17-A), else the best board left; a hand that can win nothing against
        # those shown is mucked; once one hand is left unmucked it takes the pot unshown.
        if self.last_aggressor in live:
            start = live.index(self.last_aggressor)
        elif self.street_first in live:
            start = live.index(self.street_first)
        else:
            start = live.index(self._best_board(live))
        has_high, has_low = game.has_high, game.has_low
        unmucked = len(live)
        shown = self.shown
        for s in live[start:] + live[:start]:
            if unmucked < 2:
                continue
            high, low = ranks[s]
            if (
                not shown
                or (has_high and high >= max(ranks[t][0] for t in shown))
                or (has_low and low > 0 and low >= max(ranks[t][1] for t in shown))
            ):
                shown.append(s)
            else:
                unmucked -= 1
        # The pot among all the live hands: the best high (half in hi/lo, the odd chip to the
        # high), the best qualifying low the other half; ties share, the odd chips one each to
        # the tied hands holding the highest card by suit.
        pot = self.pot
        payouts = [0] * n
        if self.razz:
            self._share(pot, {s: ranks[s][1] for s in live}, payouts)
        elif not self.split:
            self._share(pot, {s: ranks[s][0] for s in live}, payouts)
        else:
            lows = {s: ranks[s][1] for s in live}
            low_half = pot // 2 if max(lows.values()) > 0 else 0
            self._share(pot - low_half, {s: ranks[s][0] for s in live}, payouts)
            if low_half:
                self._share(low_half, lows, payouts)
        self._reveal()
        self._end(payouts)

    def _share(self, amount: int, ranks: dict[int, int], payouts: list[int]) -> None:
        best = max(ranks.values())
        winners = [s for s, rank in ranks.items() if rank == best]
        share, odd = divmod(amount, len(winners))
        if odd:  # the highest own card by suit first (in razz the ace is low, the king high)
            cards = self.cards
            if self.razz:
                winners.sort(
                    key=lambda s: max((((c >> 2) + 1) % 13) * 4 + (c & 3) for c in cards[s]), reverse=True
                )
            else:
                winners.sort(key=lambda s: max(cards[s]), reverse=True)
        for i, s in enumerate(winners):
            payouts[s] += share + (i < odd)

    def _reveal(self) -> None:
        """The shown hands' down cards, in every other seat's observation."""
        n = self.n
        for s in self.shown:
            row, seen_at, hidden_at = self.cards[s], self._card_at[s], self._hidden_at[s]
            for o in range(n):
                if o == s:
                    continue
                ob = self.observations[o]
                for k in (0, 1, 6):
                    if k < len(row):
                        ob[hidden_at[o] + k] = 0.0
                        ob[seen_at[o] + k * 52 + row[k]] = 1.0

    def _end(self, payouts: list[int]) -> None:
        """The hand is over: every seat's final stack, the pot empty, nobody to act."""
        n, L = self.n, self.layout
        self.payouts = payouts
        self.is_over = True
        self.to_act = None
        total = self.total
        stacks = [(self.stack - c + p) / total for c, p in zip(self.contributed, payouts, strict=True)]
        for o, ob in enumerate(self.observations):
            ob[L.over] = 1.0
            ob[L.to_act] = 0.0
            ob[L.pot] = 0.0
            for s in range(n):
                ob[self._stack_at[s][o]] = stacks[s]


def runner_for(
    config: TableConfig, lean: bool | None = None, seed: int | None = None
) -> LeanStud | HandRunner:
    """The lean engine where it can play ``config`` (unless ``lean`` is False), else the
    engine's ``Hand``: the same hands from the same seed. ``lean=True`` refuses, naming the
    reason, a table the lean engine cannot play."""
    refusal = batch_refusal(config)
    if lean and refusal is not None:
        raise ValueError(f"no lean engine for this table: {refusal}")
    if refusal is None and lean is not False:
        return LeanStud(config, seed)
    return HandRunner(config, seed)
