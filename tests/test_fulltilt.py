"""Full Tilt text histories (sevenstud.history.text.fulltilt): reading the real files, replaying every
stud hand exactly, the Full Tilt quirks, errors naming the line, writing and converting."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
from pathlib import Path

import pytest

from sevenstud.cli import main
from sevenstud.dealing import deck_for
from sevenstud.deck import Deck
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import ActionKind, ActionTaken, BetReturned, CardDealt, Hand
from sevenstud.history.convert import (
    convert,
    format_of,
    iter_loaded,
    to_fulltilt_text,
    to_phh_hand,
)
from sevenstud.history.phh import dumps_all
from sevenstud.history.pokerstars import PokerStarsError, PokerStarsHand
from sevenstud.history.replay import play_phh
from sevenstud.history.text.fulltilt import (
    FullTiltError,
    NotFullTiltError,
    format_fulltilt,
    play_fulltilt,
    read_fulltilt,
)

HH = Path(__file__).resolve().parents[2] / "shared" / "hh"
needs_hh = pytest.mark.skipif(
    not HH.is_dir(), reason=f"the real hand histories are not here ({HH} is absent)"
)
MIXED = "FullTilt_cash_10Game-6max-USD-2.50-5.201104.Sample.txt"
UNDERSCORE = "FullTilt_cash_7-StudHL-USD-2-4-201103.Underscore.in.tablename.txt"
BRING_IN_ALL_IN = "FullTilt_tour_Razz-USD-HUSNG-2-201102.Villain.allin.on.bringing.txt"
ANTE_ALL_IN = "FullTilt_tour_Razz-USD-HUSNG-200-201211.all.in.ante.txt"
# file: (stud hands, hands of other games)
RAKE_FROM_MAIN_POT = "29705138396"  # a side pot and a rake: Full Tilt's rake comes from the main pot
COUNTS = {MIXED: (30, 54), UNDERSCORE: (1, 0), BRING_IN_ALL_IN: (1, 0), ANTE_ALL_IN: (1, 0)}


def _hands(name: str) -> list[PokerStarsHand]:
    return list(read_fulltilt(HH / name).hands())


def _text(name: str) -> str:
    raw = (HH / name).read_bytes()
    return raw.decode("utf-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8")


@needs_hh
@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_full_tilt_stud_hand_is_read_and_other_games_are_counted(name: str) -> None:
    reader = read_fulltilt(HH / name)
    hands = list(reader)
    assert all(isinstance(h, PokerStarsHand) for h in hands), hands
    assert (len(hands), reader.skipped) == COUNTS[name]


@needs_hh
def test_the_mixed_session_names_the_games_it_skips() -> None:
    reader = read_fulltilt(HH / MIXED)
    games = {h.game for h in reader.hands()}
    assert games == {"stud", "stud8", "razz"}
    assert reader.skipped_games["Limit Hold'em"] == 10
    assert reader.skipped_games["Limit Badugi"] == 10
    assert sum(reader.skipped_games.values()) == 54


@needs_hh
@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_full_tilt_stud_hand_replays_exactly(name: str) -> None:
    for item in _hands(name):
        played = play_fulltilt(item)  # raises, naming the line, where our engine differs
        assert sum(a.amount for a in played.hand.awards) + played.hand.rake == item.total_pot


@needs_hh
def test_finishing_stacks_are_the_next_hands_starting_stacks() -> None:
    """Full Tilt writes no finishing stacks; the next hand at the table starts from them, except
    for a player who adds chips between hands ("Hero adds $0.40")."""
    text = _text(MIXED)
    hands = _hands(MIXED)
    compared = 0
    for this, following in itertools.pairwise(hands):
        lines = text.splitlines()[this.line - 1 : following.line - 1]
        if any(" Game #" in line and " - Limit " not in line for line in lines[1:]):
            continue  # another game's hand came between them
        if following.line - this.end_line > 10:
            continue
        added = {m.group(1) for line in lines if (m := re.match(r"^(\S+) adds ", line))}
        played = play_fulltilt(this)
        start = {s.name: s.stack for s in following.seats}
        for seat, name in enumerate(played.players):
            if name in start and name not in added:
                assert played.hand.stacks[seat] == start[name], (this.hand_id, name)
                compared += 1
    assert compared > 100


@needs_hh
def test_an_unmatched_ante_is_returned_before_the_deal() -> None:
    (item,) = _hands(ANTE_ALL_IN)
    hand = play_fulltilt(item).hand
    returned = [e for e in hand.events if isinstance(e, BetReturned)]
    first_deal = next(i for i, e in enumerate(hand.events) if isinstance(e, CardDealt))
    assert returned == [BetReturned(seat=0, amount=1)]
    assert hand.events.index(returned[0]) < first_deal
    assert hand.stacks == [994 - 6, 12]


@needs_hh
def test_an_all_in_on_the_bring_in_replays() -> None:
    (item,) = _hands(BRING_IN_ALL_IN)
    hand = play_fulltilt(item).hand
    bring_in = next(
        e for e in hand.events if isinstance(e, ActionTaken) and e.action.kind is ActionKind.BRING_IN
    )
    assert bring_in.all_in and bring_in.action.amount == 9
    assert hand.stacks == [0, 976 + 24]


@needs_hh
def test_tournament_and_cash_headers_and_table_names_with_underscores() -> None:
    (tour,) = _hands(ANTE_ALL_IN)
    assert (tour.tournament, tour.money, tour.small_bet, tour.big_bet, tour.ante) == (
        "243603038",
        False,
        40,
        80,
        7,
    )
    (cash,) = _hands(UNDERSCORE)
    assert (cash.table, cash.money, cash.small_bet, cash.big_bet, cash.tournament) == (
        "XGod_Of_WarX",
        True,
        200,
        400,
        None,
    )
    assert cash.date == "2011/03/28 01:12:00 ET"
    first = _hands(MIXED)[0]
    assert (first.table, first.max_seats, first.date) == ("Jackrabbit", 6, "2011/04/07 13:37:32 ET")


@needs_hh
def test_a_damaged_card_is_an_error_naming_the_line_and_the_reader_goes_on(tmp_path: Path) -> None:
    lines = _text(MIXED).splitlines()
    hands = _hands(MIXED)
    target = hands[0]
    deal = next(i for i in range(target.line, target.end_line) if lines[i].startswith("Dealt to Hero"))
    lines[deal] = re.sub(r"\[\w\w", "[of", lines[deal], count=1)
    damaged = tmp_path / "damaged.txt"
    damaged.write_text("\n".join(lines), encoding="utf-8")
    items = list(read_fulltilt(damaged))
    errors = [i for i in items if isinstance(i, FullTiltError)]
    assert len(errors) == 1 and errors[0].line == deal + 1
    assert f"line {deal + 1}: 'of' is not a card" in str(errors[0])
    assert len(items) == len(hands)  # the other hands are still read


@needs_hh
def test_an_amount_our_engine_disagrees_with_is_named_by_its_line(tmp_path: Path) -> None:
    text = _text(UNDERSCORE).replace("Hero wins the pot ($10.90)", "Hero wins the pot ($10.80)")
    path = tmp_path / "wrong.txt"
    path.write_text(text, encoding="utf-8")
    (item,) = read_fulltilt(path).hands()
    line = text.splitlines().index("Hero wins the pot ($10.80)") + 1
    with pytest.raises(PokerStarsError, match=f"line {line}: the file pays Hero 1080"):
        play_fulltilt(item)


def test_a_truncated_hand_and_a_foreign_file_are_clear_errors() -> None:
    text = "Full Tilt Poker Game #1: Table T - 5/10 Ante 1 - Limit Razz - 00:00:00 ET - 2024/01/01\n"
    text += "Seat 1: Ann (100)\nSeat 2: Bob (100)\nAnn antes 1\nBob antes 1\n*** 3RD STREET ***\n"
    (error,) = read_fulltilt(io.StringIO(text))
    assert isinstance(error, FullTiltError) and error.line == 6 and "truncated" in str(error)
    with pytest.raises(NotFullTiltError, match="line 1: not a Full Tilt hand history"):
        list(read_fulltilt(io.StringIO("PokerStars Hand #1: Razz Limit (5/10)\n")))


STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)


def _random_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    game = rng.choice([StudHiLo(STAKES), Stud(STAKES), Razz(STAKES)])
    n = rng.randint(2, 8)
    hand = Hand(game, [rng.randint(1, 150) for _ in range(n)], Deck.seeded(seed))
    while not hand.is_over:
        hand.act(rng.choice(hand.legal_actions()))
    return hand


@pytest.mark.parametrize("reveal", ["all", "hero"])
def test_written_full_tilt_text_reads_back_into_the_same_hand(reveal: str) -> None:
    for seed in range(300):
        hand = _random_hand(seed)
        text = format_fulltilt(
            hand,
            reveal="all" if reveal == "all" else (),
            hero=0 if reveal == "hero" else None,
            money=seed % 2 == 0,
            tournament="77" if seed % 2 else None,  # tournament chips are never money
            hand_id=seed + 1,
        )
        (item,) = read_fulltilt(io.StringIO(text)).hands()
        played = play_fulltilt(item).hand
        assert (played.stacks, played.awards) == (hand.stacks, hand.awards), (seed, text)
        assert (item.tournament, item.money) == (("77", False) if seed % 2 else (None, True))


@needs_hh
def test_full_tilt_converts_to_phh_and_pokerstars_and_back(tmp_path: Path) -> None:
    source = HH / UNDERSCORE
    expected = [i.hand.stacks for i in iter_loaded(source) if not isinstance(i, Exception)]
    assert convert(source, tmp_path / "a.phhs") == (1, [])
    assert convert(source, tmp_path / "a.txt") == (1, [])
    assert (tmp_path / "a.txt").read_text().startswith("PokerStars Hand #29408130000:")
    assert convert(tmp_path / "a.phhs", tmp_path / "b.txt", "fulltilt") == (1, [])
    assert (tmp_path / "b.txt").read_text().startswith("Full Tilt Poker Game #29408130000:")
    assert format_of(tmp_path / "b.txt") == "fulltilt"
    for path in ("a.phhs", "a.txt", "b.txt"):
        again = [i.hand.stacks for i in iter_loaded(tmp_path / path) if not isinstance(i, Exception)]
        assert again == expected, path


@needs_hh
def test_every_full_tilt_hand_goes_through_phh_and_back_to_full_tilt() -> None:
    for name in sorted(COUNTS):
        for loaded in iter_loaded(HH / name):
            if isinstance(loaded, Exception):
                continue
            phh = to_phh_hand(loaded)
            assert play_phh(phh).stacks == loaded.hand.stacks
            text = to_fulltilt_text(loaded)
            (item,) = read_fulltilt(io.StringIO(text)).hands()
            assert play_fulltilt(item).hand.stacks == loaded.hand.stacks
            assert (item.money, item.tournament) == (loaded.money, loaded.tournament)


def test_phh_converts_to_full_tilt_text(tmp_path: Path) -> None:
    from sevenstud.history.replay import to_phh

    hands = [_random_hand(s) for s in range(20)]
    (tmp_path / "many.phhs").write_text(dumps_all(to_phh(h) for h in hands))
    assert convert(tmp_path / "many.phhs", tmp_path / "many.txt", "fulltilt") == (20, [])
    items = list(read_fulltilt(tmp_path / "many.txt").hands())
    assert [play_fulltilt(i).hand.stacks for i in items] == [h.stacks for h in hands]


@needs_hh
def test_format_is_told_by_content_not_by_ending(tmp_path: Path) -> None:
    odd = tmp_path / "session.log"
    odd.write_bytes((HH / ANTE_ALL_IN).read_bytes())
    assert format_of(odd) == "fulltilt"
    assert format_of(HH / BRING_IN_ALL_IN) == "fulltilt"  # UTF-16
    assert main(["replay", str(odd)]) == 0


@needs_hh
def test_replay_command_replays_full_tilt_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(HH / UNDERSCORE), str(HH / ANTE_ALL_IN)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"{HH / UNDERSCORE}: hand #29408130000 (stud8): ok; Hero $10.90 (main pot)" in out
    assert out[-1] == "2 of 2 hands replayed"
    assert main(["replay", "--json", str(HH / MIXED)]) in (0, 1)
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    hands = [r for r in records if r["record"] == "hand"]
    (summary,) = [r for r in records if r["record"] == "file"]
    assert len(hands) == 30 and all(r["format"] == "fulltilt" for r in hands)
    assert (summary["hands"], summary["skipped"], summary["format"]) == (30, 54, "fulltilt")
    assert summary["skipped_games"]["Limit Hold'em"] == 10


@needs_hh
def test_show_steps_through_a_full_tilt_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(HH / UNDERSCORE)]) == 0
    out = capsys.readouterr().out
    assert "Hand #29408130000: Seven Card Stud Hi/Lo, $2/$4" in out
    assert "table 'XGod_Of_WarX'" in out
    assert "Hero          [5d Ah] Ad" in out or "[5d Ah] Ad" in out
    assert "Hero wins $10.90 (main pot)" in out
    assert main(["show", str(HH / BRING_IN_ALL_IN)]) == 0
    assert "bring-in 9, all-in" in capsys.readouterr().out


@needs_hh
def test_full_tilt_takes_the_rake_from_the_main_pot() -> None:
    """Hand #29705138396: a $10 side pot split $5/$5 whole, the $3 rake from the main pot."""
    (item,) = [h for h in _hands(MIXED) if h.hand_id == "29705138396"]
    awards = play_fulltilt(item).hand.awards
    assert sorted(a.amount for a in awards if a.pot == 1) == [500, 500]
    assert sorted(a.amount for a in awards if a.pot == 0) == [4105, 4105]


