"""Many hands of one table config played at once as numpy arrays (issue 17, point 5).

:class:`BatchedStud` holds ``N`` games of one :class:`~sevenstud.rl.core.TableConfig` in arrays
(each game's deck, cards, chips, betting round and betting log) and advances all of them with
array operations: one action per game per :meth:`BatchedStud.step`, no Python loop over the
games. It deals from per-game shuffled decks, posts the antes, picks the bring-in, lists the
legal actions over the eleven numbered ones (:class:`~sevenstud.actions.ActionIndex`), applies
the actions, ends the streets, deals the next ones (the community card when eight players run
out of deck), picks who acts first, shows down (hi/lo through the batch evaluator,
:mod:`sevenstud.fast.evaluate`), pays the pot (split pots and odd chips as the engine does),
gives the rewards and writes each seat-to-act's observation exactly as
:func:`sevenstud.rl.encoding.encode` builds it.

It is the engine's :class:`~sevenstud.hand.Hand` again, for the one case where that is simple:
no seat can ever be all-in (:func:`batch_refusal`: every stack above the most a seat can put in
over all streets at the cap, ante included; 200 chips at 1/2/5/10 is), so there is one pot, every
full bet reopens the betting and no hand is turned face up early, and the game's options are
their defaults (the cap, ``max_raises``, and stud's ``double_bet_on_open_pair`` may be set).
Anything else is refused, and :class:`~sevenstud.rl.vector.VectorStudEnv` steps one ``Hand`` at
a time instead. tests/rl/test_batched.py plays thousands of hands of every game and seat count
through both, from the same decks and actions, and requires the same masks, observations, seats
to act and rewards at every step.

The showdown is settled from every live hand's ranks at once: the engine shows the hands in turn
and mucks one that can win nothing against those shown, and a mucked hand is beaten in every
half it could win, so the pot goes as it would among all the live hands: the best high (half
of it in hi/lo, the odd chip to the high), the best qualifying low the other half (none: the high
takes it all), ties shared with the odd chips to the tied hands holding the highest card by suit
(:meth:`~sevenstud.games.Game.odd_chip_order`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from sevenstud import evaluate
from sevenstud.actions import ACTION_COUNT, ActionIndex, IllegalAction
from sevenstud.fast.evaluate import LOW, LOW8, high_from_packed, index_of, packed_sum
from sevenstud.games import SUIT_ORDER_STANDARD, Game, Razz, Stud, StudHiLo
from sevenstud.rl.core import TableConfig
from sevenstud.rl.encoding import BET_FEATURES, SLOTS, STREETS, Layout

I64 = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

_NONE = 13  # a board slot with no card, after the 13 ranks (sorted last)
_UP_SLOTS = np.array([False, False, True, True, True, True, False])  # door card, 4th to 6th
_BANK = 4096  # decks shuffled at a time
_PARTIAL = 24  # the most cards shuffled one whole-array step at a time (permuted beyond)
_TOTAL_COLUMN = np.array([0, 0, 1, 2, 3, 4, 4, 5, 5, 0, 0])  # BatchedStud.step's totals, by index
_AGGRESSIVE = np.array([False, False, False, False, True, True, True, True, True, False, False])
_LOG_COUNTS = np.zeros((ACTION_COUNT, 4), np.float32)  # the log's counts each action adds
_LOG_COUNTS[ActionIndex.BRING_IN, 0] = 1.0
_LOG_COUNTS[_AGGRESSIVE, 1] = 1.0
_LOG_COUNTS[ActionIndex.CALL, 2] = 1.0
_LOG_COUNTS[ActionIndex.CHECK, 3] = 1.0


def most_put_in(game: Game) -> int:
    """The most chips one seat can put in over a whole hand: the ante, then every street's
    betting at the cap (3rd and 4th street by the small bet, 4th by the big bet where stud's
    open pair allows it, 5th to 7th by the big bet)."""
    stakes, cap = game.stakes, game.cap
    fourth = stakes.big_bet if game.double_bet_on_open_pair else stakes.small_bet
    return stakes.ante + cap * stakes.small_bet + cap * fourth + 3 * cap * stakes.big_bet


def batch_refusal(config: TableConfig) -> str | None:
    """Why :class:`BatchedStud` cannot play ``config`` (None: it can): it plays the three games
    with their default options (the cap and stud's 4th-street double bet apart), and only where
    no seat can ever be all-in."""
    game = config.game
    if type(game) not in (StudHiLo, Stud, Razz):
        return f"{type(game).__name__} is not one of the three games"
    defaults = {
        "uncapped_heads_up": False,
        "bring_in_tie_break": "suits",
        "suit_order": SUIT_ORDER_STANDARD,
        "first_actor_tie_break": "seat",
        "odd_chip": "high_card",
        "fold_without_bet": True,
    }
    for name, value in defaults.items():
        if getattr(game, name) != value:
            return f"the option {name}={getattr(game, name)!r} (only {value!r} is batched)"
    if game.rake_percent:
        return "a rake (only rake-free games are batched)"
    most = most_put_in(game)
    if config.stack <= most:
        return f"a seat could be all-in (stack {config.stack}, up to {most} chips put in a hand)"
    return None


def _board_table(low: bool) -> I64:
    """Each board's place among the boards of as many cards (greater acts first), by its ranks
    sorted, four base-14 digits (13: no card): the engine's board keys
    (:func:`sevenstud.evaluate.board_high_key`, :func:`~sevenstud.evaluate.board_low_key`)
    as one integer."""
    key_of = evaluate.board_low_key if low else evaluate.board_high_key
    table = np.full(14**4, -1, np.int64)
    for size in range(1, 5):
        boards = list(itertools.combinations_with_replacement(range(13), size))
        keys = [key_of([rank * 4 + i for i, rank in enumerate(b)]) for b in boards]
        place = {key: i for i, key in enumerate(sorted(set(keys)))}
        for board, key in zip(boards, keys, strict=True):
            digits = (*board, *(_NONE,) * (4 - size))
            table[((digits[0] * 14 + digits[1]) * 14 + digits[2]) * 14 + digits[3]] = place[key]
    return table


_BOARDS: dict[bool, I64] = {}


def _boards(low: bool) -> I64:
    table = _BOARDS.get(low)
    if table is None:
        table = _BOARDS[low] = _board_table(low)
    return table


class BatchedStud:
    """``num`` games of ``config`` (see the module's documentation); :func:`batch_refusal`
    must be None for it. After :meth:`reset` and each :meth:`step`, for every game:
    :attr:`to_act` (the seat to act), :attr:`masks` (its legal actions, ``int8``),
    :attr:`observations` (its observation), and for the step, :attr:`rewards` (in big bets,
    non-zero only where a hand just ended) and :attr:`dones`; a game whose hand ended is already
    in its next hand, dealt from :attr:`decks` (each game's deck for its hand now)."""

    def __init__(self, config: TableConfig, num: int, seed: int | None = None) -> None:
        refusal = batch_refusal(config)
        if refusal is not None:
            raise ValueError(f"no batched engine for this table: {refusal}")
        game = config.game
        self.config = config
        self.num = num
        n = self.n = config.players
        self.layout = layout = Layout(n)
        stakes = game.stakes
        self.ante, self.bring_in, self.small, self.big = (
            stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet,
        )
        self.cap = game.cap
        self.razz = isinstance(game, Razz)
        self.split = game.split
        self.double = game.double_bet_on_open_pair and stakes.big_bet > stakes.small_bet
        self.stack = config.stack
        self.total = n * config.stack
        self.board_places = _boards(self.razz)
        self.rng = np.random.default_rng(seed)
        self._g = np.arange(num)
        self._seats = np.arange(n)
        self._base = self._g * layout.size  # each game's row in the flat observations
        self._gn = self._g * n  # each game's first seat in a flattened (N, n) array
        self._ordered = np.arange(52)
        self._dealt_at_most = 7 * n if n < 8 else 52  # eight players may deal out the deck
        self._bank = np.zeros((0, 52), np.int64)
        self._bank_at = 0
        # The state of every game.
        self.decks = np.zeros((num, 52), np.int64)
        # Each game's numbers as columns of one array (a new hand's are set in one
        # assignment), the betting round's among them (sevenstud.betting.BettingRound, without
        # the all-in cases), and its flags likewise.
        self._numbers = np.zeros((num, 8), np.int64)
        (
            self.street, self.position, self.pot, self.live, self.community,
            self.current, self.level, self.bets_made,
        ) = self._numbers.T  # live: how many seats have not folded; community: -1 for none
        self._new_numbers = np.array([3, 3 * n, n * self.ante, n, -1, 0, 0, 0])
        self._flags = np.zeros((num, 4), bool)
        self.completed, self.bring_in_due, self.double_bet, self.big_bet_made = self._flags.T
        self._new_flags = np.array([False, True, False, False])
        self.cards = np.full((num, n, SLOTS), -1, np.int64)
        self.dealt = np.zeros((num, n), np.int64)  # cards dealt to each seat
        self.folded = np.zeros((num, n), bool)
        self.contributed = np.zeros((num, n), np.int64)  # the ante included
        self.bets = np.zeros((num, n), np.int64)  # this street's
        self.to_act = np.zeros(num, np.int64)
        self.bring_in_seat = np.zeros(num, np.int64)
        self.pending = np.zeros((num, n), bool)  # may_raise is the same set without all-ins
        # Each seat relative to each observer, and back: relative[o, s] = (s - o) % n,
        # absolute[o, r] = (o + r) % n.
        self._relative = (self._seats - self._seats[:, None]) % n
        self._absolute = (self._seats + self._seats[:, None]) % n
        # The betting log (sevenstud.rl.encoding.BettingLog) as each observer's observation
        # holds it: by game, observer, street, relative seat and feature.
        self.log = np.zeros((num, n, STREETS, n, BET_FEATURES), np.float32)
        # Where each card dealt lies in each observer's observation: by game, observer, seat
        # and slot, the offset of its entry in the cards block (a card the observer sees) or the
        # hidden block (one it does not); a slot not dealt points at the to-act entry, which
        # is 1 in every observation anyway.
        self._card_at = np.full((num, n, n, SLOTS), layout.to_act, np.int64)
        # What the caller reads.
        self.observations = np.zeros((num, layout.size), np.float32)
        self.masks = np.zeros((num, ACTION_COUNT), np.int8)
        self.rewards = np.zeros((num, n), np.float32)
        self.dones = np.zeros(num, bool)
        self._ones = np.zeros((num, n * SLOTS + 4), np.int64)
        self._ones[:, n * SLOTS + 3] = layout.to_act
        self._totals = np.zeros((num, 6), np.int64)
        self._g6 = self._g * 6
        self._g11 = self._g * ACTION_COUNT
        self._totals[:, 2] = self.bring_in
        self._totals[:, 3] = self.small

    # ------------------------------------------------------------------ the surface

    def seed(self, seed: int | None) -> None:
        """Draw every later deck from ``seed``."""
        self.rng = np.random.default_rng(seed)
        self._bank_at = len(self._bank)

    def reset(self) -> None:
        """A new hand in every game."""
        self.rewards.fill(0.0)
        self.dones.fill(False)
        self._new_hands(self._g)
        self._write()

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> None:
        """One numbered action in every game, by the seat to act there: :class:`IllegalAction`
        naming the first game whose action is not legal (and nothing changed) otherwise."""
        a = self._check(actions)
        g, n = self._g, self.n
        seat = self.to_act.copy()
        at = self._gn + seat  # (game, seat) in the flattened (N, n) arrays
        street = self.street
        bets = self.bets.reshape(-1)
        mine = bets[at]
        small_one = np.where(
            (street >= 5) | (self.double_bet & self.big_bet_made), self.big, self.small
        )
        # Each action's street total, by column: fold and check (what the seat has in), call,
        # bring-in, complete, a bet or raise of one size (or the small one), of the big one.
        totals = self._totals
        totals[:, 0] = mine
        totals[:, 1] = self.current
        totals[:, 4] = self.level + small_one
        totals[:, 5] = self.level + self.big
        amount = totals.reshape(-1)[self._g6 + _TOTAL_COLUMN[a]]
        chips = amount - mine
        bets[at] = amount
        self.contributed.reshape(-1)[at] += chips
        self.pot += chips
        # The betting log: brought in, aggressive actions, calls, checks, chips in big bets.
        log = self.log.reshape(-1, BET_FEATURES)
        street_rows = (self._gn[:, None] + self._seats) * STREETS + (street - 3)[:, None]
        where = street_rows * n + self._relative.T[seat]  # the seat's row, for each observer
        rows = log[where[:, 0]]  # (observer 0: relative is absolute)
        rows[:, :4] += _LOG_COUNTS[a]
        rows[:, 4] += (chips / float(self.big)).astype(np.float32)
        log[where] = rows[:, None]
        folds = a == 0
        self.folded.reshape(-1)[at[folds]] = True
        self.live -= folds
        # The betting round (sevenstud.betting.BettingRound.bring_in and aggress, where nobody
        # is ever all-in): a bring-in or a bet, raise or completion sets the bet to call and
        # reopens the betting; a full one counts toward the cap and is the next raise's level.
        brought = a == 3
        aggressive = _AGGRESSIVE[a]
        reopened = brought | aggressive
        counts = aggressive | brought if self.bring_in >= self.small else aggressive
        if self.double:  # the big bet made on an open pair's 4th street (no completion there)
            self.big_bet_made |= self.double_bet & aggressive & (amount - self.level >= self.big)
        np.copyto(self.current, amount, where=reopened)
        np.copyto(self.level, amount, where=counts)
        self.bets_made += counts
        self.completed |= counts & (street == 3)
        self.bring_in_due &= ~reopened
        live = ~self.folded
        np.copyto(self.pending, live, where=reopened[:, None])
        pending = self.pending.reshape(-1)
        pending[at] = False
        # Who acts next: the next pending seat clockwise.
        order = (seat[:, None] + 1 + self._seats) % n
        waiting = pending[self._gn[:, None] + order]
        more = waiting.any(axis=1)
        self.to_act[:] = np.where(more, order[g, waiting.argmax(axis=1)], seat)
        won = folds & (self.live == 1)
        over = ~more & ~won
        self.rewards.fill(0.0)
        self.dones[:] = won
        if won.any():  # the last seat in takes the pot
            w = np.flatnonzero(won)
            self._pay(w, live[w] * self.pot[w, None])
        if over.any():
            ended = np.flatnonzero(over)
            showdown = ended[self.street[ended] == 7]
            if showdown.size:
                self._pay(showdown, self._showdown(showdown))
                self.dones[showdown] = True
            going = ended[self.street[ended] < 7]
            if going.size:
                self._next_street(going)
        if self.dones.any():
            self._new_hands(np.flatnonzero(self.dones))
        self._write()

    def _pay(self, d: I64, payouts: I64) -> None:
        """Games ``d`` are over, each seat paid ``payouts``: the rewards, in big bets."""
        self.rewards[d] = (payouts - self.contributed[d]) / self.big

    # ------------------------------------------------------------------ the checks

    def _check(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> I64:
        if len(actions) != self.num:
            raise ValueError(f"need {self.num} actions, one a game, not {len(actions)}")
        raw = np.asarray(actions)
        if raw.dtype.kind not in "iu" or raw.shape != (self.num,):
            raw = np.array([int(index) for index in actions])  # as int() takes each, one by one
        a = raw.astype(np.int64, copy=False)
        if a.min() < 0 or a.max() >= ACTION_COUNT:
            i = int(((a < 0) | (a >= ACTION_COUNT)).argmax())
            raise IllegalAction(
                f"game {i}: action index {int(a[i])!r} is not one of 0..{ACTION_COUNT - 1}"
            )
        legal = self.masks.reshape(-1)[self._g11 + a]
        if not legal.all():
            i = int((~legal).argmax())
            number = ActionIndex(int(a[i]))
            names = ", ".join(
                f"{j} {ActionIndex(int(j)).name}" for j in np.flatnonzero(self.masks[i])
            )
            raise IllegalAction(
                f"game {i}: action index {number.value} ({number.name}) is not legal for"
                f" seat {int(self.to_act[i])} now (legal: {names})"
            )
        return a

    # ------------------------------------------------------------------ dealing and streets

    def _new_hands(self, d: I64) -> None:
        """Shuffle, post the antes, deal 3rd street and open it with the bring-in, in games ``d``."""
        n = self.n
        k = d.size
        decks = self._shuffle(k)
        self.decks[d] = decks
        cards = np.full((k, n, SLOTS), -1, np.int64)
        cards[:, :, :3] = decks[:, : 3 * n].reshape(k, 3, n).transpose(0, 2, 1)
        self.cards[d] = cards
        self._card_at[d] = self.layout.to_act
        self._card_at[d, :, :, :3] = self._offsets(cards[:, :, :3], np.arange(3)[None])
        self.dealt[d] = 3
        self._numbers[d] = self._new_numbers
        self._flags[d] = self._new_flags
        self.folded[d] = False
        self.contributed[d] = self.ante
        self.bets[d] = 0
        self.log[d] = 0.0
        doors = cards[:, :, 2]
        if self.razz:  # the highest door card, aces low, then the highest suit
            first = ((((doors >> 2) + 1) % 13) * 4 + (doors & 3)).argmax(axis=1)
        else:  # the lowest door card, aces high, then the lowest suit (a card's int)
            first = doors.argmin(axis=1)
        self.bring_in_seat[d] = first
        self.to_act[d] = first
        self.pending[d] = self._seats == first[:, None]

    def _offsets(self, cards: I64, slots: I64) -> I64:
        """Where ``cards`` (by game, seat and slot; ``slots``: by game or for all, each slot's
        number) lie in each observer's observation, by game, observer, seat and slot."""
        L = self.layout
        relative = self._relative[None, :, :, None]
        own = (self._seats[:, None] == self._seats)[None, :, :, None]
        slot = slots[:, None, None, :]
        place = relative * SLOTS + slot
        found: I64 = np.where(
            own | _UP_SLOTS[slot], L.cards + place * 52 + cards[:, None], L.hidden + place
        )
        return found

    def _shuffle(self, k: int) -> I64:
        """``k`` decks, each shuffled: the cards a hand can deal (``7 x players``, or all 52
        with eight) in a uniformly random order. Drawn from a bank of decks shuffled many at a
        time (a whole-array step per card shuffled costs as much for thousands of decks as for
        a few)."""
        if self._bank_at + k > len(self._bank):
            size = max(_BANK, k)
            if self._dealt_at_most > _PARTIAL:
                self._bank = self.rng.permuted(np.broadcast_to(self._ordered, (size, 52)), axis=1)
            else:
                self._bank = self._partial_shuffle(size, self._dealt_at_most)
            self._bank_at = 0
        decks: I64 = self._bank[self._bank_at : self._bank_at + k]
        self._bank_at += k
        return decks

    def _partial_shuffle(self, size: int, cards: int) -> I64:
        """``size`` decks whose first ``cards`` cards are a uniformly random sequence of
        distinct cards (Fisher-Yates, stopped there; a loop over the cards, not the decks)."""
        decks = np.tile(self._ordered, (size, 1))
        flat = decks.reshape(-1)
        rows = np.arange(size) * 52
        for i in range(cards):
            j = rows + self.rng.integers(i, 52, size=size)
            card = decks[:, i].copy()
            decks[:, i] = flat[j]
            flat[j] = card
        return decks

    def _next_street(self, r: I64) -> None:
        """The betting round over in games ``r`` (before 7th street's end): deal the next
        street to the live seats and open its betting to the best board."""
        street = self.street[r] + 1
        self.street[r] = street
        live = ~self.folded[r]
        count = self.live[r]
        position = self.position[r]
        community = (street == 7) & (52 - position < count)
        if community.any():  # eight players: one card for all
            c = r[community]
            self.community[c] = self.decks[c, position[community]]
            self.position[c] += 1
        deal = ~community
        if deal.any():
            rd, live_d = r[deal], live[deal]
            at = np.minimum(position[deal, None] + np.cumsum(live_d, axis=1) - 1, 51)
            new = self.decks.reshape(-1)[rd[:, None] * 52 + at]
            slot = street[deal] - 1
            rows = self.cards[rd, :, slot]  # (k, n): each game's slot for this street
            self.cards[rd, :, slot] = np.where(live_d, new, rows)
            offsets = self._offsets(new[:, :, None], slot[:, None])[:, :, :, 0]
            known = self._card_at[rd, :, :, slot]
            self._card_at[rd, :, :, slot] = np.where(live_d[:, None, :], offsets, known)
            self.dealt[rd] += live_d
            self.position[rd] += count[deal]
        self.bets[r] = 0
        self._numbers[r, 5:] = 0  # current, level, bets made
        self.big_bet_made[r] = False
        self.pending[r] = live
        cards = self.cards[r]
        up = cards[:, :, 2:6]
        ranks = np.where(up >= 0, up >> 2, _NONE)
        if self.double:
            pair = live & (ranks[:, :, 0] == ranks[:, :, 1])
            self.double_bet[r] = (street == 4) & pair.any(axis=1)
        else:
            self.double_bet[r] = False
        ranks.sort(axis=2)
        code = ((ranks[:, :, 0] * 14 + ranks[:, :, 1]) * 14 + ranks[:, :, 2]) * 14 + ranks[:, :, 3]
        places = np.where(live, self.board_places[code], -1)
        self.to_act[r] = places.argmax(axis=1)  # the first of equal boards: the lowest seat

    # ------------------------------------------------------------------ the showdown

    def _showdown(self, s: I64) -> I64:
        """What each seat of games ``s`` wins at the showdown (one pot: nobody is all-in)."""
        n = self.n
        cards = self.cards[s]
        live = ~self.folded[s]
        seven = cards.copy()
        community = self.community[s]
        seven[:, :, 6] = np.where(community[:, None] >= 0, community[:, None], cards[:, :, 6])
        hands = seven[live]  # (live hands, 7)
        packed = packed_sum(hands)
        index = index_of(packed)
        pot = self.contributed[s].sum(axis=1)
        # The odd chip's order: each seat's highest own card by suit (in razz the ace is low).
        razz_order = np.where(cards >= 0, (((cards >> 2) + 1) % 13) * 4 + (cards & 3), -1)
        highest = (razz_order if self.razz else cards).max(axis=2)
        shape = (s.size, n)
        if self.razz:
            lows = np.full(shape, -1, np.int64)
            lows[live] = LOW.take(index)
            return self._split(pot, lows, highest)
        highs = np.full(shape, -1, np.int64)
        highs[live] = high_from_packed(packed, index, hands)
        if not self.split:
            return self._split(pot, highs, highest)
        lows = np.zeros(shape, np.int64)
        lows[live] = LOW8.take(index)
        qualified = lows.max(axis=1) > 0
        low_half = np.where(qualified, pot // 2, 0)
        return self._split(pot - low_half, highs, highest) + self._split(low_half, lows, highest)

    def _split(self, amount: I64, ranks: I64, highest: I64) -> I64:
        """``amount`` (by game) shared equally by the seats of the best rank, the odd chips one
        each to those holding the highest card (:func:`sevenstud.pots.split_evenly`)."""
        winners = ranks == ranks.max(axis=1, keepdims=True)
        count = winners.sum(axis=1)
        share, odd = amount // count, amount % count
        ahead = (winners[:, None, :] & (highest[:, None, :] > highest[:, :, None])).sum(axis=2)
        paid: I64 = winners * (share[:, None] + (ahead < odd[:, None]))
        return paid

    # ------------------------------------------------------------------ what the caller reads

    def _write(self) -> None:
        """The masks and observations of every game's seat to act."""
        seat = self.to_act
        due = self.bring_in_due
        street3_open = (self.street == 3) & ~self.completed
        to_call = self.current - self.bets.reshape(-1)[self._gn + seat]
        masks = self.masks
        masks.fill(0)
        betting = ~due
        masks[:, 0] = betting
        masks[:, 1] = betting & (to_call <= 0)
        masks[:, 2] = betting & (to_call > 0)
        masks[:, 3] = due
        may_raise = betting & (self.bets_made < self.cap)
        masks[:, 4] = (due & (self.small > self.bring_in)) | (may_raise & street3_open)
        rest = may_raise & ~street3_open
        opening = self.current == 0
        masks[:, 5] = rest & opening
        masks[:, 6] = rest & ~opening
        if self.double:
            two = rest & self.double_bet & ~self.big_bet_made
            masks[:, 7] = two & opening
            masks[:, 8] = two & ~opening
        self._observe(seat)

    def _observe(self, me: I64) -> None:
        """Each game's observation for seat ``me`` (:func:`sevenstud.rl.encoding.encode`)."""
        L, n = self.layout, self.n
        out = self.observations
        out.fill(0.0)
        flat = out.reshape(-1)
        base = self._base
        at = self._gn + me  # (game, observer) in the flattened (N, n) axes
        # The entries that are 1: the cards (seen or hidden), the seat, the bring-in, the
        # street and to-act, in one scatter.
        ones = self._ones
        cards = n * SLOTS
        ones[:, :cards] = self._card_at.reshape(self.num * n, -1)[at]
        ones[:, cards] = L.seat + me
        ones[:, cards + 1] = L.bring_in + self._relative.reshape(-1)[me * n + self.bring_in_seat]
        ones[:, cards + 2] = L.street - 3 + self.street
        ones[:, cards + 3] = L.to_act
        ones += base[:, None]
        flat[ones] = 1.0
        has_community = self.community >= 0
        if has_community.any():
            flat[base[has_community] + L.community + self.community[has_community]] = 1.0
        # The betting log, folds and stacks, rows rotated so that the observer's seat comes first.
        out[:, L.betting : L.folded] = self.log.reshape(self.num * n, -1)[at]
        rows = self._gn[:, None] + self._absolute[me]  # (N, n): the absolute seat of each row
        out[:, L.folded : L.folded + n] = self.folded.reshape(-1)[rows]
        stacks = self.stack - self.contributed.reshape(-1)[rows]
        out[:, L.stack : L.stack + n] = stacks.astype(np.float32) / np.float32(self.total)
        out[:, L.pot] = self.pot / self.total
