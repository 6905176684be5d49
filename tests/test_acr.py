"""Americas Cardroom (Winning Poker Network) text histories (sevenstud.history.text.acr): reading its
stud, stud hi/lo and razz hands, cash and tournament, replaying them exactly with the room's rake
and jackpot fee, errors naming the line, writing and converting both ways.

The hands here are our own, written line for line in the room's shapes (the old ``7Stud
H/L(Fixed Limit)`` header and the newer one with an ante, antes and deals in the room's order,
the rake growing street by street up to its cap, ``Rake $0.08 | JP Fee $0.02``)."""

# ruff: noqa: E501 (the room writes hand history lines longer than our code's lines)
from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from sevenstud.cli import main
from sevenstud.deck import Deck
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Hand
from sevenstud.history.convert import ConvertError, convert, format_of, iter_loaded, to_acr_text, to_phh_hand
from sevenstud.history.phh import dumps_all
from sevenstud.history.pokerstars import PokerStarsError, read_hands
from sevenstud.history.replay import play_phh, to_phh
from sevenstud.history.text.acr import (
    ACRError,
    ACRHand,
    NotACRError,
    format_acr,
    play_acr,
    read_acr,
)

# Stud hi/lo at $0.10/$0.20: a short stack all in on 6th street, a side pot, the main pot split
# high and low between two players and the side pot between two others; the room's rake reached
# its $0.10 cap on 6th street, before the side pot began, so the side pot paid none.
STUD8 = """\
Hand #1904471228 - 7Stud H/L(Fixed Limit) - $0.10/$0.20 - 2023/11/04 18:22:07 UTC
Bellwood 8-max
Seat 1: Marlowe ($12.40)
Seat 2: tinyhands ($3.15)
Seat 3: Quill Pen ($0.95)
Seat 4: Bexley ($6.00)
Seat 5: RazorJane ($9.20)
Quill Pen posts ante $0.02
RazorJane posts ante $0.02
Marlowe posts ante $0.02
Bexley posts ante $0.02
tinyhands posts ante $0.02
*** 3rd STREET ***
Main pot $0.10 | Rake $0.00
Dealt to Quill Pen [Qh]
Dealt to Bexley [2h 7c 5d]
Dealt to RazorJane [8h]
Dealt to Marlowe [6c]
Dealt to tinyhands [Kc]
Bexley brings in $0.05
RazorJane calls $0.05
Marlowe raises $0.10 to $0.10
tinyhands folds
Quill Pen calls $0.10
Bexley calls $0.05
RazorJane calls $0.05
*** 4th STREET ***
Main pot $0.48 | Rake $0.02
Dealt to Quill Pen [Qh] [5s]
Dealt to Bexley [2h 7c 5d] [6h]
Dealt to RazorJane [8h] [Jh]
Dealt to Marlowe [6c] [4h]
Quill Pen bets $0.10
Bexley calls $0.10
RazorJane folds
Marlowe raises $0.20 to $0.20
Quill Pen calls $0.10
Bexley calls $0.10
*** 5th STREET ***
Main pot $1.05 | Rake $0.05
Dealt to Quill Pen [Qh 5s] [7d]
Dealt to Bexley [2h 7c 5d 6h] [Ts]
Dealt to Marlowe [6c 4h] [8s]
Quill Pen bets $0.20
Bexley calls $0.20
Marlowe raises $0.40 to $0.40
Quill Pen calls $0.20
Bexley calls $0.20
*** 6th STREET ***
Main pot $2.20 | Rake $0.10
Dealt to Quill Pen [Qh 5s 7d] [Qd]
Dealt to Bexley [2h 7c 5d 6h Ts] [9c]
Dealt to Marlowe [6c 4h 8s] [Kd]
Quill Pen bets $0.20
Bexley calls $0.20
Marlowe raises $0.40 to $0.40
Quill Pen calls $0.03 and is all-in
Bexley calls $0.20
*** 7th STREET ***
Main pot $2.89 | Rake $0.10
Side pot(1) $0.34 | Rake $0.00
Dealt to Bexley [2h 7c 5d 6h Ts 9c] [Th]
Bexley bets $0.20
Marlowe calls $0.20
*** SHOW DOWN ***
Main pot $2.89 | Rake $0.10
Side pot(1) $0.74 | Rake $0.00
Bexley shows [2h 7c 5d 6h Ts 9c Th] (HI - a pair of Tens [Ts Th 9c 7c 6h])
Marlowe shows [As 3d 6c 4h 8s Kd 2c] (HI - a high card, Ace high [As Kd 8s 6c 4h] | LO - [6,4,3,2,1])
Quill Pen shows [Jd Jc Qh 5s 7d Qd 3s] (HI - two pair, Queens and Jacks [Qh Qd Jd Jc 7d])
Quill Pen collected $1.45 from main pot
Marlowe collected $1.44 from main pot
Bexley collected $0.37 from side pot-1
Marlowe collected $0.37 from side pot-1
*** SUMMARY ***
Total pot $3.63 | Rake $0.08 | JP Fee $0.02
Seat 1: Marlowe showed [As 3d 6c 4h 8s Kd 2c] and won $1.81 with HI - a high card, Ace high [As Kd 8s 6c 4h] | LO - [6,4,3,2,1]
Seat 2: tinyhands folded on the 3rd Street and did not bet
Seat 3: Quill Pen showed [Jd Jc Qh 5s 7d Qd 3s] and won $1.45 with HI - two pair, Queens and Jacks [Qh Qd Jd Jc 7d]
Seat 4: Bexley showed [2h 7c 5d 6h Ts 9c Th] and won $0.37 with HI - a pair of Tens [Ts Th 9c 7c 6h]
Seat 5: RazorJane folded on the 4th Street
"""