@needs_hh
def test_the_rake_from_the_main_pot_survives_phh() -> None:
    (loaded,) = [
        i
        for i in iter_loaded(HH / MIXED)
        if not isinstance(i, Exception) and i.hand_id == RAKE_FROM_MAIN_POT
    ]
    phh = to_phh_hand(loaded)
    assert phh.extra["_rake_from"] == "main_pot"
    assert play_phh(phh).stacks == loaded.hand.stacks


# A Full Tilt hand written for these tests in the site's format: Full Tilt lists a player's
# cards at the showdown in its own order (here Hero's two 3rd-street down cards swapped).
REORDERED_SHOWDOWN = """\
Full Tilt Poker Game #4242: Table Ogden - $2/$4 Ante $0.40 - Limit Stud Hi - 21:05:13 ET - 2011/05/02
Seat 1: Hero ($50)
Seat 2: Villain ($50)
Hero antes $0.40
Villain antes $0.40
*** 3RD STREET ***
Dealt to Hero [9h 9s] [5c]
Dealt to Villain [Qs]
Hero is low with [5c]
Hero brings in for $1
Villain calls $1
*** 4TH STREET ***
Dealt to Hero [9h 9s 5c] [3s]
Dealt to Villain [Qs] [7d]
Villain checks
Hero checks
*** 5TH STREET ***
Dealt to Hero [9h 9s 5c 3s] [Kh]
Dealt to Villain [Qs 7d] [4h]
Hero checks
Villain checks
*** 6TH STREET ***
Dealt to Hero [9h 9s 5c 3s Kh] [5d]
Dealt to Villain [Qs 7d 4h] [Jc]
Hero bets $4
Villain calls $4
*** 7TH STREET ***
Dealt to Hero [9h 9s 5c 3s Kh 5d] [8s]
Hero bets $4
Villain calls $4
*** SHOW DOWN ***
Hero shows [9s 9h 5c 3s Kh 5d 8s] two pair, Nines and Fives
Villain shows [2c Ad Qs 7d 4h Jc 6h] Ace Queen high
Hero wins the pot ($18.80)
*** SUMMARY ***
Total pot $18.80 | Rake $0
Seat 1: Hero showed [9s 9h 5c 3s Kh 5d 8s] and won ($18.80) with two pair, Nines and Fives
Seat 2: Villain showed [2c Ad Qs 7d 4h Jc 6h] and lost with Ace Queen high
"""


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


