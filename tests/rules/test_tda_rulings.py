"""The TDA's stud rulings at tournament tables (docs/tournaments.md, "The TDA's stud rulings"),
issue 35: a tournament deals its game with :func:`~sevenstud.games.tournament_rules` (no doubled
bet for an open pair on 4th street, equal boards broken by suit, the low card all-in from the
ante, the odd chip by the five cards that play), and a player away at the deal has a dead hand.
Each test fails on the engine of before: the cash tables' defaults everywhere."""

from __future__ import annotations

import pytest
from studtable import STAKES, deal, new_hand, play, stud

from sevenstud.games import Razz, Stud, StudHiLo, tournament_game, tournament_rules
from sevenstud.hand import ActionKind, ActionTaken, CardDealt, Hand, HandError
from sevenstud.table import Table, TableSettings
from sevenstud.tournament import STANDARD, TournamentSettings
from sevenstud.wire import hand_from_record, hand_to_record


def legal(hand: Hand) -> list[str]:
    return [str(a) for a in hand.legal_actions()]


def tournament_stud() -> Stud:
    game = tournament_rules(stud())
    assert isinstance(game, Stud)
    return game


# ------------------------------------------------------------ one tournament game (RP-10-F)

# Seat 2 (2c) brings in; seat 0 pairs its door card on 4th street.
OPEN_PAIR = {
    0: "Ah Kd 9c | 9d",
    1: "3h 4h Jc | 5s",
    2: "7s 8s 2c | Td",
}


def test_no_doubled_bet_for_an_open_pair_on_4th_street_in_a_tournament() -> None:
    cash = play(new_hand(stud(), [100] * 3, OPEN_PAIR), "2: bring-in", "0: call", "1: call")
    assert legal(cash) == ["fold", "check", "bet 5", "bet 10"], "a cash game doubles"
    hand = play(new_hand(tournament_stud(), [100] * 3, OPEN_PAIR), "2: bring-in", "0: call", "1: call")
    assert hand.to_act == 0 and legal(hand) == ["fold", "check", "bet 5"]


def test_every_way_a_tournament_makes_its_game_is_the_one_tournament_game() -> None:
    settings = TournamentSettings(game="stud")
    made = tournament_game("stud", STANDARD.level(0).stakes)
    assert settings.game_of(0) == STANDARD.game_of(0, "stud") == made
    assert not made.double_bet_on_open_pair
    assert made == tournament_rules(made), "the rules applied twice are the same game"
    # A tournament table deals the TDA's rulings whatever game it is given.
    table = Table(TableSettings(Stud(STAKES), seats=6, tournament=True))
    assert table.settings.game == tournament_rules(Stud(STAKES))
    assert Table(TableSettings(Stud(STAKES), seats=6)).settings.game.double_bet_on_open_pair


def test_the_card_rooms_tournaments_deal_the_same_game() -> None:
    pytest.importorskip("sqlalchemy")
    from sevenstud.server.tournaments.cashier import game_of

    settings = TournamentSettings(game="stud", rotation=("razz", "stud"))
    assert [game_of(settings, i) for i in range(3)] == [settings.game_of(i) for i in range(3)]
    assert not game_of(settings, 1).double_bet_on_open_pair


# ------------------------------------------------------------ equal boards by suit (RP-10-D)

# Seats 0 and 1 show K7 on 4th street; seat 1's king is the heart, the higher suit.
EQUAL_BOARDS = {
    0: "9d Td Kc | 7c",
    1: "Jd Qd Kh | 7h",
    2: "3s 4s 2s | 5s",
}


@pytest.mark.parametrize("game", [StudHiLo(STAKES), Stud(STAKES)], ids=["stud8", "stud"])
def test_equal_boards_the_high_card_by_suit_acts_first_in_a_tournament(game: StudHiLo) -> None:
    cash = play(new_hand(game, [100] * 3, EQUAL_BOARDS), "2: bring-in", "0: call", "1: call")
    assert cash.to_act == 0, "a cash game: the lowest seat"
    hand = new_hand(tournament_rules(game), [100] * 3, EQUAL_BOARDS)
    play(hand, "2: bring-in", "0: call", "1: call")
    assert hand.first_to_act[4] == 1 and hand.to_act == 1


# ------------------------------------------------------------ the low card all-in (RP-10-E)

# Seat 0's 2c is the low card, and seat 0 is all-in from the ante (one chip).
LOW_ALL_IN = {
    0: "Ah Kd 2c | 9d",
    1: "3h 4h Jc | 5s",
    2: "7s 8s Qc | Td",
    3: "6d 6h Kc | 4c",
}


