"""Issue 19's rulings in the engine (docs/rules.md): a short all-in completion on 3rd street of
half a bet or more is a full bet that the bring-in may raise (Robert's Rules of Poker, betting and
raising, rule 6), a player folded out of the hand (``Hand.fold_out``: one who left the table)
whatever ``fold_without_bet`` says, and no rake on a hand that ends on 3rd street unless
``rake_third_street``. The table's side of them is in tests/test_table_issue19.py (this folder
also runs against the compiled engine, which has no table yet)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from studtable import STAKES, new_hand, play, stud

from sevenstud.games import Game, Stakes, Stud, StudHiLo
from sevenstud.hand import Hand, IllegalAction, RakeTaken


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


# ---------------------------------------------------------------- 2. a player folded out of the hand

# Seat 0 has an ace showing on 4th street (the best board); seat 1 (3c) brings in.
LEAVER = ("Ks Qh 9d Ac 7h 5d 4c", "2c 2d 3c 6s 8h Tc Jd")


def test_rule_fold_out_is_refused_where_a_fold_is_not_a_fold() -> None:
    hand = new_hand(stud(fold_without_bet=False), [100, 100], {0: LEAVER[0][:11], 1: LEAVER[1][:11]})
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


def test_rule_a_hand_folded_out_replays_from_its_actions() -> None:
    # The actions say "fold" where only a check was legal: a replay folds the hand out again.
    hand = new_hand(stud(fold_without_bet=False), [100, 100], {0: LEAVER[0][:11], 1: LEAVER[1][:11]})
    play(hand, "1: bring-in", "0: call")
    with pytest.raises(IllegalAction, match="check instead of folding"):
        hand.act("fold")  # the option binds a player who plays on
    hand.fold_out()
    replayed = Hand.replay(hand.game, hand.starting_stacks, hand.deck.cards, hand.actions)
    assert replayed.events == hand.events and replayed.finishing_stacks == (97, 103)


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


def test_studhilo_keeps_the_options_default() -> None:
    assert StudHiLo(STAKES).rake_third_street is False