def test_down_cards_shown_in_another_order_than_dealt_match_as_a_set() -> None:
    """Rule: the down cards a showdown lists are the ones dealt to that player, in any order;
    our engine keeps the dealt order (Hero's first card stays 9h)."""
    (item,) = read_fulltilt(io.StringIO(REORDERED_SHOWDOWN)).hands()
    played = play_fulltilt(item)
    hero = played.players.index("Hero")
    assert [str(c) for c in played.hand.cards[hero]] == ["9h", "9s", "5c", "3s", "Kh", "5d", "8s"]
    assert played.hand.stacks[hero] == 5000 - 940 + 1880
    # The 7th-street down card may be listed among the 3rd-street ones, too.
    moved = REORDERED_SHOWDOWN.replace("[9s 9h 5c 3s Kh 5d 8s]", "[8s 9h 5c 3s Kh 5d 9s]")
    (item,) = read_fulltilt(io.StringIO(moved)).hands()
    assert play_fulltilt(item).hand.cards[hero] == played.hand.cards[hero]


@pytest.mark.parametrize(
    ("shown", "message"),
    [
        # A down card Hero was never dealt: refused, naming the show line and the deals.
        ("[9s 9d 5c 3s Kh 5d 8s]", r"Hero shows 9d among the down cards, but Hero was dealt \[9h 9s 8s\]"),
        # The up cards are seen by everyone and listed in their order: a swap is no reordering.
        ("[9h 9s 3s 5c Kh 5d 8s]", r"Hero's card 3 is 3s here but 5c on line 7"),
    ],
)
def test_a_shown_card_that_was_not_dealt_is_still_refused_naming_the_line(shown: str, message: str) -> None:
    """Rule: matching the down cards as a set accepts no card that was not dealt."""
    text = REORDERED_SHOWDOWN.replace("Hero shows [9s 9h 5c 3s Kh 5d 8s]", f"Hero shows {shown}")
    (item,) = read_fulltilt(io.StringIO(text)).hands()
    line = _line_of(text, "Hero shows")
    with pytest.raises(PokerStarsError, match=f"line {line}: {message}"):
        play_fulltilt(item)


