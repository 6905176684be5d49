"""Replaying a PokerStars hand through our engine: the deck rebuilt from the cards the file
shows, every line checked against :class:`~sevenstud.hand.Hand`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from sevenstud.cards import CARDS, Card, format_cards
from sevenstud.dealing import dealing_order
from sevenstud.deck import Deck
from sevenstud.games import Game, GameError, RakeFrom, Stakes, game_by_name
from sevenstud.hand import (
    Action,
    ActionKind,
    ActionTaken,
    AntePosted,
    BetReturned,
    CardDealt,
    CommunityCardDealt,
    Hand,
    HandError,
    HandMucked,
    HandShown,
    IllegalAction,
    Phase,
)
from sevenstud.history.text.model import (
    STREET_WORDS,
    Ante,
    BetLine,
    Collect,
    Deal,
    Muck,
    NoLow,
    PokerStarsError,
    PokerStarsHand,
    Returned,
    Show,
    ShowdownMark,
    StreetMark,
    show_description,
)


@dataclass
class PlayedHand:
    """A PokerStars hand played through our engine."""

    source: PokerStarsHand
    hand: Hand
    players: list[str]
    """Our seat i is ``players[i]``."""
    seat_numbers: list[int]
    unknown: frozenset[Card]
    """The cards we made up for cards the file never shows."""


_UP_SLOTS = (2, 3, 4, 5)


def _default_bring_in(small_bet: int) -> int:
    return max(1, min(small_bet - 1, small_bet // 4))


@dataclass
class _Slots:
    cards: list[Card | None]
    lines: list[int]


class _Replayer:
    def __init__(self, ps: PokerStarsHand, game: Game | None, bring_in: int | None) -> None:
        self.ps = ps
        self.players = ps.players
        if len(self.players) < 2:
            self.fail(f"only {len(self.players)} player(s) dealt in (stud needs 2 to 8)", ps.line)
        self.seat_of = {name: i for i, name in enumerate(self.players)}
        self.game_override = game
        self.bring_in_hint = bring_in
        self.rake_from: RakeFrom = "each_pot"

    def fail(self, reason: str, line: int) -> NoReturn:
        raise PokerStarsError(
            reason, line=line, file=self.ps.file, hand_id=self.ps.hand_id, game=self.ps.game
        )

    def seat(self, player: str, line: int) -> int:
        seat = self.seat_of.get(player)
        if seat is None:
            self.fail(f"{player} was not dealt in (no ante, no 3rd-street cards) but acts here", line)
        return seat

    # -- the deck

    def known_cards(self) -> tuple[list[_Slots], Card | None, int]:
        ps = self.ps
        slots = [_Slots([None] * 7, [0] * 7) for _ in self.players]
        owner: dict[Card, tuple[int, int]] = {}
        community: Card | None = None
        last_street = 3

        def put(seat: int, index: int, card: Card, line: int) -> None:
            have = slots[seat].cards[index]
            if have is not None and have != card:
                self.fail(
                    f"{self.players[seat]}'s card {index + 1} is {card} here but {have} on line "
                    f"{slots[seat].lines[index]}",
                    line,
                )
            holder = owner.get(card)
            if holder is not None and holder != (seat, index):
                self.fail(
                    f"{card} is dealt twice (also on line {slots[holder[0]].lines[holder[1]]})",
                    line,
                )
            owner[card] = (seat, index)
            slots[seat].cards[index] = card
            if have is None:
                slots[seat].lines[index] = line

        def put_cards(seat: int, placed: Sequence[tuple[int, Card]], line: int, what: str) -> None:
            """Cards listed at their places in the player's hand. The up cards must be where
            they were dealt; the down cards (two on 3rd street, one on 7th) are matched as a set
            to the down cards already known, because a site may list them in its own order
            (Full Tilt's showdowns do): a known card keeps its place, a new one fills a place
            still unknown, and a card that is none of them is refused."""
            listed = [card for _, card in placed]
            twice = next((c for c in listed if listed.count(c) > 1), None)
            if twice is not None:
                self.fail(f"{what} {twice} twice", line)
            downs = [(k, card) for k, card in placed if k not in _UP_SLOTS]
            for k, card in placed:
                if k in _UP_SLOTS:
                    put(seat, k, card, line)
            places = [k for k, _ in downs]
            mine = slots[seat].cards
            held = {mine[k] for k in places if mine[k] is not None}
            free = [k for k in places if mine[k] is None]
            new = [(k, card) for k, card in downs if card not in held]
            if len(new) > len(free):
                known = " ".join(str(mine[k]) for k in places if mine[k] is not None)
                lines = sorted({slots[seat].lines[k] for k in places if mine[k] is not None})
                where = ", ".join(str(n) for n in lines)
                odd = " ".join(str(card) for _, card in new)
                unknown = f", and {len(free)} not yet known" if free else ""
                self.fail(
                    f"{what} {odd} among the down cards, but {self.players[seat]} was dealt "
                    f"[{known}] down (line{'s' if len(lines) > 1 else ''} {where}){unknown}",
                    line,
                )
            # A new card keeps its own place where that is free, else takes the first free one.
            rest = [(k, card) for k, card in new if k not in free]
            for k, card in new:
                if k in free:
                    free.remove(k)
                    put(seat, k, card, line)
            for (_, card), k in zip(rest, free, strict=False):
                put(seat, k, card, line)

        def put_all(seat: int, cards: Sequence[Card], line: int, what: str) -> None:
            """Cards shown in dealing order: all of them, or those dealt so far (the down
            cards among them in any order, see ``put_cards``)."""
            count = 7 if community is None else 6
            if community is not None and len(cards) == 7 and cards[6] == community:
                cards = cards[:6]
            if not 3 <= len(cards) <= count:
                self.fail(f"{what} {len(cards)} cards (expected the {count} cards in dealing order)", line)
            put_cards(seat, list(enumerate(cards)), line, what)

        for e in ps.events:
            if isinstance(e, StreetMark):
                last_street = e.street
                if e.community is not None:
                    community = e.community
                    if community in owner:
                        self.fail(f"the community card {community} is also a player's card", e.line)
            elif isinstance(e, Deal):
                seat = self.seat(e.player, e.line)
                total = e.street if community is None or e.street < 7 else 6
                up = min(e.street, 6) - 2
                if len(e.cards) == total:
                    put_cards(seat, list(enumerate(e.cards)), e.line, f"{e.player} is dealt")
                elif len(e.cards) == up:
                    for k, card in enumerate(e.cards):
                        put(seat, _UP_SLOTS[k], card, e.line)
                else:
                    self.fail(
                        f"{e.player} is shown {len(e.cards)} cards on {STREET_WORDS[e.street]} "
                        f"(expected {total} cards, or the {up} up cards)",
                        e.line,
                    )
            elif isinstance(e, Show):
                put_all(self.seat(e.player, e.line), e.cards, e.line, f"{e.player} shows")
        for line, player, cards in ps.revealed:
            if player in self.seat_of:
                put_all(self.seat_of[player], cards, line, f"{player} showed or mucked")
        self.community_card = community
        return slots, community, last_street

    def deck(
        self, slots: list[_Slots], community: Card | None, last_street: int
    ) -> tuple[Deck, frozenset[Card]]:
        folded_on: dict[int, int] = {}
        for e in self.ps.events:
            if isinstance(e, BetLine) and e.verb == "fold":
                folded_on.setdefault(self.seat(e.player, e.line), e.street)
        # Each player's cards up to the street the hand reached or the player folded on (none
        # of 7th street's own when the community card takes its place), unknown ones None.
        last_own = 6 if community is not None else last_street
        hands = [
            slots[s].cards[: max(3, min(last_own, folded_on.get(s, 8)))] for s in range(len(self.players))
        ]
        for s, dealt in enumerate(hands):
            # A card the file shows for a street the player never saw is not in the deal.
            for k in range(len(dealt), 7):
                card = slots[s].cards[k]
                if card is None:
                    continue
                name = self.players[s]
                if folded_on.get(s, 8) < last_own:
                    why = f"{name} folds on {STREET_WORDS[folded_on[s]]}"
                else:
                    why = f"the hand ends on {STREET_WORDS[last_street]}"
                self.fail(
                    f"{card} is shown as {name}'s card {k + 1}, but {why}: that card is never dealt",
                    slots[s].lines[k],
                )
        order = dealing_order(hands, community)
        used = {c for c in order if c is not None}
        used.update(c for s in slots for c in s.cards if c is not None)
        spare = iter([c for c in CARDS if c not in used])
        made_up: set[Card] = set()
        cards: list[Card] = []
        for card in order:
            if card is None:
                card = next(spare)
                made_up.add(card)
            cards.append(card)
        cards.extend(spare)
        return Deck(cards), frozenset(made_up)

    # -- the game

    def game(self) -> Game:
        if self.game_override is not None:
            return self.game_override
        ps = self.ps
        bring_in = ps.bring_in or self.bring_in_hint or ps.bring_in_hint
        if bring_in is None:
            allin = [e.amount for e in ps.events if isinstance(e, BetLine) and e.verb == "bring-in"]
            bring_in = allin[0] if allin and allin[0] else _default_bring_in(ps.small_bet)
        try:
            stakes = Stakes(ps.ante, bring_in, ps.small_bet, ps.big_bet)
            return game_by_name(ps.game, stakes, rake_from=self.rake_from)
        except GameError as error:
            self.fail(f"the stakes make no game: {error}", ps.line)

    # -- play

    def play(self) -> PlayedHand:
        ps = self.ps
        slots, community, last_street = self.known_cards()
        deck, made_up = self.deck(slots, community, last_street)
        stacks = [next(s.stack for s in ps.seats if s.name == p) for p in self.players]
        try:
            hand = Hand(self.game(), stacks, deck, auto_showdown=False, rake=ps.rake)
        except (HandError, ValueError) as error:
            self.fail(f"cannot start the hand: {error}", ps.line)
        self.hand = hand
        self.returns_seen = 0
        self.scanned = 0
        self.engine_returns: list[tuple[int, BetReturned]] = []
        self.deal_starts: dict[int, int] = {}
        self.decisions: dict[int, Show | Muck] = {}
        for e in ps.events:
            if not isinstance(e, Show | Muck) or e.player not in self.seat_of:
                continue
            if isinstance(e, Show) or e.shown_down:
                self.decisions.setdefault(self.seat_of[e.player], e)
        # (before the antes are checked: a missing ante is named at the 3rd-street mark)
        first_street_line = next((e.line for e in ps.events if isinstance(e, StreetMark)), ps.line)
        self.street_line = {3: first_street_line}
        self.check_antes()
        for e in ps.events:
            if isinstance(e, StreetMark):
                self.street_mark(e)
            elif isinstance(e, Deal):
                self.check_deal(e)
            elif isinstance(e, BetLine):
                self.bet(e)
            elif isinstance(e, Returned):
                self.returned(e)
            elif isinstance(e, ShowdownMark):
                self.showdown(e.line)
        self.showdown(ps.total_line, final=True)
        if not hand.is_over:
            self.fail(
                f"the hand ends here, but our engine still has "
                f"{self.players[hand.to_act or 0]} to act "
                f"on {STREET_WORDS[hand.street]}",
                ps.total_line,
            )
        self.check_returns(None, ps.total_line)
        self.check_shows()
        self.check_awards()
        return PlayedHand(
            ps,
            hand,
            list(self.players),
            [s.number for p in self.players for s in ps.seats if s.name == p],
            made_up,
        )

    def check_antes(self) -> None:
        posted = {e.seat: e for e in self.hand.events if isinstance(e, AntePosted)}
        seen: set[int] = set()
        for e in self.ps.events:
            if isinstance(e, Ante):
                seat = self.seat(e.player, e.line)
                ours = posted.get(seat)
                if ours is None or ours.amount != e.amount or ours.all_in != e.all_in:
                    what = "none" if ours is None else f"{ours.amount}" + (" all-in" if ours.all_in else "")
                    self.fail(f"{e.player} posts an ante of {e.amount}; our engine takes {what}", e.line)
                seen.add(seat)
        for seat, ante in posted.items():
            if seat not in seen and ante.amount:
                self.fail(
                    f"{self.players[seat]} posts no ante in the file; our engine takes {ante.amount}",
                    self.street_line[3],
                )

    def street_mark(self, e: StreetMark) -> None:
        hand = self.hand
        self.street_line[e.street] = e.line
        if e.street == 3:
            return
        if hand.is_over and len([s for s in range(hand.n) if not hand.folded[s]]) < 2:
            self.fail(
                f"the file deals {STREET_WORDS[e.street]}, but under our rules the hand is over",
                e.line,
            )
        if hand.phase is Phase.BETTING and hand.street < e.street:
            self.fail(
                f"the file deals {STREET_WORDS[e.street]}, but our engine still has "
                f"{self.players[hand.to_act or 0]} to act on {STREET_WORDS[hand.street]}",
                e.line,
            )
        self.check_returns(e.street, e.line)
        if e.street == 7:
            ours = hand.community
            if (e.community is None) != (ours is None) or (ours is not None and ours != e.community):
                self.fail(f"the file's community card is {e.community}, ours {ours}", e.line)

    def check_deal(self, e: Deal) -> None:
        seat = self.seat(e.player, e.line)
        have = self.hand.cards[seat]
        expected = e.street if self.community_card is None or e.street < 7 else 6
        if len(have) < expected:
            self.fail(
                f"the file deals {e.player} a card on {STREET_WORDS[e.street]}, "
                f"our engine does not "
                f"({e.player} holds {len(have)})",
                e.line,
            )

    def _scan(self) -> None:
        """Note the engine's new events: the bets it returned (with their place) and where each
        street's deal begins."""
        events = self.hand.events
        for index in range(self.scanned, len(events)):
            ev = events[index]
            if isinstance(ev, BetReturned):
                self.engine_returns.append((index, ev))
            elif isinstance(ev, CardDealt):
                self.deal_starts.setdefault(ev.street, index)
            elif isinstance(ev, CommunityCardDealt):
                self.deal_starts.setdefault(7, index)
        self.scanned = len(events)

    def check_returns(self, street: int | None, line: int) -> None:
        """Every bet our engine returned before ``street`` was dealt (before the showdown when
        ``street`` is None) must have been returned by the file by now."""
        self._scan()
        boundary = len(self.hand.events)
        if street is not None:
            boundary = min((i for k, i in self.deal_starts.items() if k >= street), default=boundary)
        ours = [ev for index, ev in self.engine_returns if index < boundary]
        if len(ours) > self.returns_seen:
            missing = ours[self.returns_seen]
            self.fail(
                f"our engine returns an uncalled {missing.amount} to "
                f"{self.players[missing.seat]}; the file returns nothing "
                "(expected 'Uncalled bet (...) returned to ...' before this line)",
                line,
            )

    def returned(self, e: Returned) -> None:
        self._scan()
        ours = [ev for _, ev in self.engine_returns]
        seat = self.seat(e.player, e.line)
        if self.returns_seen >= len(ours):
            self.fail(f"the file returns {e.amount} to {e.player}; our engine returns nothing", e.line)
        mine = ours[self.returns_seen]
        if (mine.seat, mine.amount) != (seat, e.amount):
            self.fail(
                f"the file returns {e.amount} to {e.player}; our engine returns {mine.amount} to "
                f"{self.players[mine.seat]}",
                e.line,
            )
        self.returns_seen += 1

    def bet(self, e: BetLine) -> None:
        hand = self.hand
        seat = self.seat(e.player, e.line)
        if hand.is_over:
            self.fail(f"{e.player} acts, but under our rules the hand is over", e.line)
        if hand.phase is Phase.SHOWDOWN:
            self.fail(f"{e.player} acts, but our engine has reached the showdown", e.line)
        if hand.street != e.street:
            self.fail(
                f"{e.player} acts on {STREET_WORDS[e.street]}, "
                f"but our engine is on {STREET_WORDS[hand.street]}",
                e.line,
            )
        if hand.to_act != seat:
            who = self.players[hand.to_act] if hand.to_act is not None else "nobody"
            role = (
                "bring in"
                if e.street == 3
                and hand.bring_in_seat == hand.to_act
                and not any(isinstance(ev, ActionTaken) and ev.street == 3 for ev in hand.events)
                else "act"
            )
            self.fail(f"{e.player} acts, but our engine has {who} to {role}", e.line)
        legal = hand.legal_actions()
        mine = hand.street_bets[seat]
        current = max(hand.street_bets)
        action: Action | None = None
        if e.verb == "bring-in":
            action = next((a for a in legal if a.kind is ActionKind.BRING_IN and a.amount == e.amount), None)
        elif e.verb == "check":
            action = next((a for a in legal if a.kind is ActionKind.CHECK), None)
        elif e.verb == "fold":
            action = next((a for a in legal if a.kind is ActionKind.FOLD), None)
        elif e.verb == "call":
            assert e.amount is not None
            action = next(
                (a for a in legal if a.kind is ActionKind.CALL and a.amount == mine + e.amount),
                None,
            )
        elif e.verb == "bet":
            assert e.amount is not None
            target = mine + e.amount
            kinds = (ActionKind.BET, ActionKind.COMPLETE)
            action = next((a for a in legal if a.kind in kinds and a.amount == target), None)
            if action is None and current > 0:
                self.fail(f"{e.player} bets {e.amount}, but there is a bet of {current} to face", e.line)
        else:
            assert e.amount is not None and e.to is not None
            if e.to - e.amount != current:
                self.fail(
                    f"{e.player} raises {e.amount} to {e.to}, "
                    f"but the bet to raise is {current}, not "
                    f"{e.to - e.amount}",
                    e.line,
                )
            kinds = (ActionKind.RAISE, ActionKind.COMPLETE)
            action = next((a for a in legal if a.kind in kinds and a.amount == e.to), None)
        if action is None:
            options = ", ".join(str(a) for a in legal)
            self.fail(
                f"{e.player} {_verb_text(e)} is not legal under our rules (legal: {options})",
                e.line,
            )
        try:
            hand.act(action, seat)
        except IllegalAction as error:  # pragma: no cover - picked from the legal actions
            self.fail(f"illegal under our rules: {error}", e.line)
        taken = next(ev for ev in reversed(hand.events) if isinstance(ev, ActionTaken))
        if taken.all_in != e.all_in:
            says = "all-in" if e.all_in else "not all-in"
            self.fail(f"the file says {e.player} is {says} after this action; our engine does not", e.line)

    def showdown(self, line: int, final: bool = False) -> None:
        hand = self.hand
        if not final and hand.phase is not Phase.SHOWDOWN:
            if hand.phase is Phase.BETTING:
                self.fail(
                    f"the file goes to the showdown, but our engine still has "
                    f"{self.players[hand.to_act or 0]} to act on {STREET_WORDS[hand.street]}",
                    line,
                )
            if hand.is_over and not any(isinstance(ev, HandShown | HandMucked) for ev in hand.events):
                self.fail(
                    "the file goes to the showdown, but under our rules nobody is left to show",
                    line,
                )
        if not final:
            self.check_returns(None, line)
        while hand.phase is Phase.SHOWDOWN and hand.to_act is not None:
            seat = hand.to_act
            decision = self.decisions.get(seat)
            if decision is None:
                self.fail(
                    f"our engine asks {self.players[seat]} to show or muck; the file does neither "
                    f"(expected '{self.players[seat]}: shows [..]' or "
                    f"'{self.players[seat]}: mucks hand')",
                    line,
                )
            kind = ActionKind.SHOW if isinstance(decision, Show) else ActionKind.MUCK
            hand.act(Action(kind), seat)

    def check_shows(self) -> None:
        """Every hand the file shows down is the hand our engine dealt, and reads as the file
        names it. (Who shows first decides no chips: we answer in our order, so a winner whom
        our order lets win unshown may be shown in the file.)"""
        hand = self.hand
        mark = next((e.line for e in self.ps.events if isinstance(e, ShowdownMark)), None)
        if mark is None:
            return
        for e in self.ps.events:
            if not isinstance(e, Show) or e.line < mark:
                continue
            seat = self.seat_of[e.player]
            own = tuple(hand.cards[seat])
            if not _same_cards(e.cards, own, hand.community):
                self.fail(
                    f"{e.player} shows [{format_cards(e.cards)}]; our engine dealt [{format_cards(own)}]",
                    e.line,
                )
            expected = show_description(hand.game, hand.seven_cards(seat))
            if e.description is not None and _norm(e.description) != _norm(expected):
                self.fail(
                    f"{e.player} shows ({e.description}); our engine reads the hand as ({expected})",
                    e.line,
                )

    def check_awards(self) -> None:
        ps, hand = self.ps, self.hand
        collects = [e for e in ps.events if isinstance(e, Collect)]
        ours_total = sum(a.amount for a in hand.awards) + hand.rake
        first = collects[0].line if collects else ps.total_line
        for e in ps.events:
            if isinstance(e, NoLow) and any(a.share == "low" for a in hand.awards):
                self.fail("the file says no low hand qualified; our engine pays a low half", e.line)
        theirs_by_seat: Counter[int] = Counter()
        theirs_by_pot: Counter[tuple[int, int]] = Counter()
        ours_by_seat: Counter[int] = Counter()
        ours_by_pot: Counter[tuple[int, int]] = Counter()
        labelled = all(c.pot is not None for c in collects) and collects
        for a in hand.awards:
            ours_by_seat[a.seat] += a.amount
            ours_by_pot[(a.seat, a.pot)] += a.amount
        for c in collects:
            seat = self.seat(c.player, c.line)
            theirs_by_seat[seat] += c.amount
            if c.pot is not None:
                theirs_by_pot[(seat, c.pot)] += c.amount
        ours_text = _awards_text(hand, self.players)
        for c in collects:
            seat = self.seat_of[c.player]
            if labelled and c.pot is not None:
                if theirs_by_pot[(seat, c.pot)] != ours_by_pot[(seat, c.pot)]:
                    pot = "the main pot" if c.pot == 0 else f"side pot {c.pot}"
                    self.fail(
                        f"the file pays {c.player} {theirs_by_pot[(seat, c.pot)]} from {pot}; "
                        f"our engine "
                        f"pays {ours_by_pot[(seat, c.pot)]} ({ours_text})",
                        c.line,
                    )
            elif theirs_by_seat[seat] != ours_by_seat[seat]:
                self.fail(
                    f"the file pays {c.player} {theirs_by_seat[seat]}; our engine pays "
                    f"{ours_by_seat[seat]} ({ours_text})",
                    c.line,
                )
        for seat, amount in ours_by_seat.items():
            if amount and theirs_by_seat[seat] == 0:
                self.fail(
                    f"our engine pays {self.players[seat]} {amount}, the file pays nothing ({ours_text})",
                    collects[-1].line if collects else ps.total_line,
                )
        if labelled and ours_by_pot != theirs_by_pot:  # pragma: no cover - caught above
            self.fail(f"the pots are split differently ({ours_text})", first)
        if ours_total != ps.total_pot:
            self.fail(f"Total pot {ps.total_pot}: our engine's pot is {ours_total}", ps.total_line)


def _same_cards(shown: Sequence[Card], own: Sequence[Card], community: Card | None) -> bool:
    """Whether a shown hand is the hand dealt: the up cards in their places, the down cards
    in any order (a site may list them in its own), the community card last if any."""
    if community is not None and len(shown) == len(own) + 1 and shown[-1] == community:
        shown = shown[:-1]
    if len(shown) != len(own):
        return False
    places = range(len(own))
    if any(shown[k] != own[k] for k in places if k in _UP_SLOTS):
        return False
    return Counter(shown[k] for k in places if k not in _UP_SLOTS) == Counter(
        own[k] for k in places if k not in _UP_SLOTS
    )


def _verb_text(e: BetLine) -> str:
    if e.verb == "raise":
        return f"raises {e.amount} to {e.to}"
    words = {
        "bring-in": "brings in for",
        "bet": "bets",
        "call": "calls",
        "check": "checks",
        "fold": "folds",
    }
    return f"{words[e.verb]}{'' if e.amount is None else ' ' + str(e.amount)}"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip()).lower()