# Stud at $0.04/$0.08 (the newer header, with the ante): the pot won on 4th street without a
# showdown, written in the summary alone; no rake, so no "| Rake" in the summary.
STUD = """\
Hand #2672100415 - 7Stud (Fixed Limit) - $0.04/$0.08, Ante $0.01 - 2026/02/16 04:10:55 UTC
Kappa 8-max
Seat 2: wheelhouse ($2.11)
Seat 5: Dot Matrix ($4.80)
Seat 7: Gus_77 ($0.96)
Dot Matrix posts ante $0.01
Gus_77 posts ante $0.01
wheelhouse posts ante $0.01
*** 3rd STREET ***
Main pot $0.03 | Rake $0.00
Dealt to Gus_77 [3c]
Dealt to wheelhouse [7h]
Dealt to Dot Matrix [Ac Ah 9d]
Gus_77 brings in $0.02
wheelhouse calls $0.02
Dot Matrix raises $0.04 to $0.04
Gus_77 calls $0.02
wheelhouse folds
*** 4th STREET ***
Main pot $0.13 | Rake $0.00
Dealt to Gus_77 [3c] [9s]
Dealt to Dot Matrix [Ac Ah 9d] [Jc]
Dot Matrix checks
Gus_77 bets $0.04
Dot Matrix folds
Uncalled bet ($0.04) returned to Gus_77
Gus_77 does not show
*** SUMMARY ***
Total pot $0.13
Seat 2: wheelhouse folded on the 3rd Street
Seat 5: Dot Matrix folded on the 4th Street
Seat 7: Gus_77 did not show and won $0.13
"""