@needs_hh
def test_a_full_tilt_hand_raked_from_the_main_pot_replays_as_pokerstars_text() -> None:
    """Rule: the PokerStars summary's ``Main pot X. Side pot Y.`` says which pots paid the rake,
    so hand #29705138396 (its $3 rake from the main pot, the $10 side pot paid whole) written as
    PokerStars text replays as Full Tilt played it."""
    from sevenstud.history.convert import to_pokerstars_text
    from sevenstud.history.pokerstars import play_pokerstars, read_hands

    (loaded,) = [
        i
        for i in iter_loaded(HH / MIXED)
        if not isinstance(i, Exception) and i.hand_id == RAKE_FROM_MAIN_POT
    ]
    (item,) = read_hands(io.StringIO(to_pokerstars_text(loaded))).hands()
    assert len(item.pots) == 2 and item.pots[1] == 1000
    assert play_pokerstars(item).hand.stacks == loaded.hand.stacks


def test_a_scoop_by_the_only_hand_shown_says_its_low() -> None:
    """Rule (docs/rules.md, "Hi/lo split"): the one hand shown, with a 6-5-4-3-A low, wins the
    high pot and the low pot (it was "wins the pot" and "No low hand qualified" before)."""
    deck = deck_for(["Ac 3d 4h 5d 6c Kd 9s", "Qc Jh 9d 7d 2c Ts 3s", "7h 8h Qd"])
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], deck)
    for action in ("bring-in", "call", "fold"):
        hand.act(action)
    while not hand.is_over:
        hand.act("check")
    text = format_fulltilt(hand, players=["Ann", "Bob", "Cid"], hero=0)
    lines = text.splitlines()
    showdown = lines[lines.index("*** SHOW DOWN ***") + 1 : lines.index("*** SUMMARY ***")]
    assert showdown == [
        "Ann shows [Ac 3d 4h 5d 6c Kd 9s] high card Ace, for high and 6,5,4,3,A, for low",
        "Bob mucks",
        "Ann wins the high pot (4)",
        "Ann wins the low pot (3)",
    ]
    (item,) = read_fulltilt(io.StringIO(text)).hands()
    assert play_fulltilt(item).hand.awards == hand.awards