def test_the_low_card_all_in_for_the_ante_the_next_player_may_bring_in_complete_or_fold() -> None:
    cash = new_hand(stud(), [1, 100, 100, 100], LOW_ALL_IN)
    assert cash.to_act == 1 and legal(cash) == ["bring-in 2", "complete to 5"]
    hand = new_hand(tournament_stud(), [1, 100, 100, 100], LOW_ALL_IN)
    assert hand.bring_in_seat == 1
    assert hand.to_act == 1 and legal(hand) == ["fold", "bring-in 2", "complete to 5"]
    play(hand, "1: fold")
    assert hand.to_act == 2 and legal(hand) == ["fold", "bring-in 2", "complete to 5"]
    play(hand, "2: bring-in")
    assert hand.to_act == 3 and legal(hand) == ["fold", "call 2", "complete to 5"]
    play(hand, "3: call")
    assert hand.street == 4 and hand.pot == 8


def test_the_low_card_all_in_and_everybody_passes_the_bring_in() -> None:
    hand = new_hand(tournament_stud(), [1, 100, 100, 100], LOW_ALL_IN)
    play(hand, "1: fold", "2: fold")
    # Seat 3 alone can bet, against an all-in hand: no bet is made, the cards are dealt out.
    assert hand.is_over and hand.street == 7
    assert sum(hand.finishing_stacks) == 301 and hand.finishing_stacks[1:3] == (99, 99)


def test_the_low_card_all_in_heads_up_with_the_antes() -> None:
    hands = {s: LOW_ALL_IN[s] for s in (0, 1, 2)}
    hand = new_hand(tournament_stud(), [1, 100, 100], hands)
    play(hand, "1: fold")  # seat 2 alone can bet against the all-in hand: no bet is made
    assert hand.is_over and hand.finishing_stacks[1] == 99


# ------------------------------------------------------------ the odd chip (TDA 20-B)

# Seats 0 and 1 tie with 9-high straights. Seat 0 also holds the ace of spades, which does not
# play; in the straights, seat 1's 9s beats seat 0's 9h. Seat 2 antes and folds: the pot is 7.
ODD_CHIP = {
    0: "As 2c 5c | 6d | 7h | 8c | 9h",
    1: "Kd 3d 5d | 6c | 7s | 8d | 9s",
    2: "Qh Jh Tc",
}


def _tied_straights(game: Stud) -> Hand:
    hand = new_hand(game, [100] * 3, ODD_CHIP)
    play(hand, "0: bring-in", "1: call", "2: fold")
    while not hand.is_over:
        hand.act("check")
    return hand


def test_the_odd_chip_goes_to_the_high_card_by_suit_in_the_five_card_hand() -> None:
    assert _tied_straights(stud()).finishing_stacks == (101, 100, 99), "cash: any of seven cards"
    assert _tied_straights(tournament_stud()).finishing_stacks == (100, 101, 99)


def test_the_odd_chip_of_a_razz_tie_by_the_five_low_cards() -> None:
    # Both make 5-4-3-2-A; seat 0's king does not play, and in the lows seat 1's 5s is the
    # highest card (the ace is the low hand's lowest card). Seat 2 (Ks) brings in, and folds on
    # 4th street: the pot is 9.
    hands = {
        0: "Ac 2c Kh | 3c | 4c | 5h | Qd",
        1: "Ad 2d 3d | 4d | 5s | Qs | Js",
        2: "8h 9h Ks | Th",
    }
    for game, winner in ((Razz(STAKES), 0), (tournament_rules(Razz(STAKES)), 1)):
        hand = new_hand(game, [100] * 3, hands)
        while not hand.is_over:
            hand.act(_passive(hand))
        won = {s: hand.finishing_stacks[s] - 100 for s in (0, 1)}
        assert won[winner] == won[1 - winner] + 1, (game.odd_chip, won)


def _passive(hand: Hand) -> str:
    """Seat 2 folds at its first turn after the bring-in; the others check or call it down."""
    kinds = [a.kind for a in hand.legal_actions()]
    if hand.to_act == 2 and hand.street > 3:
        return "fold"
    for kind in (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL, ActionKind.SHOW):
        if kind in kinds:
            return kind.value
    raise AssertionError(kinds)


# ------------------------------------------------------------ dead hands (TDA 30, RP-10-C)

# Seat 2 (2c) holds the low card.
DEAD = {
    0: "Ah Kd 9c | 9d | 5h",
    1: "3h 4h Jc | 5s | 6h",
    2: "7s 8s 2c | Td | Tc",
}


def test_a_dead_hand_with_the_low_card_posts_the_bring_in_and_is_out_at_once() -> None:
    hand = Hand(stud(), [100] * 3, deal(DEAD), dead=[2])
    assert hand.to_act == 2 and legal(hand) == ["bring-in 2"], "nothing but the bring-in"
    play(hand, "2: bring-in")
    assert hand.folded[2] and hand.to_act == 0
    play(hand, "0: call", "1: call")
    assert hand.street == 4
    fourth = [e for e in hand.events if isinstance(e, CardDealt) and e.street == 4]
    assert sorted(e.seat for e in fourth) == [0, 1], "no card to a dead hand"
    assert hand.to_act == 0, "the best board of the live hands acts first"