# A razz tournament hand, in chips: a short stack all in on 5th street, a side pot, one low
# winning both pots, a loser who shows and one who does not.
RAZZ = """\
Game Hand #2653090117 - Tournament #34380022 - Razz (Fixed Limit) - Level 3 (100.00/200.00) - 2026/01/24 05:40:12 UTC
Table '12' 8-max
Seat 1: ChipLeader (5400.00)
Seat 4: nit_wit (690.00)
Seat 6: Sam Spade (3100.00)
ChipLeader posts ante 20.00
nit_wit posts ante 20.00
Sam Spade posts ante 20.00
*** 3rd STREET ***
Main pot 60.00
Dealt to ChipLeader [9h]
Dealt to nit_wit [8c]
Dealt to Sam Spade [Kc Js 2h]
ChipLeader brings in 50.00
nit_wit raises 100.00 to 100.00
Sam Spade calls 100.00
ChipLeader raises 150.00 to 200.00
nit_wit calls 100.00
Sam Spade calls 100.00
*** 4th STREET ***
Main pot 660.00
Dealt to ChipLeader [9h] [3c]
Dealt to nit_wit [8c] [6s]
Dealt to Sam Spade [Kc Js 2h] [3h]
Sam Spade bets 100.00
ChipLeader calls 100.00
nit_wit calls 100.00
*** 5th STREET ***
Main pot 960.00
Dealt to ChipLeader [9h 3c] [4s]
Dealt to nit_wit [8c 6s] [Kh]
Dealt to Sam Spade [Kc Js 2h 3h] [8d]
Sam Spade bets 200.00
ChipLeader raises 400.00 to 400.00
nit_wit calls 370.00 and is all-in
Sam Spade calls 200.00
*** 6th STREET ***
Main pot 2070.00
Side pot(1) 60.00
Dealt to ChipLeader [9h 3c 4s] [Qd]
Dealt to nit_wit [8c 6s Kh] [4d]
Dealt to Sam Spade [Kc Js 2h 3h 8d] [7s]
Sam Spade checks
ChipLeader bets 200.00
Sam Spade calls 200.00
*** 7th STREET ***
Main pot 2070.00
Side pot(1) 460.00
Dealt to Sam Spade [Kc Js 2h 3h 8d 7s] [5h]
Sam Spade checks
ChipLeader checks
*** SHOW DOWN ***
Main pot 2070.00
Side pot(1) 460.00
ChipLeader shows [As 2d 9h 3c 4s Qd 6h] (LO - [6,4,3,2,1])
nit_wit shows [5c 7d 8c 6s Kh 4d Td] (LO - [8,7,6,5,4])
Sam Spade does not show
ChipLeader collected 2070.00 from main pot
ChipLeader collected 460.00 from side pot-1
*** SUMMARY ***
Total pot 2530.00
Seat 1: ChipLeader showed [As 2d 9h 3c 4s Qd 6h] and won 2530.00 with LO - [6,4,3,2,1]
Seat 4: nit_wit showed [5c 7d 8c 6s Kh 4d Td] and lost with LO - [8,7,6,5,4]
Seat 6: Sam Spade mucked
"""

# A hold'em hand of the same session: not stud, skipped and counted.
HOLDEM = """\
Hand #2672100999 - Holdem (No Limit) - $0.05/$0.10 - 2026/02/16 04:12:01 UTC
Kappa 6-max Seat #2 is the button
Seat 2: wheelhouse ($10.00)
Seat 5: Dot Matrix ($10.00)
Dot Matrix posts the small blind $0.05
wheelhouse posts the big blind $0.10
*** HOLE CARDS ***
Dot Matrix folds
Uncalled bet ($0.05) returned to wheelhouse
*** SUMMARY ***
Total pot $0.10
Seat 2: wheelhouse (big blind) did not show and won $0.10
Seat 5: Dot Matrix (small blind) folded on the Pre-Flop
"""

SESSION = "\n".join([STUD8, STUD, HOLDEM, RAZZ])


def _one(text: str) -> ACRHand:
    (item,) = read_acr(io.StringIO(text)).hands()
    return item