def _awards_text(hand: Hand, players: Sequence[str]) -> str:
    parts = []
    for a in hand.awards:
        pot = "main pot" if a.pot == 0 else f"side pot {a.pot}"
        half = "" if a.share == "whole" else f" {a.share}"
        parts.append(f"{players[a.seat]} {a.amount} from {pot}{half}")
    return "ours: " + (", ".join(parts) or "nothing")


def play_pokerstars(
    ps: PokerStarsHand, *, game: Game | None = None, bring_in: int | None = None
) -> PlayedHand:
    """Play a PokerStars hand through our engine; :class:`PokerStarsError` names the first line
    where our engine differs from the file. ``game`` replaces the game read from the header (for
    non-default options); ``bring_in`` is used when the file does not show the bring-in.

    The rake is taken from every pot in proportion, as PokerStars takes it; where the summary lists
    the pots (``Main pot $8.36. Side pot $0.60.``) and only the main pot paid it (a hand from a
    room that rakes so, written as PokerStars text), the hand is played that way."""
    replayer = _Replayer(ps, game, bring_in)
    try:
        return replayer.play()
    except PokerStarsError:
        if game is not None or len(ps.pots) < 2 or not ps.rake:
            raise
        again = _Replayer(ps, game, bring_in)
        again.rake_from = "main_pot"
        try:
            played = again.play()
        except PokerStarsError:
            pass
        else:
            if tuple(p.amount for p in played.hand.final_pots) == ps.pots:
                return played
        raise
