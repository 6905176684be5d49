"""Issue 19's rulings at the table (docs/table.md, docs/rules.md): a player who leaves is out of
the hand whatever ``fold_without_bet`` says, a top-up deals in again a player the table sat out
for want of the ante, a restored table answers ``dealt_hand`` as the old one did, and stored
records from before keep restoring and replaying (a hand raked on 3rd street, a seat without
``short_of_ante``). The engine's side is in tests/rules/test_issue19_rulings.py."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from sevenstud.dealing import deck_for
from sevenstud.games import Game, Stakes, Stud
from sevenstud.hand import ActionKind, Hand
from sevenstud.table import SatIn, SatOut, StoodUp, Table, TableError, TableSettings
from sevenstud.wire import hand_from_record, hand_to_record

# ---------------------------------------------------------------- 2. a player who leaves is out

ANTES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
# Table seat 1 is the hand's seat 0: an ace showing on 4th street (the best board), nothing in
# the end; seat 2 (3c brings in) holds a pair of deuces.
LEAVER = ("Ks Qh 9d Ac 7h 5d 4c", "2c 2d 3c 6s 8h Tc Jd")


def two_seats(game: Game) -> Table:
    table = Table(TableSettings(game, seats=2, min_buy_in=20, max_buy_in=200))
    table.sit_down("ann", 1, 100, now=0)
    table.sit_down("bob", 2, 100, now=0)
    table.start_hand(now=1, deck=deck_for(LEAVER))
    table.act(2, "bring-in", now=2)
    table.act(1, "call", now=3)
    assert table.to_act == 1 and "check" in [str(a) for a in table.legal_actions()]
    return table


def stood_up(table: Table) -> dict[str, int]:
    entries = table.events_since(0, None)
    return {e.event.player: e.event.stack for e in entries if isinstance(e.event, StoodUp)}


def final_stacks(table: Table) -> dict[str, int]:
    return {s.player: s.stack for s in table.view(None).seats}


@pytest.mark.parametrize("fold_without_bet", [True, False])
def test_rule_a_leaver_is_folded_at_their_turn_with_nothing_to_call(fold_without_bet: bool) -> None:
    # Issue 19: with fold_without_bet off, the leaver was checked for, checked down and won.
    table = two_seats(Stud(ANTES, fold_without_bet=fold_without_bet))
    table.leave("ann", now=4)
    assert not table.hand_in_progress
    assert stood_up(table) == {"ann": 97} and final_stacks(table) == {"bob": 103}
    hand = table.dealt_hand(1)
    assert hand is not None and hand.folded == [True, False]
    assert hand.actions[-1] == (0, hand.actions[-1][1]) and hand.actions[-1][1].kind is ActionKind.FOLD


def test_rule_a_leaver_is_folded_when_the_turn_comes_with_nothing_to_call() -> None:
    # Bob acts first on 4th street (his board is the best) and checks; ann left during his turn.
    deck = deck_for(("2c 2d 3c As 8h Tc Jd", "Ks Qh 4d 5h 7h 8d 9c"))
    table = Table(TableSettings(Stud(ANTES, fold_without_bet=False), seats=2, min_buy_in=20))
    table.sit_down("bob", 1, 100, now=0)
    table.sit_down("ann", 2, 100, now=0)
    table.start_hand(now=1, deck=deck)
    table.act(1, "bring-in", now=2)
    table.act(2, "call", now=3)
    assert table.to_act == 1
    table.leave("ann", now=4)
    table.act(1, "check", now=5)
    assert not table.hand_in_progress and stood_up(table) == {"ann": 97}


def test_rule_fold_without_bet_still_binds_a_player_who_plays_on() -> None:
    table = two_seats(Stud(ANTES, fold_without_bet=False))
    with pytest.raises(TableError, match="check instead of folding"):
        table.act(1, "fold", now=4)


def test_rule_a_leavers_fold_is_recorded_and_replays() -> None:
    # The hand's record says "fold" where only a check was legal: it replays as the leaver's fold.
    table = two_seats(Stud(ANTES, fold_without_bet=False))
    table.leave("ann", now=4)
    hand = table.dealt_hand(1)
    assert hand is not None
    again = hand_from_record(json.loads(json.dumps(hand_to_record(hand))))
    assert again.events == hand.events and again.finishing_stacks == hand.finishing_stacks
    replayed = Hand.replay(hand.game, hand.starting_stacks, hand.deck.cards, hand.actions)
    assert replayed.events == hand.events
    restored = Table.from_record(json.loads(json.dumps(table.to_record())))
    assert restored.to_record() == table.to_record()


# ---------------------------------------------------------------- 5. the rake on 3rd street, stored

THREE_WAY = ("Kc Kd 2c", "3c 4d 5h", "As Ad 9c")  # seat 0 (2c) brings in


def test_rule_a_hand_record_from_before_the_option_replays_with_its_rake() -> None:
    game = Stud(ANTES, rake_percent=Fraction(10), rake_third_street=True)
    hand = Hand(game, [100, 100, 100], deck_for(THREE_WAY))
    for action in ("bring-in", "complete", "raise to 10", "fold", "fold"):
        hand.act(action)
    record = json.loads(json.dumps(hand_to_record(hand)))
    del record["game"]["rake_third_street"]  # as the engine wrote it before the option
    again = hand_from_record(record)
    assert again.rake == 1 and again.finishing_stacks == hand.finishing_stacks
    record["game"]["rake_third_street"] = False  # written out: the option as it says
    assert hand_from_record(record).rake == 0


# ---------------------------------------------------------------- 6. the table's words and deeds

SHORT_ANTE = Stud(Stakes(ante=2, bring_in=2, small_bet=4, big_bet=8))


def short_of_the_ante(now: float = 3) -> Table:
    """p1 (seat 1) folds to the bring-in and keeps 1 chip, less than the ante of 2: sat out."""
    table = Table(TableSettings(SHORT_ANTE, seats=3, min_buy_in=2, max_buy_in=100))
    table.sit_down("p1", 1, 3, now=0)
    table.sit_down("p2", 2, 50, now=0)
    table.start_hand(now=1, deck=deck_for(("Ks Kh Kd", "3c 4c 2c")))
    table.act(2, "bring-in", now=2)
    table.act(1, "fold", now=now)
    assert SatOut(1, "p1", "cannot post the ante") in [e.event for e in table.events_since(0, None)]
    return table


def test_rule_a_top_up_that_covers_the_ante_deals_the_player_in_again() -> None:
    table = short_of_the_ante()
    start = table.number
    table.top_up("p1", 1, now=4)
    assert [e.event for e in table.events_since(start, None)][1:] == [SatIn(1, "p1")]
    assert table.can_start_hand()
    with pytest.raises(TableError, match="sitting in already"):
        table.sit_in("p1", now=5)


def test_rule_a_top_up_short_of_the_ante_leaves_the_player_out() -> None:
    game = Stud(Stakes(ante=3, bring_in=2, small_bet=4, big_bet=8))
    table = Table(TableSettings(game, seats=3, min_buy_in=3))
    table.sit_down("p1", 1, 4, now=0)
    table.sit_down("p2", 2, 50, now=0)
    table.start_hand(now=1, deck=deck_for(("Ks Kh Kd", "3c 4c 2c")))
    table.act(2, "bring-in", now=2)
    table.act(1, "fold", now=3)  # 1 chip left, the ante is 3
    table.top_up("p1", 1, now=4)
    assert not table.can_start_hand()  # 2 chips: still short
    table.top_up("p1", 1, now=5)
    assert table.can_start_hand()


def test_rule_a_player_who_sat_out_by_choice_stays_out_after_a_top_up() -> None:
    table = Table(TableSettings(SHORT_ANTE, seats=3, min_buy_in=2, max_buy_in=100))
    table.sit_down("p1", 1, 3, now=0)
    table.sit_down("p2", 2, 50, now=0)
    table.start_hand(now=1, deck=deck_for(("Ks Kh Kd", "3c 4c 2c")))
    table.sit_out("p1", now=2)  # by choice, during the hand
    table.act(2, "bring-in", now=2)
    table.act(1, "fold", now=3)
    table.top_up("p1", 10, now=4)
    assert not table.can_start_hand()
    table.sit_in("p1", now=5)
    assert table.can_start_hand()


@pytest.mark.parametrize("stream", [True, False])
def test_rule_a_restored_table_answers_dealt_hand_as_the_old_one(stream: bool) -> None:
    table = short_of_the_ante()
    copy = Table.from_record(json.loads(json.dumps(table.to_record(stream=stream))))
    assert table.dealt_hand(1) is not None
    copy_hand = copy.dealt_hand(1)
    assert copy_hand is not None and copy_hand.events == table.dealt_hand(1).events  # type: ignore[union-attr]
    # ... and the restored table deals p1 in again after a top-up, as the old one does.
    for t in (table, copy):
        t.top_up("p1", 1, now=4)
        assert t.can_start_hand()
    assert copy.to_record(stream=stream) == table.to_record(stream=stream)


def test_rule_a_table_record_from_before_short_of_ante_still_restores() -> None:
    table = short_of_the_ante()
    record = json.loads(json.dumps(table.to_record()))
    for seat in record["seats"]:
        del seat["short_of_ante"]  # as a server stored it before the field
    copy = Table.from_record(record)
    assert copy.view(None) == table.view(None)
    copy.top_up("p1", 1, now=4)  # not known to be short of the ante: sit_in as before
    assert not copy.can_start_hand()
    copy.sit_in("p1", now=5)
    assert copy.can_start_hand()


def test_rule_a_record_short_of_the_ante_but_sitting_in_is_refused() -> None:
    table = short_of_the_ante()
    record = table.to_record()
    record["seats"][0]["sitting_out"] = False
    with pytest.raises(TableError, match="short of the ante but not sitting out"):
        Table.from_record(record)
