"""Replaying an Americas Cardroom hand (:func:`play_acr`): the PokerStars replayer with the
room's game (its stakes, its bring-in, the pots its rake came from), then the room's own lines
checked against our engine; :mod:`sevenstud.history.text.acr` re-exports it."""

from __future__ import annotations

from typing import NoReturn

from sevenstud import evaluate
from sevenstud.cards import format_cards
from sevenstud.games import Game, GameError, RakeFrom, Stakes, game_by_name
from sevenstud.hand import ActionTaken, AntePosted, BetReturned, CardDealt, CommunityCardDealt
from sevenstud.history.text.acr_model import ACRError, ACRHand, PotLine, street_mark
from sevenstud.history.text.model import BetLine, PokerStarsHand
from sevenstud.history.text.replay import PlayedHand, play_pokerstars


def _rake_from(hand: ACRHand) -> RakeFrom:
    """Which pots paid the rake, from the showdown's pot lines: the main pot first (the room's cap
    was reached before a side pot began, or there is one pot) where every pot before the last
    that paid some was taken whole; else every pot, in proportion to its size."""
    pots = sorted((p for p in hand.pot_lines if p.street == 8), key=lambda p: p.pot)
    raked = [i for i, p in enumerate(pots) if p.rake]
    if not raked or all(p.amount == 0 for p in pots[: raked[-1]]):
        return "main_pot"
    return "each_pot"


def acr_game(hand: PokerStarsHand, rake_from: RakeFrom = "main_pot") -> Game:
    """Our game for an ACR hand: its stakes and ``rake_from``. The bring-in is the hand's own, else
    an earlier hand's at the same stakes, else an all-in bring-in's amount, else half the small
    bet (the room's bring-in: $0.05 at $0.10/$0.20, $0.02 at $0.04/$0.08)."""
    bring_in = hand.bring_in or hand.bring_in_hint
    if bring_in is None:
        forced = [e.amount for e in hand.events if isinstance(e, BetLine) and e.verb == "bring-in"]
        bring_in = forced[0] if forced and forced[0] else max(1, hand.small_bet // 2)
    try:
        return game_by_name(
            hand.game, Stakes(hand.ante, bring_in, hand.small_bet, hand.big_bet), rake_from=rake_from
        )
    except GameError as error:
        raise ACRError(
            f"the stakes make no game: {error}", line=hand.line, file=hand.file, hand_id=hand.hand_id
        ) from None


def play_acr(hand: PokerStarsHand) -> PlayedHand:
    """Replay an ACR hand through our engine, then check the room's own lines (the pot at each
    street, the pots after the rake, the best five and the low of each shown hand); the
    :class:`~sevenstud.history.pokerstars.PokerStarsError` raised names the first line where our
    engine differs from the file."""
    acr = hand if isinstance(hand, ACRHand) else None
    rake_from = _rake_from(acr) if acr is not None else "main_pot"
    played = play_pokerstars(hand, game=acr_game(hand, rake_from))
    if acr is not None:
        _Checks(acr, played).run()
    return played


class _Checks:
    def __init__(self, acr: ACRHand, played: PlayedHand) -> None:
        self.acr = acr
        self.played = played

    def fail(self, reason: str, line: int) -> NoReturn:
        acr = self.acr
        raise ACRError(reason, line=line, file=acr.file, hand_id=acr.hand_id, game=acr.game)

    def run(self) -> None:
        self.pots()
        self.shows()

    def amount(self, chips: int) -> str:
        return f"${chips // 100}.{chips % 100:02d}" if self.acr.money else str(chips)

    def pots(self) -> None:
        hand = self.played.hand
        # The chips in the pot as each street begins, from our engine's events.
        at_street: dict[int, int] = {}
        total = 0
        for ev in hand.events:
            if isinstance(ev, AntePosted):
                total += ev.amount
            elif isinstance(ev, ActionTaken):
                total += ev.chips
            elif isinstance(ev, BetReturned):
                total -= ev.amount
            elif isinstance(ev, CardDealt):
                at_street.setdefault(ev.street, total)
            elif isinstance(ev, CommunityCardDealt):
                at_street.setdefault(7, total)
        at_street[8] = total
        by_street: dict[int, list[PotLine]] = {}
        for p in self.acr.pot_lines:
            by_street.setdefault(p.street, []).append(p)
        for street, lines in by_street.items():
            theirs = sum(p.amount + p.rake for p in lines)
            ours = at_street.get(street)
            if ours is not None and theirs != ours:
                where = "at the showdown" if street == 8 else f"as {street_mark(street).lower()} begins"
                self.fail(
                    f"the pot {where} is {self.amount(theirs)} with the rake taken so far; our engine's "
                    f"is {self.amount(ours)}",
                    lines[0].line,
                )
        showdown = by_street.get(8)
        if not showdown:
            return
        theirs_net = [p.amount for p in sorted(showdown, key=lambda p: p.pot)]
        ours_net = [p.amount for p in hand.final_pots]
        if theirs_net != ours_net or sum(p.rake for p in showdown) != hand.rake:
            rule = "in proportion to each pot" if hand.game.rake_from == "each_pot" else "from the main pot"
            self.fail(
                "the pots after the rake are "
                f"{', '.join(self.amount(a) for a in theirs_net)} (rake "
                f"{self.amount(sum(p.rake for p in showdown))}); our engine's, taking the rake {rule}, "
                f"are {', '.join(self.amount(a) for a in ours_net)} (rake {self.amount(hand.rake)})",
                showdown[0].line,
            )

    def shows(self) -> None:
        hand = self.played.hand
        game = hand.game
        for shown in self.acr.shows:
            seat = self.played.players.index(shown.player)
            seven = hand.seven_cards(seat)
            high, low = game.showdown_ranks([int(c) for c in seven])
            if shown.five is not None and game.has_high:
                if not set(shown.five) <= set(seven):
                    self.fail(
                        f"{shown.player}'s best hand [{format_cards(shown.five)}] is not among "
                        f"{shown.player}'s cards [{format_cards(seven)}]",
                        shown.line,
                    )
                named = evaluate.high_rank([int(c) for c in shown.five])
                if named != high:
                    self.fail(
                        f"{shown.player} shows {evaluate.high_name(named)} [{format_cards(shown.five)}]; "
                        f"our engine reads the best hand as {evaluate.high_name(high)}",
                        shown.line,
                    )
            if game.has_low and (shown.low is not None or (game.split and shown.five is not None)):
                ours = tuple(evaluate.low_cards(low)) if low else None
                if ours != shown.low:
                    theirs = ",".join(shown.low) if shown.low else "no low"
                    mine = ",".join(ours) if ours else "no qualifying low"
                    self.fail(f"{shown.player} shows {theirs}; our engine reads {mine}", shown.line)
