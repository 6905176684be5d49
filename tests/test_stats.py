"""The stud statistics (sevenstud.stats, docs/stats.md) on hands played through the engine."""

from __future__ import annotations

from sevenstud.cards import parse_cards
from sevenstud.deck import Deck
from sevenstud.events import redact_all
from sevenstud.games import Stakes, Stud, StudHiLo
from sevenstud.hand import Hand
from sevenstud.stats import PlayerStats, hand_facts, player_stats

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)

# Seat 0 brings in (2c); seat 1 has the best board from 4th street on; at the showdown seat 2
# has the high (three queens) and seat 1 the only low (8-6-5-3-A): a split, nobody scoops.
THREE = {
    0: "Kc Qd 2c | 7d | 9h | Js | 4s",
    1: "Ac Ad 5h | Kh | 8c | 3h | 6s",
    2: "Qs Qh 6d | Td | Qc | 3c | 5c",
}


def deal(hands: dict[int, str]) -> Deck:
    cards = {seat: parse_cards(text.replace("|", " ")) for seat, text in hands.items()}
    order = [cards[s][i] for i in range(7) for s in sorted(cards) if len(cards[s]) > i]
    return Deck.ordered(order)


def play(hand: Hand, *moves: str) -> None:
    for move in moves:
        seat, _, action = move.partition(": ")
        hand.act(action, int(seat))


def to_the_end(hand: Hand) -> None:
    """Check or call every decision left (no raise): the hand goes to the showdown."""
    while not hand.is_over:
        kinds = {str(a.kind): a for a in hand.legal_actions()}
        passive = kinds.get("check") or kinds.get("call") or kinds.get("bring-in")
        hand.act(passive or next(iter(kinds.values())))


def test_a_completion_with_everybody_before_folded_is_a_steal_and_a_bring_in_folding_no_defence() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], deal(THREE))
    play(hand, "0: bring-in", "1: complete", "2: fold", "0: fold")
    blind, stealer, behind = (hand_facts(hand.events, seat, split=True) for seat in range(3))
    assert (stealer.vpip, stealer.complete_chance, stealer.completed) == (True, True, True)
    assert (stealer.steal_chance, stealer.stole, stealer.won) == (True, True, True)
    assert not stealer.showdown and not stealer.won_at_showdown and not stealer.scooped
    # Facing a completion: no chance to complete, none to steal; a fold is no VPIP.
    assert (behind.vpip, behind.complete_chance, behind.steal_chance) == (False, False, False)
    assert (blind.brought_in, blind.defend_chance, blind.defended, blind.vpip) == (True, True, False, False)
    assert stealer.aggressive == {3: 1} and stealer.calls == {}
    assert blind.street_reached == 3 and not blind.saw_fourth


def test_a_completion_after_a_call_is_no_steal_and_the_bring_in_calling_it_is_vpip_not_a_defence() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], deal(THREE))
    play(hand, "0: bring-in", "1: call", "2: complete", "0: call", "1: call")
    blind, limper, completer = (hand_facts(hand.events, seat, split=True) for seat in range(3))
    assert (completer.complete_chance, completer.completed, completer.steal_chance) == (True, True, False)
    # The limper had the first chance, with only the bring-in in: a steal chance not taken.
    assert (limper.complete_chance, limper.completed) == (True, False)
    assert (limper.steal_chance, limper.stole) == (True, False)
    assert limper.calls == {3: 2}
    assert (blind.vpip, blind.defend_chance, blind.defended) == (True, False, False)
    assert all(f.vpip for f in (limper, completer, blind))


def test_the_bring_in_calling_a_steal_defends_and_raising_does_too() -> None:
    for answer, kind in (("call", "call"), ("raise to 10", "raise")):
        hand = Hand(StudHiLo(STAKES), [100, 100, 100], deal(THREE))
        play(hand, "0: bring-in", "1: fold", "2: complete", f"0: {answer}")
        blind = hand_facts(hand.events, 0, split=True)
        stealer = hand_facts(hand.events, 2, split=True)
        assert (blind.defend_chance, blind.defended, blind.vpip) == (True, True, True), kind
        assert (stealer.steal_chance, stealer.stole) == (True, True)


def test_a_showdown_split_high_and_low_is_won_by_both_and_scooped_by_neither() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], deal(THREE))
    to_the_end(hand)
    facts = [hand_facts(hand.events, seat, split=True) for seat in range(3)]
    assert all(f.showdown and f.saw_fourth and f.street_reached == 7 for f in facts)
    assert [f.won_at_showdown for f in facts] == [False, True, True]
    assert not any(f.scooped for f in facts)


def test_the_only_low_and_the_best_high_scoops_in_hi_lo_and_never_in_stud() -> None:
    two = {0: THREE[0], 1: THREE[1]}
    for game, split in ((StudHiLo(STAKES), True), (Stud(STAKES), False)):
        hand = Hand(game, [100, 100], deal(two))
        to_the_end(hand)
        winner = hand_facts(hand.events, 1, split=split)
        assert winner.won_at_showdown and winner.scooped is split


def test_aggression_counts_bets_and_raises_against_calls_by_street() -> None:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], deal(THREE))
    play(hand, "0: bring-in", "1: complete", "2: call", "0: call")
    play(hand, "1: bet 5", "2: raise to 10", "0: fold", "1: call")  # 4th: seat 1's board acts first
    bettor, raiser = hand_facts(hand.events, 1, split=True), hand_facts(hand.events, 2, split=True)
    assert bettor.aggressive == {3: 1, 4: 1} and bettor.calls == {4: 1}
    assert raiser.aggressive == {4: 1} and raiser.calls == {3: 1}
    stats = PlayerStats()
    stats.add(bettor)
    aggression = stats.to_json()["aggression"]
    assert aggression["4"] == {"bets": 1, "calls": 1, "factor": 1.0}
    assert aggression["3"] == {"bets": 1, "calls": 0, "factor": None}


def test_the_counts_from_an_opponents_seat_are_the_same_as_from_every_card() -> None:
    # Only public events are read: the hand as seat 0 saw it (the others' down cards blank)
    # gives seat 1's and seat 2's statistics exactly.
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], deal(THREE))
    play(hand, "0: bring-in", "1: complete", "2: call", "0: call")
    to_the_end(hand)
    seen = redact_all(hand.events, 0)
    assert any(getattr(e, "card", 1) is None for e in seen)  # some cards were hidden from seat 0
    for seat in (1, 2):
        assert hand_facts(seen, seat, split=True) == hand_facts(hand.events, seat, split=True)


def test_player_stats_adds_hands_and_gives_every_ratio_with_its_chances() -> None:
    hands = []
    played = (("0: bring-in", "1: complete", "2: fold", "0: fold"), ("0: bring-in", "1: fold", "2: fold"))
    for moves in played:
        hand = Hand(StudHiLo(STAKES), [100, 100, 100], deal(THREE))
        play(hand, *moves)
        hands.append((hand.events, 1, True))
    found = player_stats(hands).to_json()
    assert found["hands"] == 2
    assert found["vpip"] == {"count": 1, "of": 2, "rate": 0.5}
    assert found["steal"] == {"count": 1, "of": 2, "rate": 0.5}
    assert found["went_to_showdown"] == {"count": 0, "of": 0, "rate": None}
    assert found["scoop"]["of"] == 0