def _line(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


def _error(text: str) -> PokerStarsError:
    """The error reading or replaying the one hand of ``text`` gives."""
    (item,) = read_acr(io.StringIO(text))
    if isinstance(item, PokerStarsError):
        return item
    with pytest.raises(PokerStarsError) as caught:
        play_acr(item)
    return caught.value


def test_a_stud_hi_lo_hand_replays_with_its_side_pot_split_rake_and_jackpot_fee() -> None:
    """The rake and the jackpot fee come out of the main pot (the cap was reached before the side
    pot began), the main pot is split high and low, the side pot too; the summary's Total pot is
    what the players won."""
    item = _one(STUD8)
    assert (item.game, item.money, item.small_bet, item.big_bet, item.ante, item.bring_in) == (
        "stud8",
        True,
        10,
        20,
        2,
        5,
    )
    assert (item.rake, item.jackpot_fee, item.room_rake, item.total_pot - item.rake) == (10, 2, 8, 363)
    assert (item.table, item.max_seats, item.hero, item.date) == (
        "Bellwood",
        8,
        "Bexley",
        "2023/11/04 18:22:07 UTC",
    )
    played = play_acr(item)
    hand = played.hand
    assert hand.game.rake_from == "main_pot" and hand.rake == 10
    won = {(played.players[a.seat], a.pot, a.share): a.amount for a in hand.awards}
    assert won == {
        ("Quill Pen", 0, "high"): 145,
        ("Marlowe", 0, "low"): 144,
        ("Bexley", 1, "high"): 37,
        ("Marlowe", 1, "low"): 37,
    }
    assert hand.stacks == [1240 - 132 + 181, 315 - 2, 145, 600 - 132 + 37, 920 - 12]


def test_a_pot_won_without_a_showdown_is_paid_from_the_summary() -> None:
    item = _one(STUD)
    assert (item.game, item.ante, item.bring_in, item.rake, item.jackpot_fee) == ("stud", 1, 2, 0, 0)
    played = play_acr(item)
    assert [(played.players[a.seat], a.amount) for a in played.hand.awards] == [("Gus_77", 13)]
    assert played.seat_numbers == [2, 5, 7]
    assert played.hand.stacks == [208, 475, 104]


def test_a_play_money_ring_hand_counts_in_hundredths() -> None:
    """A ring game without the $ (play money) is written 0.04/0.08 like money, and counted so."""
    item = _one(STUD.replace("$", ""))
    assert (item.money, item.currency, item.symbol, item.small_bet) == (True, None, "", 4)
    assert play_acr(item).hand.stacks == [208, 475, 104]
    assert _one(STUD).currency == "USD"


def test_a_razz_tournament_hand_replays_in_chips() -> None:
    item = _one(RAZZ)
    assert (item.game, item.money, item.tournament, item.level, item.table) == (
        "razz",
        False,
        "34380022",
        3,
        "12",
    )
    assert (item.small_bet, item.big_bet, item.ante, item.bring_in) == (100, 200, 20, 50)
    hand = play_acr(item).hand
    assert [(a.seat, a.amount, a.pot) for a in hand.awards] == [(0, 2070, 0), (0, 460, 1)]
    assert hand.stacks == [5400 - 920 + 2530, 0, 3100 - 920]


def test_a_session_skips_and_counts_the_other_games() -> None:
    reader = read_acr(io.StringIO(SESSION))
    hands = list(reader.hands())
    assert [h.game for h in hands] == ["stud8", "stud", "razz"]
    assert (reader.skipped, dict(reader.skipped_games)) == (1, {"Holdem (No Limit)": 1})
    assert all(play_acr(h).hand.is_over for h in hands)


def test_the_pot_at_each_street_is_checked_against_our_engine() -> None:
    """Rule: the ``Main pot X | Rake Y`` line after a street's mark is the pot with the rake so far
    taken from it: X + Y is every chip put in."""
    text = STUD8.replace("Main pot $1.05 | Rake $0.05", "Main pot $1.06 | Rake $0.05")
    error = _error(text)
    assert error.line == _line(text, "Main pot $1.06")
    assert "the pot as 5th street begins is $1.11 with the rake taken so far" in str(error)
    assert "our engine's is $1.10" in str(error)


def test_the_pots_after_the_rake_must_be_the_rooms() -> None:
    """Rule: the showdown's pot lines are the pots the players are paid. Here they say the side
    pot paid a part of the rake, so every pot pays in proportion: $2.91 and $0.72 are left, not
    the $2.90 and $0.73 written (the collected lines are ours, so that the pots are what fails)."""
    text = STUD8.replace(
        "Main pot $2.89 | Rake $0.10\nSide pot(1) $0.74 | Rake $0.00\nBexley shows",
        "Main pot $2.90 | Rake $0.09\nSide pot(1) $0.73 | Rake $0.01\nBexley shows",
    )
    for ours, theirs in [
        ("Quill Pen collected $1.45", "Quill Pen collected $1.46"),
        ("Marlowe collected $1.44", "Marlowe collected $1.45"),
        ("Bexley collected $0.37", "Bexley collected $0.36"),
        ("Marlowe collected $0.37", "Marlowe collected $0.36"),
        ("and won $1.45 with", "and won $1.46 with"),
        ("and won $0.37 with", "and won $0.36 with"),
    ]:
        text = text.replace(ours, theirs)
    error = _error(text)
    assert error.line == _line(text, "Main pot $2.90")
    assert "the pots after the rake are $2.90, $0.73 (rake $0.10); our engine's, taking the rake in " in str(error)
    assert "proportion to each pot, are $2.91, $0.72 (rake $0.10)" in str(error)


def test_the_rake_and_the_jackpot_fee_must_add_up_to_what_the_showdown_takes() -> None:
    text = STUD8.replace("Rake $0.08 | JP Fee $0.02", "Rake $0.08 | JP Fee $0.03")
    error = _error(text)
    assert error.line == _line(text, "Total pot $3.63")
    assert "a rake of 8 and a jackpot fee of 3" in str(error) and "take 10 in all" in str(error)


def test_a_shown_hand_is_checked_by_its_best_five_and_its_low() -> None:
    """Rule: the five cards in brackets are the best high hand of the seven, and the low is the
    best eight-or-better low (written with the ace as 1)."""
    low = STUD8.replace("| LO - [6,4,3,2,1])\nQuill", "| LO - [6,5,3,2,1])\nQuill")
    error = _error(low)
    assert error.line == _line(low, "Marlowe shows")
    assert "Marlowe shows 6,5,3,2,A; our engine reads 6,4,3,2,A" in str(error)
    high = STUD8.replace("(HI - a pair of Tens [Ts Th 9c 7c 6h])", "(HI - a pair of Tens [Ts Th 9c 7c 5d])")
    error = _error(high)
    assert error.line == _line(high, "Bexley shows")
    assert "our engine reads the best hand as a pair of Tens" in str(error)
    razz = RAZZ.replace("(LO - [8,7,6,5,4])", "(LO - [8,7,6,5,3])")
    assert "nit_wit shows 8,7,6,5,3; our engine reads 8,7,6,5,4" in str(_error(razz))


def test_the_summary_and_the_collected_lines_must_agree() -> None:
    text = STUD8.replace("and won $1.45 with", "and won $1.46 with")
    error = _error(text)
    assert isinstance(error, ACRError) and error.line == _line(text, "Seat 3: Quill Pen showed")
    assert "the summary says Quill Pen won 146; the collected lines pay 145" in str(error)


def test_a_bad_line_is_refused_naming_it_and_the_reader_goes_on() -> None:
    """A raise whose two amounts disagree, a damaged card, an action of nobody seated: each is an
    error naming its line, and the next hand is still read."""
    raise_text = SESSION.replace(
        "Marlowe raises $0.40 to $0.40\nQuill Pen calls $0.20", "Marlowe raises $0.20 to $0.40\nQuill Pen calls $0.20"
    )
    card_text = SESSION.replace("Dealt to Sam Spade [Kc Js 2h]", "Dealt to Sam Spade [Kc Jz 2h]")
    ghost_text = SESSION.replace("Gus_77 bets $0.04", "Gus_78 bets $0.04")
    for text, start, words in [
        (raise_text, "Marlowe raises $0.20 to $0.40", "expected 'raises 40 to 40'"),
        (card_text, "Dealt to Sam Spade [Kc Jz", "'Jz' is not a card"),
        (ghost_text, "Gus_78 bets", "no seat holds the player who acts in 'Gus_78 bets $0.04'"),
    ]:
        items = list(read_acr(io.StringIO(text)))
        errors = [i for i in items if isinstance(i, ACRError)]
        assert len(errors) == 1 and len(items) == 3, items
        assert errors[0].line == _line(text, start) and words in str(errors[0])
        assert f"line {errors[0].line}: " in str(errors[0])


def test_a_missing_ante_is_named_at_the_3rd_street_mark() -> None:
    """Rule (the shared replayer, for every text format): an ante our engine takes and the file
    does not post is an error naming the 3rd-street mark, not a crash."""
    text = STUD.replace("wheelhouse posts ante $0.01\n", "")
    error = _error(text)
    assert error.line == _line(text, "*** 3rd STREET ***")
    assert "wheelhouse posts no ante in the file; our engine takes 1" in str(error)


def test_a_card_shown_for_a_street_the_player_never_saw_is_named() -> None:
    """Rule (the shared replayer): a card the file shows for a street after the player folded is
    no card of the deal; the error names the line that shows it."""
    text = STUD.replace("Dot Matrix raises $0.04 to $0.04\n", "Dot Matrix raises $0.04 to $0.04\nDot Matrix folds\n")
    error = _error(text)
    assert error.line == _line(text, "Dealt to Dot Matrix [Ac Ah 9d] [Jc]")
    assert "Jc is shown as Dot Matrix's card 4, but Dot Matrix folds on 3rd Street" in str(error)


def test_a_truncated_hand_and_a_foreign_file_are_clear_errors() -> None:
    cut = STUD.split("*** SUMMARY ***")[0]
    (error,) = read_acr(io.StringIO(cut))
    assert isinstance(error, ACRError) and "truncated" in str(error)
    with pytest.raises(NotACRError, match="line 1: not an Americas Cardroom hand history"):
        list(read_acr(io.StringIO("PokerStars Hand #1: Razz Limit (5/10)\n")))


STAKES = Stakes(ante=2, bring_in=5, small_bet=10, big_bet=20)


def _random_hand(seed: int) -> tuple[Hand, int]:
    """A random finished hand with a random rake taken from its pots by either rule, and the
    jackpot fee that is a part of it."""
    rng = random.Random(seed)
    rake_from = rng.choice(["each_pot", "main_pot"])
    game = rng.choice([StudHiLo, Stud, Razz])(STAKES, rake_from=rake_from)
    n = rng.randint(2, 8)
    rake = rng.choice([0, 0, 3, 10, 40])
    hand = Hand(game, [rng.randint(1, 300) for _ in range(n)], Deck.seeded(seed), rake=rake)
    while not hand.is_over:
        hand.act(rng.choice(hand.legal_actions()))
    return hand, rng.randint(0, hand.rake)


@pytest.mark.parametrize("reveal", ["all", "hero"])
def test_written_acr_text_reads_back_into_the_same_hand(reveal: str) -> None:
    """Rule: our hand, written as ACR text and read back, is the same hand: the same awards from
    the same pots (whichever way its rake was taken) and the same jackpot fee."""
    for seed in range(300):
        hand, fee = _random_hand(seed)
        tournament = "77" if seed % 2 else None
        text = format_acr(
            hand,
            reveal="all" if reveal == "all" else (),
            hero=0 if reveal == "hero" else None,
            money=tournament is None,
            tournament=tournament,
            hand_id=seed + 1,
            jackpot_fee=fee,
        )
        item = _one(text)
        played = play_acr(item).hand
        assert (played.stacks, played.awards, played.rake) == (hand.stacks, hand.awards, hand.rake), text
        assert (item.tournament, item.money, item.jackpot_fee) == (tournament, tournament is None, fee)


def test_a_side_pot_raked_in_proportion_is_replayed_so() -> None:
    """A room that rakes every pot in proportion shows rake on the side pot's line at the showdown;
    the hand is then replayed taking it so."""
    for seed in range(200):
        hand, _ = _random_hand(seed)
        taken = [p for p in hand.final_pots]
        if hand.game.rake_from != "each_pot" or len(taken) < 2 or hand.rake < 10:
            continue
        item = _one(format_acr(hand, money=True))
        if not any(p.rake for p in item.pot_lines if p.street == 8 and p.pot):
            continue
        assert play_acr(item).hand.game.rake_from == "each_pot"
        break
    else:
        pytest.fail("no random hand had a raked side pot")


def test_acr_converts_to_phh_pokerstars_and_full_tilt_and_back(tmp_path: Path) -> None:
    source = tmp_path / "session.txt"
    source.write_text(SESSION, encoding="utf-8")
    assert format_of(source) == "acr"
    expected = [(i.hand.stacks, i.jackpot_fee) for i in iter_loaded(source) if not isinstance(i, Exception)]
    assert [fee for _, fee in expected] == [2, 0, 0]
    assert convert(source, tmp_path / "a.phhs") == (3, [])
    assert convert(source, tmp_path / "a.txt") == (3, [])
    # Full Tilt dealt no $0.04/$0.08 ring game: written as one all the same only when asked
    with pytest.raises(ConvertError, match="Full Tilt dealt no ring game"):
        convert(source, tmp_path / "f.txt", "fulltilt")
    assert convert(source, tmp_path / "f.txt", "fulltilt", ring=True) == (3, [])
    assert convert(tmp_path / "a.phhs", tmp_path / "b.txt", "acr") == (3, [])
    assert (tmp_path / "b.txt").read_text().startswith("Hand #1904471228 - 7Stud H/L (Fixed Limit)")
    assert "Total pot $3.63 | Rake $0.08 | JP Fee $0.02" in (tmp_path / "b.txt").read_text()
    assert format_of(tmp_path / "b.txt") == "acr"
    for name in ("a.phhs", "a.txt", "f.txt", "b.txt"):
        again = [i for i in iter_loaded(tmp_path / name) if not isinstance(i, Exception)]
        assert [i.hand.stacks for i in again] == [s for s, _ in expected], name
    for name in ("a.phhs", "b.txt"):  # the formats that keep the jackpot fee apart
        fees = [i.jackpot_fee for i in iter_loaded(tmp_path / name) if not isinstance(i, Exception)]
        assert fees == [2, 0, 0], name


def test_every_acr_hand_goes_through_phh_and_back_to_acr_text() -> None:
    path_items = list(read_acr(io.StringIO(SESSION)).hands())
    for item in path_items:
        played = play_acr(item)
        loaded = next(
            i
            for i in iter_loaded_text(SESSION)
            if not isinstance(i, Exception) and i.hand_id == item.hand_id
        )
        phh = to_phh_hand(loaded)
        assert play_phh(phh).stacks == played.hand.stacks
        again = _one(to_acr_text(loaded))
        assert play_acr(again).hand.stacks == played.hand.stacks
        kept = (again.money, again.tournament, again.jackpot_fee)
        assert kept == (item.money, item.tournament, item.jackpot_fee)


def iter_loaded_text(text: str) -> list[object]:
    """iter_loaded over a text, through a temporary file of its own."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.txt"
        path.write_text(text, encoding="utf-8")
        return list(iter_loaded(path))


def test_pokerstars_text_of_a_hand_raked_from_the_main_pot_replays() -> None:
    """Rule: a PokerStars summary that lists the pots (``Main pot $2.89. Side pot $0.74.``) says
    which pots paid the rake; a hand from a room that rakes the main pot first (ACR, Full Tilt)
    written as PokerStars text replays so, where taking it from every pot would not."""
    loaded = next(i for i in iter_loaded_text(STUD8) if not isinstance(i, Exception))
    from sevenstud.history.convert import to_pokerstars_text
    from sevenstud.history.pokerstars import play_pokerstars

    text = to_pokerstars_text(loaded)
    assert "Main pot $2.89. Side pot $0.74. | Rake $0.10" in text
    (item,) = read_hands(io.StringIO(text)).hands()
    assert item.pots == (289, 74)
    played = play_pokerstars(item)
    assert played.hand.stacks == loaded.hand.stacks and played.hand.game.rake_from == "main_pot"


def test_phh_and_pokerstars_convert_to_acr_text(tmp_path: Path) -> None:
    hands = [_random_hand(s)[0] for s in range(20)]
    raked = [{"_rake": h.rake, "_rake_from": h.game.rake_from} if h.rake else {} for h in hands]
    phh = dumps_all(to_phh(h, extra=x) for h, x in zip(hands, raked, strict=True))
    (tmp_path / "many.phhs").write_text(phh)
    assert convert(tmp_path / "many.phhs", tmp_path / "many.txt", "acr") == (20, [])
    items = list(read_acr(tmp_path / "many.txt").hands())
    assert [play_acr(i).hand.stacks for i in items] == [h.stacks for h in hands]
    assert convert(tmp_path / "many.phhs", tmp_path / "ps.txt", "pokerstars") == (20, [])
    assert convert(tmp_path / "ps.txt", tmp_path / "back.txt", "acr") == (20, [])
    again = list(read_acr(tmp_path / "back.txt").hands())
    assert [play_acr(i).hand.stacks for i in again] == [h.stacks for h in hands]


def test_replay_show_and_convert_commands_read_acr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "HH20231104 Bellwood.log"  # the format comes from the content, not the name
    path.write_text(SESSION, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    paid = (
        "Quill Pen $1.45 (main pot, high half), Marlowe $1.44 (main pot, low half), "
        "Bexley $0.37 (side pot 1, high half), Marlowe $0.37 (side pot 1, low half)"
    )
    assert f"{path}: hand #1904471228 (stud8): ok; {paid}" in out
    assert f"{path}: 1 hand(s) of other games skipped (1 Holdem (No Limit))" in out
    assert out[-1] == "3 of 3 hands replayed"
    assert main(["replay", "--json", str(path)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["format"] for r in records if r["record"] == "hand"] == ["acr"] * 3
    assert main(["show", str(path), "--hand", "#2653090117"]) == 0
    shown = capsys.readouterr().out
    assert "Hand #2653090117: Razz, 100/200 (ante 20, bring-in 50), table '12'" in shown
    assert main(["convert", str(path), str(tmp_path / "out.txt"), "--to", "acr", "--hero", "Marlowe"]) == 0
    written = (tmp_path / "out.txt").read_text()
    assert "Dealt to Marlowe [As 3d 6c]" in written
    capsys.readouterr()


def test_damaged_hands_are_errors_never_a_crash() -> None:
    """Rule: whatever a line says (cut short, doubled, dropped, a word changed), reading and
    replaying an ACR hand ends in the hand or a :class:`PokerStarsError` naming a line, never
    another exception (the longer soak found the two replayer bugs tested above)."""
    rng = random.Random(19)
    words = ["$0.05", "[Xx]", "", "raises", "to", "(", ")", "|", "Rake", "9.999", "[As]", "-", "and is all-in"]
    for _ in range(400):
        lines = SESSION.splitlines()
        k = rng.randrange(len(lines))
        op = rng.randrange(4)
        if op == 0:
            del lines[k]
        elif op == 1:
            lines.insert(k, lines[rng.randrange(len(lines))])
        elif op == 2:
            parts = lines[k].split(" ")
            parts[rng.randrange(len(parts))] = rng.choice(words)
            lines[k] = " ".join(parts)
        else:
            lines[k] = lines[k][: rng.randrange(len(lines[k]) + 1)]
        try:
            for item in read_acr(io.StringIO("\n".join(lines))):
                if isinstance(item, ACRHand):
                    try:
                        play_acr(item)
                    except PokerStarsError as error:
                        assert error.line is not None, error
                else:
                    assert item.line is not None, item
        except NotACRError:
            assert k == 0