def test_a_dead_hand_never_takes_the_pot_when_the_others_fold() -> None:
    hand = Hand(stud(), [100] * 3, deal(DEAD), dead=[2])
    play(hand, "2: bring-in", "0: fold")
    assert hand.is_over and hand.finishing_stacks == (99, 104, 97), "the bring-in is dead money"


def test_a_dead_hand_without_the_low_card_is_folded_at_the_deal() -> None:
    hand = Hand(stud(), [100] * 3, deal(DEAD), dead=[0])
    assert hand.folded[0] and hand.to_act == 2
    folds = [e for e in hand.events if isinstance(e, ActionTaken)]
    assert [(e.seat, e.action.kind) for e in folds] == [(0, ActionKind.FOLD)]
    assert hand.actions == [], "the fold of a dead hand is no action of its player"
    again = hand_from_record(hand_to_record(play(hand, "2: bring-in", "1: call")))
    assert again.events == hand.events and again.dead == frozenset({0})
    with pytest.raises(HandError, match="dead"):
        Hand(stud(), [100] * 3, deal(DEAD), dead=[3])


def test_a_player_away_at_a_tournament_table_has_a_dead_hand() -> None:
    table = Table(TableSettings(Stud(STAKES), seats=6, tournament=True))
    for seat, name in enumerate(["ann", "bob", "cy"], start=1):
        table.sit_down(name, seat, 100, now=0)
    table.sit_out("cy", now=0)  # cy, seat 3, holds the low card
    table.start_hand(now=1, deck=deal(DEAD))
    assert table.to_act == 1, "cy's bring-in posted and the hand killed: ann faces it"
    table.act(1, "fold", now=2)
    assert not table.hand_in_progress, "bob's is the only live hand: it wins"
    assert [s.stack for s in table.view(None).seats] == [99, 104, 97]


def test_a_dead_low_card_nobody_can_bet_against_is_out_at_once() -> None:
    # Seat 0, all-in from the ante, is the one live hand besides the dead low card (seat 2):
    # no bring-in is asked, and the dead hand does not go on to the showdown and win.
    hand = Hand(stud(), [1, 100, 100], deal(DEAD), dead=[1, 2])
    assert hand.is_over and hand.finishing_stacks == (3, 99, 99)


def test_random_hands_with_dead_seats_never_pay_a_dead_hand() -> None:
    import random

    from sevenstud.deck import Deck

    rng = random.Random(35)
    for _ in range(400):
        n = rng.randint(2, 8)
        stacks = [rng.choice([1, 2, 3, rng.randint(5, 60), 200]) for _ in range(n)]
        dead = [s for s in range(n) if rng.random() < 0.35]
        game = tournament_rules(rng.choice([stud(), StudHiLo(STAKES), Razz(STAKES)]))
        hand = Hand(game, stacks, Deck.seeded(rng.getrandbits(32)), dead=dead)
        while not hand.is_over:
            hand.act(rng.choice(hand.legal_actions()))
        assert sum(hand.finishing_stacks) == sum(stacks)
        if len(dead) < n:  # (everybody away: the last hand left takes the antes)
            assert all(hand.folded[s] for s in dead)
            assert not {a.seat for a in hand.awards} & set(dead)
        assert hand_from_record(hand_to_record(hand)).events == hand.events


def test_a_tournament_hand_with_dead_seats_written_as_phh_replays_to_its_result() -> None:
    """A tournament hand's PHH (the downloads') says what PHH has no field for in user fields,
    ``_tournament_rules`` and ``_dead``, and replays through the engine to the same stacks; the
    dealer's fold of a dead hand is not written as its player's action."""
    import random

    from sevenstud.deck import Deck
    from sevenstud.history.phh import dumps, loads
    from sevenstud.history.replay import play_phh, to_phh

    rng = random.Random(36)
    replayed = 0
    for _ in range(120):
        n = rng.randint(2, 8)
        stacks = [rng.choice([2, rng.randint(5, 60), 200]) for _ in range(n)]
        dead = [s for s in range(n) if rng.random() < 0.3]
        game = tournament_rules(rng.choice([stud(), StudHiLo(STAKES), Razz(STAKES)]))
        hand = Hand(game, stacks, Deck.seeded(rng.getrandbits(32)), dead=dead)
        while not hand.is_over:
            hand.act(rng.choice(hand.legal_actions()))
        written = to_phh(hand)
        assert written.extra.get("_tournament_rules") is True
        assert written.extra.get("_dead", []) == [s + 1 for s in sorted(dead)]
        again = play_phh(loads(dumps(written)))
        assert again.finishing_stacks == hand.finishing_stacks and again.dead == hand.dead
        replayed += 1
    assert replayed == 120
