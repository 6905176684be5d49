"""Issue 19's rulings (docs/rules.md, docs/table.md): a short all-in completion on 3rd street is a
full bet that the bring-in may raise (Robert's Rules of Poker, betting and raising, rule 6), a
player who leaves is out of the hand whatever ``fold_without_bet`` says, no rake on a hand that
ends on 3rd street unless ``rake_third_street``, a top-up deals in again a player the table sat
out for want of the ante, and a restored table answers ``dealt_hand`` as the old one did."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from studtable import STAKES, new_hand, play, stud

from sevenstud.dealing import deck_for
from sevenstud.games import Game, Stakes, Stud, StudHiLo
from sevenstud.hand import ActionKind, Hand, IllegalAction, RakeTaken
from sevenstud.table import SatIn, SatOut, StoodUp, Table, TableError, TableSettings
from sevenstud.wire import hand_from_record, hand_to_record


def legal(hand: Hand) -> list[str]:
    return [str(a) for a in hand.legal_actions()]


# ---------------------------------------------------------------- 1. short all-in completions

# Seat 0 (2c) brings in; seat 1 is the short stack.
BRING_IN_0 = {0: "Kc Kd 2c", 1: "3c 4d 5h", 2: "As Ad 9c", 3: "Qc Jd Th"}


def short_hand(game: Game, stacks: list[int]) -> Hand:
    return new_hand(game, stacks, {s: BRING_IN_0[s] for s in range(len(stacks))})


def test_rule_6b_a_short_completion_of_half_a_bet_is_a_full_bet_the_bring_in_may_raise() -> None:
    # Issue 19: stud 1/2/5/10, stacks [100, 5, 100]: seat 1 completes all-in to 4 (4 of a bet
    # of 5, half a bet or more: a completion), seat 2 calls; the bring-in faces only 2 more and
    # may still fold, call or make a full raise (RRP 6 makes no exception for it).
    hand = short_hand(stud(), [100, 5, 100])
    play(hand, "0: bring-in", "1: complete to 4", "2: call")
    assert hand.betting.bets_made == 1
    assert hand.to_act == 0 and legal(hand) == ["fold", "call 4", "raise to 9"]
    play(hand, "0: raise to 9")
    assert legal(hand) == ["fold", "call 9", "raise to 14"]  # seat 2, reopened by the raise


def test_rule_6b_a_short_completion_reopens_to_who_called_the_bring_in_too() -> None:
    # Seat 3 called the bring-in; the all-in completion to 4 leaves it 2 more to call, under half
    # a bet, and it may raise all the same: one all-in of half a bet is a full bet.
    hand = short_hand(stud(), [100, 5, 100, 100])
    play(hand, "0: bring-in", "1: complete to 4", "2: call", "3: call")
    assert hand.to_act == 0 and legal(hand) == ["fold", "call 4", "raise to 9"]
    play(hand, "0: call")
    assert hand.street == 4  # nobody raised: the round is over


def test_rule_6b_the_short_completion_counts_toward_the_cap() -> None:
    # A cap of one bet: the all-in completion is that bet, and nobody may raise it.
    hand = short_hand(stud(max_raises=0), [100, 5, 100])
    play(hand, "0: bring-in", "1: complete to 4", "2: call")
    assert legal(hand) == ["fold", "call 4"]
    with pytest.raises(IllegalAction, match="capped"):
        hand.act("raise to 9")


def test_rule_6a_a_completion_under_the_reopen_fraction_still_does_not_reopen() -> None:
    # With reopen_fraction 1 only a full bet counts: the completion to 4 is not one, and the
    # bring-in, who has acted and faces less than a bet more, may only call or fold.
    hand = short_hand(stud(reopen_fraction=Fraction(1)), [100, 5, 100])
    play(hand, "0: bring-in", "1: complete to 4")
    assert legal(hand) == ["fold", "call 4", "complete to 5"]  # seat 2 has not acted
    play(hand, "2: call")
    assert hand.betting.bets_made == 0 and legal(hand) == ["fold", "call 4"]


def test_rule_6c_short_completions_that_only_add_up_reopen_to_who_faces_half_a_bet() -> None:
    # Bring-in 2, small bet 10: all-ins to 4 (2 of 10) and then 7 (3 more) come to 7 together,
    # at least half a bet: they count, but neither alone was half a bet. The bring-in faces 5
    # more and may raise; seat 3, who called the 4, faces 3 more and may only call.
    tens = Stud(Stakes(ante=1, bring_in=2, small_bet=10, big_bet=20))
    hands = {0: "Kc Kd 2c", 1: "3c 4d 5h", 2: "7c 7d 6h", 3: "As Ad 9c"}
    hand = new_hand(tens, [100, 5, 8, 100], hands)
    play(hand, "0: bring-in", "1: complete to 4", "2: complete to 7")
    assert hand.betting.bets_made == 1
    play(hand, "3: call")
    assert hand.to_act == 0 and legal(hand) == ["fold", "call 7", "raise to 17"]
    play(hand, "0: call")
    assert hand.street == 4  # seat 3 had called the 7: nobody is left to act


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


def test_rule_fold_out_is_refused_where_a_fold_is_not_a_fold() -> None:
    hand = new_hand(stud(fold_without_bet=False), [100, 100], {0: LEAVER[0][:8], 1: LEAVER[1][:8]})
    with pytest.raises(IllegalAction, match="bring-in must be posted"):
        hand.fold_out()  # seat 1 must bring in first
    with pytest.raises(IllegalAction, match="seat 0 cannot act now"):
        hand.fold_out(0)
    play(hand, "1: bring-in", "0: call")
    assert legal(hand) == ["check", "bet 5"]
    hand.fold_out(0)
    assert hand.is_over and hand.folded == [True, False]
    with pytest.raises(IllegalAction, match="the hand is over"):
        hand.fold_out()


# ---------------------------------------------------------------- 5. the rake on 3rd street

RAKED = Fraction(10)  # 10 per cent
THREE_WAY = {0: "Kc Kd 2c | 7d", 1: "3c 4d 5h | 8c", 2: "As Ad 9c | Qs"}


def won_on_fourth(game: Game) -> Hand:
    hand = new_hand(game, [100, 100, 100], THREE_WAY)
    play(hand, "0: bring-in", "1: complete", "2: call", "0: call", "2: bet 5", "0: fold", "1: fold")
    return hand


def test_rule_no_rake_on_a_hand_that_ends_on_third_street() -> None:
    hand = new_hand(stud(rake_percent=RAKED), [100, 100, 100], THREE_WAY)
    play(hand, "0: bring-in", "1: complete", "2: raise to 10", "0: fold", "1: fold")
    assert hand.is_over and hand.street == 3
    assert hand.rake == 0 and not any(isinstance(e, RakeTaken) for e in hand.events)
    assert sum(hand.finishing_stacks) == 300


def test_rule_rake_third_street_option_rakes_it() -> None:
    hand = new_hand(stud(rake_percent=RAKED, rake_third_street=True), [100, 100, 100], THREE_WAY)
    play(hand, "0: bring-in", "1: complete", "2: raise to 10", "0: fold", "1: fold")
    # The pot: antes 3, the bring-in 2, the completion 5 and the raise's 5 called... the raise's
    # uncalled 5 goes back: 15 in the pot, 10 per cent of it.
    assert hand.rake == 1 and sum(hand.finishing_stacks) == 299


def test_rule_a_hand_that_reaches_fourth_street_is_raked() -> None:
    hand = won_on_fourth(stud(rake_percent=RAKED))
    assert hand.street == 4 and hand.rake == 1  # 3 antes and 3 times 5: 18, 10 per cent


def test_rule_an_all_in_on_third_street_dealt_out_is_raked() -> None:
    hand = new_hand(stud(rake_percent=RAKED), [100, 6, 100], THREE_WAY)
    play(hand, "0: bring-in", "1: complete to 5", "2: call", "0: fold")
    assert hand.is_over and hand.street == 7 and hand.rake == 1  # 3 antes, 2, 5 and 5: 15


def test_rule_a_fixed_rake_from_a_history_is_taken_on_third_street_too() -> None:
    hand = new_hand(stud(), [100, 100, 100], THREE_WAY, rake=1)  # type: ignore[arg-type]
    play(hand, "0: bring-in", "1: complete", "2: raise to 10", "0: fold", "1: fold")
    assert hand.street == 3 and hand.rake == 1


def test_rule_a_hand_record_from_before_the_option_replays_with_its_rake() -> None:
    hand = new_hand(stud(rake_percent=RAKED, rake_third_street=True), [100, 100, 100], THREE_WAY)
    play(hand, "0: bring-in", "1: complete", "2: raise to 10", "0: fold", "1: fold")
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


def test_studhilo_keeps_the_options_default() -> None:
    assert StudHiLo(STAKES).rake_third_street is False
