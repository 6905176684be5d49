"""PokerStars text hand histories: reading, replaying through our engine, writing, converting to
and from PHH, and the ``replay``/``convert``/``show`` commands (sevenstud.history.pokerstars,
.convert, .show).

The real histories are read from the ``shared/hh`` folder beside the repository at test time
(they are AGPL test data of the fpdb project and are never copied here); the tests that need them
skip with a message when the folder is absent.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from sevenstud.cli import main
from sevenstud.dealing import deck_for
from sevenstud.deck import Deck
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import ActionTaken, BetReturned, Hand
from sevenstud.history.convert import (
    ConvertError,
    convert,
    iter_loaded,
    loaded_from_phh,
    to_phh_hand,
    to_pokerstars_text,
)
from sevenstud.history.phh import dumps, loads
from sevenstud.history.pokerstars import (
    NotPokerStarsError,
    PokerStarsError,
    PokerStarsHand,
    format_hand,
    play_pokerstars,
    read_hands,
)
from sevenstud.history.replay import play_phh, to_phh
from sevenstud.history.show import pick, render, show

HH = Path(__file__).resolve().parents[2] / "shared" / "hh"
needs_hh = pytest.mark.skipif(
    not HH.is_dir(),
    reason=f"the real hand histories are not there ({HH}: the shared folder beside the repo)",
)

# file -> (stud hands read, including the ones that cannot be read; other games skipped)
COUNTS = {
    "PokerStars_cash_7-Stud-USD-0.04-0.08-200911.txt": (11, 0),
    "PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.Cardtest.txt": (1, 0),
    "PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.txt": (7, 0),
    "PokerStars_cash_Razz-USD-0.04-0.08-200911.txt": (9, 0),
    "PokerStars_tour_7-StudHL-USD-10-1-200906.PT2.export.txt": (1, 0),
    "PokerStars_tour_8-Game-2max-STT-play-100-201306.homeGame.shootout.txt": (53, 84),
    "PokerStars_tour_Razz-8max-USD-200-15-201009.bracket.in.alias.txt": (1, 0),
    "PokerStars_tour_Triple-Stud-USD-2.00-0.20-MTT-201301.txt": (1, 0),
}
DAMAGED = {"91733835979": (46, "'of' is not a card")}  # the river card printed as [of]
# On 4th street denny501 folds although nobody has bet: the card room allows it, and so do we
# (the game option fold_without_bet, on by default). Line 46 of the Cardtest file, 369 of the other.
FOLD_INSTEAD_OF_CHECK = "35874676388"
ODD_CENT_HAND = "35874576282"

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAMES = [StudHiLo(STAKES), Stud(STAKES), Razz(STAKES)]


def _items(name: str) -> list[PokerStarsHand | PokerStarsError]:
    return list(read_hands(HH / name))


def _actions(hand: Hand) -> list[tuple[int, int, object, bool]]:
    return [(e.seat, e.street, e.action, e.all_in) for e in hand.events if isinstance(e, ActionTaken)]


# ------------------------------------------------------------------------ the real files


@needs_hh
@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_real_file_reads_its_stud_hands_and_counts_the_others(name: str) -> None:
    reader = read_hands(HH / name)
    items = list(reader)
    hands, skipped = COUNTS[name]
    assert len(items) == hands
    assert reader.skipped == skipped
    assert reader.read + reader.failed == hands


@needs_hh
def test_the_mixed_game_file_skips_every_other_game_by_name() -> None:
    reader = read_hands(HH / "PokerStars_tour_8-Game-2max-STT-play-100-201306.homeGame.shootout.txt")
    hands = [h for h in reader if isinstance(h, PokerStarsHand)]
    assert Counter(h.game for h in hands) == {"stud8": 18, "stud": 16, "razz": 19}
    # A forced player who completes at once hides the bring-in: an earlier hand at the same
    # stakes tells it (9 at 30/60, 12 at 40/80).
    bring_ins = {(h.small_bet, play_pokerstars(h).hand.game.stakes.bring_in) for h in hands}
    assert bring_ins == {(30, 9), (40, 12)}
    assert reader.skipped_games == {
        "Hold'em Limit": 24,
        "Hold'em No Limit": 24,
        "Omaha Hi/Lo Limit": 17,
        "Omaha Pot Limit": 1,
        "Triple Draw 2-7 Lowball Limit": 18,
    }


@needs_hh
def test_full_tilt_files_are_not_pokerstars() -> None:
    files = sorted(HH.glob("FullTilt_*.txt"))
    assert files
    for path in files:
        with pytest.raises(NotPokerStarsError, match="not a PokerStars hand history"):
            list(read_hands(path))


@needs_hh
@pytest.mark.parametrize("name", sorted(COUNTS))
def test_every_pokerstars_stud_hand_replays_exactly_but_the_damaged_one(name: str) -> None:
    for item in _items(name):
        if isinstance(item, PokerStarsError):
            assert item.hand_id in DAMAGED, str(item)
            line, reason = DAMAGED[item.hand_id]
            assert item.line == line and reason in str(item) and name in str(item)
            continue
        played = play_pokerstars(item)
        hand = played.hand
        assert hand.is_over
        assert sum(a.amount for a in hand.awards) + hand.rake == item.total_pot
        assert hand.rake == item.rake


@needs_hh
def test_a_fold_when_checking_is_possible_replays() -> None:
    for name in (
        "PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.Cardtest.txt",
        "PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.txt",
    ):
        (item,) = [i for i in _items(name) if i.hand_id == FOLD_INSTEAD_OF_CHECK]
        assert isinstance(item, PokerStarsHand)
        played = play_pokerstars(item)
        folds = [e for e in played.hand.events if isinstance(e, ActionTaken) and e.street == 4]
        assert any(e.action.kind.value == "fold" for e in folds)


@needs_hh
def test_the_odd_cent_split_pays_the_high_half_the_odd_cent() -> None:
    items = _items("PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.txt")
    (item,) = [i for i in items if isinstance(i, PokerStarsHand) and i.hand_id == ODD_CENT_HAND]
    played = play_pokerstars(item)
    awards = [(played.players[a.seat], a.amount, a.share) for a in played.hand.awards]
    assert awards == [("u.pressure", 37, "high"), ("gashpor", 36, "low")]
    assert (item.total_pot, item.rake, played.hand.rake) == (76, 3, 3)
    assert item.money and item.currency == "USD" and (item.small_bet, item.big_bet) == (4, 8)


@needs_hh
def test_what_the_reader_takes_from_headers_seats_and_antes() -> None:
    (tour,) = _items("PokerStars_tour_Razz-8max-USD-200-15-201009.bracket.in.alias.txt")
    assert isinstance(tour, PokerStarsHand)
    assert (tour.game, tour.money, tour.tournament, tour.small_bet, tour.big_bet) == (
        "razz",
        False,
        "2010090015",
        50,
        100,
    )
    assert (tour.ante, tour.bring_in, tour.hero) == (10, 15, "Hero")
    assert "PC [Mittel]" in tour.players  # a name with brackets and a space
    (pt2,) = _items("PokerStars_tour_7-StudHL-USD-10-1-200906.PT2.export.txt")
    assert isinstance(pt2, PokerStarsHand)
    assert (pt2.game, pt2.small_bet, pt2.ante, pt2.bring_in) == ("stud8", 25, 5, 10)
    assert [s.sitting_out for s in pt2.seats].count(True) == 1  # sitting out, but dealt in
    assert len(pt2.players) == 8


@needs_hh
def test_a_byte_order_mark_and_crlf_line_endings_read_the_same(tmp_path: Path) -> None:
    source = HH / "PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.txt"
    text = source.read_bytes().decode("utf-8")
    plain = [(h.hand_id, h.events) for h in read_hands(source) if isinstance(h, PokerStarsHand)]
    variants = {
        "crlf.txt": text.replace("\n", "\r\n").encode(),
        "bom.txt": b"\xef\xbb\xbf" + text.encode(),
        "bom-crlf.txt": b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode(),
        "utf16.txt": text.encode("utf-16"),
    }
    for name, data in variants.items():
        path = tmp_path / name
        path.write_bytes(data)
        again = [(h.hand_id, h.events) for h in read_hands(path) if isinstance(h, PokerStarsHand)]
        assert again == plain, name
    # Two files glued together, each with its byte-order mark and CRLF endings.
    glued = tmp_path / "glued.txt"
    glued.write_bytes(variants["bom-crlf.txt"] * 2)
    assert [h for h, _ in plain] * 2 == [
        h.hand_id for h in read_hands(glued) if isinstance(h, PokerStarsHand)
    ]
    # And the other way: the mixed-game file (BOM and CRLF) without them.
    mixed = HH / "PokerStars_tour_8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"
    bare = tmp_path / "bare.txt"
    bare.write_bytes(mixed.read_bytes()[3:].replace(b"\r\n", b"\n"))
    assert [(h.hand_id, h.events) for h in read_hands(bare) if isinstance(h, PokerStarsHand)] == [
        (h.hand_id, h.events) for h in read_hands(mixed) if isinstance(h, PokerStarsHand)
    ]


@needs_hh
def test_a_truncated_hand_is_an_error_naming_file_and_line_and_the_rest_is_read(
    tmp_path: Path,
) -> None:
    lines = (HH / "PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.txt").read_text().splitlines()
    starts = [i for i, line in enumerate(lines) if re.match(r"PokerStars (Game|Hand) #", line)]
    cut = lines[: starts[1] + 30] + lines[starts[2] :]  # hand 2 stops on 4th street
    path = tmp_path / "cut.txt"
    path.write_text("\n".join(cut) + "\n")
    items = list(read_hands(path))
    errors = [i for i in items if isinstance(i, PokerStarsError)]
    assert len(items) == 7 and len(errors) == 1
    (error,) = errors
    assert error.line == starts[1] + 30 and error.file == str(path)
    assert f"{path}, line {starts[1] + 30}:" in str(error)
    assert "expected the rest of the hand up to '*** SUMMARY ***'" in str(error)
    assert all(play_pokerstars(i) for i in items[2:] if isinstance(i, PokerStarsHand))
    # Cut at the end of the file, too.
    path.write_text("\n".join(lines[: starts[1] + 30]))
    *good, last = list(read_hands(path))
    assert len(good) == 1 and isinstance(last, PokerStarsError) and last.line == starts[1] + 30


@needs_hh
def test_a_damaged_line_is_an_error_naming_it_and_what_was_expected(tmp_path: Path) -> None:
    lines = (HH / "PokerStars_cash_Razz-USD-0.04-0.08-200911.txt").read_text().splitlines()
    calls = next(i for i, line in enumerate(lines) if ": calls $" in line)
    second = [i for i, line in enumerate(lines) if line.startswith("PokerStars")][1]
    checks = next(i for i, line in enumerate(lines) if i > second and line.startswith("*** 4th"))
    lines[calls] = lines[calls].replace("calls $", "callz $")
    lines[checks] = "*** FLOP *** [Ah Kd 2c]"
    path = tmp_path / "damaged.txt"
    path.write_text("\n".join(lines))
    errors = [i for i in read_hands(path) if isinstance(i, PokerStarsError)]
    assert errors[0].line == calls + 1 and "unknown action 'callz" in str(errors[0])
    assert "expected posts the ante" in str(errors[0])
    assert any(e.line == checks + 1 and "not a stud section" in str(e) for e in errors)
    assert len(list(read_hands(path))) == 9


# ------------------------------------------------------------------------ writing: round trips


def random_hand(seed: int, *, raked: bool = True) -> tuple[Hand, random.Random]:
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    rake = rng.choice([None, None, 1, 3]) if raked else None
    stacks = [rng.randint(1, 120) for _ in range(n)]
    hand = Hand(rng.choice(GAMES), stacks, Deck.seeded(seed), rake=rake)
    while not hand.is_over:
        hand.act(rng.choice(hand.legal_actions()))
    return hand, rng


def test_round_trip_of_thousands_of_random_hands_of_all_three_games() -> None:
    views = Counter[str]()
    for seed in range(3000):
        hand, rng = random_hand(seed)
        view = rng.choice(["hero", "spectator", "all"])
        views[view + hand.game.code] += 1
        text = format_hand(
            hand,
            hero=rng.randrange(hand.n) if view == "hero" else None,
            reveal="all" if view == "all" else (),
            money=rng.random() < 0.3,
            hand_id=seed,
        )
        (item,) = read_hands(io.StringIO(text))
        assert isinstance(item, PokerStarsHand), (seed, item)
        again = play_pokerstars(item).hand
        assert _actions(again) == _actions(hand), seed
        assert again.awards == hand.awards, seed
        assert again.stacks == hand.stacks, seed
        assert (again.rake, again.game.code) == (hand.rake, hand.game.code)
    assert len(views) == 9


def test_stakes_and_cards_read_back_as_written() -> None:
    hand, _ = random_hand(4)
    while hand.bring_in_seat is None or not any(
        isinstance(e, ActionTaken) and e.action.kind.value == "bring-in" for e in hand.events
    ):
        hand, _ = random_hand(hand.n * 1000 + len(hand.events))
    (item,) = read_hands(io.StringIO(format_hand(hand, reveal="all", money=True)))
    assert isinstance(item, PokerStarsHand)
    played = play_pokerstars(item)
    assert played.hand.game == hand.game
    assert played.hand.cards == hand.cards and not played.unknown
    assert played.hand.bring_in_seat == hand.bring_in_seat


def test_the_community_card_is_written_and_read_back() -> None:
    hand = Hand(StudHiLo(STAKES), [100] * 8, Deck.seeded(11))
    while not hand.is_over:
        passive = [a for a in hand.legal_actions() if a.kind.value in ("check", "call", "bring-in")]
        hand.act(passive[0])
    assert hand.community is not None
    for hero in (None, 0, 5):
        text = format_hand(hand, hero=hero)
        assert f"*** RIVER *** [{hand.community}]" in text and f"Board [{hand.community}]" in text
        (item,) = read_hands(io.StringIO(text))
        assert isinstance(item, PokerStarsHand)
        again = play_pokerstars(item).hand
        assert again.community == hand.community
        assert (again.awards, again.stacks) == (hand.awards, hand.stacks)


def test_what_the_writer_writes_for_a_viewer() -> None:
    hand, _ = random_hand(21)
    for seed in range(22, 400):
        if len([s for s in range(hand.n) if not hand.folded[s]]) >= 2 and hand.game.code == "stud8":
            break
        hand, _ = random_hand(seed)
    text = format_hand(hand, hero=0, players=[f"P{i}" for i in range(hand.n)])
    cards = hand.cards
    assert f"Dealt to P0 [{cards[0][0]} {cards[0][1]} {cards[0][2]}]" in text
    assert f"Dealt to P1 [{cards[1][2]}]" in text  # only the door card of another player
    assert "*** SHOW DOWN ***" in text and "*** SUMMARY ***" in text and "HI: " in text
    assert text.startswith("PokerStars Hand #1:  7 Card Stud Hi/Lo Limit (5/10) - ")


def _shapes(text: str) -> set[str]:
    """Each line of a history with its players, cards, amounts and descriptions taken out, so
    that lines the card room writes and lines we write can be compared by their shape."""
    names = sorted(set(re.findall(r"^Seat \d+: (.+?) \([^()]* in chips", text, re.M)), key=len)
    shapes = set()
    for line in text.splitlines():
        if line.startswith("PokerStars "):
            continue
        for name in reversed(names):
            line = line.replace(name, "P")
        line = re.sub(r"\[[2-9TJQKA][cdhs](?: [2-9TJQKA][cdhs])*\]", "[C]", line)
        if ": shows" in line:
            line = re.sub(r"\([^()]*\)$", "(D)", line)
        line = re.sub(r" with .*$", " with D", line)
        line = re.sub(r"[$]?\d+(?:\.\d+)?", "A", line)
        line = re.sub(r"(?: Side pot-A A\.)+", " Side pot-A A.", line)  # any number of them
        shapes.add(re.sub(r"'.*'", "'T'", line))
    return shapes


# Lines of the format that the sample of real hands happens not to hold (side pots, all-ins), and
# ours alone: the community card (the deck ran out), and a pot the fixed rake takes whole.
NOT_IN_THE_SAMPLE = {
    "P collected A from main pot",
    "P collected A from side pot",
    "P collected A from side pot-A",
    "P: brings in for A and is all-in",
    "P: posts the ante A and is all-in",
    "P: raises A to A and is all-in",
    "Total pot A Main pot A. Side pot A. | Rake A ",
    "Total pot A Main pot A. Side pot-A A. | Rake A ",
    "*** RIVER *** [C]",
    "Board [C]",
    "Seat A: P",
}


@needs_hh
def test_every_line_we_write_has_the_shape_of_a_line_the_card_room_writes() -> None:
    real: set[str] = set()
    for path in sorted(HH.glob("PokerStars_*.txt")):
        for chunk in re.split(r"\n\s*\n\s*\n", path.read_text(errors="replace")):
            if re.search(r"stud|razz", chunk.split("\n", 1)[0], re.IGNORECASE):
                real |= _shapes(chunk)
    ours: set[str] = set()
    for seed in range(400):
        hand, rng = random_hand(seed)
        ours |= _shapes(format_hand(hand, hero=rng.choice([None, 0]), money=seed % 2 == 0))
    assert "Dealt to P [C] [C]" in ours and "Seat A: P mucked [C]" in ours
    assert ours - real <= NOT_IN_THE_SAMPLE, sorted(ours - real - NOT_IN_THE_SAMPLE)


def test_an_ante_returned_uncalled_follows_the_3rd_street_deal_where_the_card_room_prints_it() -> None:
    game = Razz(Stakes(ante=3, bring_in=3, small_bet=10, big_bet=20))
    hand = Hand(game, [100, 2], Deck.seeded(3))
    assert isinstance(hand.events[2], BetReturned)  # before the deal, in our events
    while not hand.is_over:
        hand.act(hand.legal_actions()[0 if hand.legal_actions()[0].kind.value != "fold" else -1])
    lines = format_hand(hand, players=["Ann", "Bob"], hero=1).splitlines()
    returned = lines.index("Uncalled bet (1) returned to Ann")
    third = lines.index("*** 3rd STREET ***")
    assert lines[third + 1 : returned] == [
        f"Dealt to Ann [{hand.cards[0][2]}]",
        f"Dealt to Bob [{' '.join(str(c) for c in hand.cards[1][:3])}]",
    ]
    (item,) = read_hands(io.StringIO("\n".join(lines)))
    assert isinstance(item, PokerStarsHand)
    again = play_pokerstars(item).hand
    assert (_actions(again), again.awards, again.stacks) == (
        _actions(hand),
        hand.awards,
        hand.stacks,
    )


def test_a_tournament_hand_gets_the_card_rooms_tournament_header() -> None:
    hand, _ = random_hand(8, raked=False)
    text = format_hand(hand, tournament="2010090015", level=4, buy_in="$200+$15 USD")
    head = text.splitlines()[0]
    name = {"stud8": "7 Card Stud Hi/Lo", "stud": "7 Card Stud", "razz": "Razz"}[hand.game.code]
    assert head == (
        f"PokerStars Hand #1: Tournament #2010090015, $200+$15 USD {name} Limit - Level IV (5/10)"
        " - 2024/01/01 00:00:00 ET"
    )
    (item,) = read_hands(io.StringIO(text))
    assert isinstance(item, PokerStarsHand)
    assert (item.tournament, item.money, item.small_bet) == ("2010090015", False, 5)
    assert play_pokerstars(item).hand.stacks == hand.stacks
    with pytest.raises(ValueError, match="level is 1 or more"):
        format_hand(hand, tournament="1", level=0)


@needs_hh
def test_our_tournament_header_reads_as_the_real_one_does() -> None:
    (real,) = read_hands(HH / "PokerStars_tour_Razz-8max-USD-200-15-201009.bracket.in.alias.txt")
    assert isinstance(real, PokerStarsHand)
    played = play_pokerstars(real)
    text = format_hand(
        played.hand,
        players=played.players,
        tournament=real.tournament,
        level=4,
        buy_in="$200+$15 USD",
        date=real.date or "",
    )
    shape = re.compile(
        r"PokerStars Hand #\d+: Tournament #\d+, \$200\+\$15 USD Razz Limit - "
        r"Level IV \(50/100\) - 2010/09/09 18:27:23 ET"
    )
    assert shape.fullmatch(real.header) and shape.fullmatch(text.splitlines()[0])


def _showdown_hand(seed: int, *, muck: bool) -> Hand:
    """A hand that reaches the showdown (with a hand mucked there when ``muck``)."""
    for s in range(seed, seed + 5000):
        hand, _ = random_hand(s, raked=False)
        if len(hand.shown) + len(hand.mucked) >= 2 and (bool(hand.mucked) or not muck):
            return hand
    raise AssertionError("no such hand")


def test_a_hero_sees_their_own_down_cards_and_only_the_up_cards_of_the_others() -> None:
    hand = _showdown_hand(50, muck=True)
    names = [f"P{i}" for i in range(hand.n)]
    for hero in (None, *range(hand.n)):
        text = format_hand(hand, players=names, hero=hero)
        for s in range(hand.n):
            for line in text.splitlines():
                if line.startswith(f"Dealt to {names[s]} "):
                    cards = re.findall(r"[2-9TJQKA][cdhs]", line)
                    ups = [c for c, up in zip(hand.cards[s], hand.face_up[s], strict=True) if up]
                    if s == hero:
                        assert cards == [str(c) for c in hand.cards[s][: len(cards)]]
                    else:
                        assert cards == [str(c) for c in ups[: len(cards)]], (hero, line)
        (item,) = read_hands(io.StringIO(text))
        assert isinstance(item, PokerStarsHand)
        assert item.hero == (names[hero] if hero is not None else None)
        again = play_pokerstars(item).hand
        assert (_actions(again), again.awards, again.stacks) == (
            _actions(hand),
            hand.awards,
            hand.stacks,
        )


def test_a_hand_mucked_at_the_showdown_shows_its_cards_in_the_summary_where_known() -> None:
    hand = _showdown_hand(60, muck=True)
    names = [f"P{i}" for i in range(hand.n)]
    seat = min(hand.mucked)
    cards = " ".join(str(c) for c in hand.cards[seat])
    summary = f"Seat {seat + 1}: {names[seat]} mucked [{cards}]"
    assert summary in format_hand(hand, players=names).splitlines()  # as the card room lists it
    hidden = format_hand(hand, players=names, unknown=[int(hand.cards[seat][0])])
    assert f"Seat {seat + 1}: {names[seat]} mucked" in hidden.splitlines()  # a card nobody saw
    private = format_hand(hand, players=names, show_mucked=False)
    assert summary not in private
    assert summary in format_hand(hand, players=names, show_mucked=False, hero=seat)
    (item,) = read_hands(io.StringIO(format_hand(hand, players=names)))
    assert isinstance(item, PokerStarsHand)
    assert play_pokerstars(item).hand.cards[seat] == hand.cards[seat]


# ------------------------------------------------------------------------ conversions


@needs_hh
def test_pokerstars_to_phh_and_back_keeps_every_hand(tmp_path: Path) -> None:
    for name in COUNTS:
        loaded = [i for i in iter_loaded(HH / name) if not isinstance(i, Exception)]
        for item in loaded:
            phh = loads(dumps(to_phh_hand(item)))
            hand = play_phh(phh)  # the rake travels as _rake
            assert (hand.awards, hand.stacks) == (item.hand.awards, item.hand.stacks)
            assert _actions(hand) == _actions(item.hand)
            unknown = sum(line.count("??") for line in phh.actions)
            assert unknown == len(item.unknown)
            back = loaded_from_phh(phh, hand)
            (again,) = read_hands(io.StringIO(to_pokerstars_text(back)))
            assert isinstance(again, PokerStarsHand)
            replayed = play_pokerstars(again).hand
            assert (replayed.awards, replayed.stacks) == (item.hand.awards, item.hand.stacks)
            assert again.hero == (item.players[item.hero] if item.hero is not None else None)
    source = HH / "PokerStars_cash_Razz-USD-0.04-0.08-200911.txt"
    count, errors = convert(source, tmp_path / "razz.phhs")
    assert (count, errors) == (9, [])
    count, errors = convert(tmp_path / "razz.phhs", tmp_path / "razz.txt")
    assert (count, errors) == (9, [])
    assert main(["replay", str(tmp_path / "razz.txt")]) == 0
    assert main(["replay", str(tmp_path / "razz.phhs")]) == 0


def test_phh_to_pokerstars_and_back_on_random_hands(tmp_path: Path) -> None:
    for seed in range(300):
        hand, _ = random_hand(seed, raked=False)
        phh = to_phh(hand)
        loaded = loaded_from_phh(phh, play_phh(phh))
        text = to_pokerstars_text(loaded)
        (item,) = read_hands(io.StringIO(text))
        assert isinstance(item, PokerStarsHand)
        again = play_pokerstars(item, game=hand.game)
        # An observer's view (the PHH names no hero): only down cards shown or mucked at the
        # showdown are written, so the others are made up on the way back.
        seen = {c for s in range(hand.n) if s in hand.shown or s in hand.mucked for c in hand.cards[s]}
        down = {
            c for s in range(hand.n) for c, up in zip(hand.cards[s], hand.face_up[s], strict=True) if not up
        }
        assert len(again.unknown) == len(down - seen)
        back = to_phh_hand(loaded_from_phh(phh, play_phh(phh)))
        assert play_phh(back).stacks == hand.stacks
        assert (again.hand.awards, again.hand.stacks) == (hand.awards, hand.stacks)
    path = tmp_path / "one.phh"
    hand = random_hand(5, raked=False)[0]
    path.write_text(dumps(to_phh(hand)))
    assert main(["convert", str(path), str(tmp_path / "one.out"), "--to", "pokerstars"]) == 0
    assert (tmp_path / "one.out").read_text().startswith("PokerStars Hand #1:")
    assert main(["convert", str(tmp_path / "one.out"), str(tmp_path / "two.phh")]) == 0
    assert play_phh(loads((tmp_path / "two.phh").read_text())).stacks == hand.stacks


def test_phh_to_pokerstars_for_a_hero_an_observer_and_a_tournament_reads_back_exactly() -> None:
    hand = _showdown_hand(70, muck=False)
    base = to_phh(hand)
    views = {
        "hero": dataclasses.replace(base, extra={"_hero": "p2"}),
        "observer": base,
        "tournament": dataclasses.replace(base, level=3, event="Sunday Stud Tournament #4711"),
    }
    for view, phh in views.items():
        loaded = loaded_from_phh(phh, play_phh(phh))
        text = to_pokerstars_text(loaded)
        head = text.splitlines()[0]
        if view == "tournament":
            assert head.startswith("PokerStars Hand #1: Tournament #4711, ") and "Level " in head
        else:
            assert head.startswith("PokerStars Hand #1:  ") and "Tournament" not in head
        full = [line for line in text.splitlines() if re.fullmatch(r"Dealt to p\d \[.. .. ..\]", line)]
        assert full == (
            ["Dealt to p2 [" + " ".join(map(str, hand.cards[1][:3])) + "]"] if view == "hero" else []
        )
        (item,) = read_hands(io.StringIO(text))
        assert isinstance(item, PokerStarsHand)
        assert item.hero == ("p2" if view == "hero" else None)
        assert item.tournament == ("4711" if view == "tournament" else None)
        again = play_pokerstars(item, game=hand.game).hand
        assert (_actions(again), again.awards, again.stacks) == (
            _actions(hand),
            hand.awards,
            hand.stacks,
        )
    forced = to_pokerstars_text(loaded_from_phh(base, play_phh(base)), tournament="9")
    assert forced.startswith("PokerStars Hand #1: Tournament #9, ")


# ------------------------------------------------------------------------ the commands


@needs_hh
def test_replay_json_gives_one_object_per_hand(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(HH / name) for name in sorted(COUNTS)]
    assert main(["replay", "--json", *files]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    records = [r for r in lines if r.get("record") == "hand"]  # (and one record per file)
    assert len(records) == sum(hands for hands, _ in COUNTS.values())
    for record in records:
        assert {"file", "hand_id", "game", "ok"} <= set(record)
        assert record["game"] in ("stud8", "stud", "razz")
        assert record["ok"] == ("error" not in record)
    failed = {r["hand_id"]: r for r in records if not r["ok"]}
    assert set(failed) == {"91733835979"}
    assert failed["91733835979"]["error"].startswith("line 46: 'of' is not a card")
    assert failed["91733835979"]["line"] == 46


@needs_hh
def test_replay_prints_a_verdict_per_hand_and_a_total(capsys: pytest.CaptureFixture[str]) -> None:
    mixed = HH / "PokerStars_tour_8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"
    assert main(["replay", str(mixed)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert sum(": ok; " in line for line in out) == 53
    assert any("84 hand(s) of other games skipped" in line for line in out)
    assert out[-1] == "53 of 53 hands replayed"


@needs_hh
def test_show_steps_through_a_hand_street_by_street(capsys: pytest.CaptureFixture[str]) -> None:
    path = HH / "PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.txt"
    assert main(["show", str(path), "--hand", ODD_CENT_HAND]) == 0
    out = capsys.readouterr().out
    for street in ("3rd", "4th", "5th", "6th", "7th"):
        assert f"--- {street} street ---" in out
    assert "Soroka69     bring-in $0.02" in out
    assert "[?? ??] 3h" in out  # down cards the history never shows
    assert "--- showdown ---" in out and "HI: a pair of Sevens; LO: 8,7,5,4,2" in out
    assert "u.pressure wins $0.37 (main pot, high half)" in out
    assert "gashpor wins $0.36 (main pot, low half)" in out
    assert "rake $0.03" in out
    assert main(["show", str(path), "--hand", "2"]) == 0
    assert "Hand #35874523510" in capsys.readouterr().out
    assert main(["show", str(path), "--hand", "99"]) == 1
    assert "no hand '99'" in capsys.readouterr().err


@needs_hh
def test_show_waits_for_enter_between_streets_when_interactive() -> None:
    loaded = pick(HH / "PokerStars_cash_7-StudHL-USD-0.04-0.08-200911.txt", f"#{ODD_CENT_HAND}")
    prompts: list[str] = []
    out = io.StringIO()

    def wait(prompt: str) -> str:
        prompts.append(prompt)
        return ""

    show(loaded, out, interactive=True, wait=wait)
    blocks = render(loaded)
    assert len(prompts) == len(blocks) - 1
    assert prompts[0] == "-- press Enter for 3rd street --"
    assert prompts[-1] == "-- press Enter for result --"
    assert out.getvalue().count("\n") == sum(len(b) for b in blocks)


def test_show_reads_phh_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand, _ = random_hand(7, raked=False)
    path = tmp_path / "h.phh"
    path.write_text(dumps(to_phh(hand)))
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "--- 3rd street ---" in out and "--- result ---" in out and "??" not in out


def test_a_tournament_level_travels_from_pokerstars_text_to_phh_and_back() -> None:
    path = HH / "PokerStars_tour_Razz-8max-USD-200-15-201009.bracket.in.alias.txt"
    if not path.exists():
        pytest.skip(f"the shared hand histories are not here ({HH})")
    (loaded,) = [item for item in iter_loaded(path) if not isinstance(item, ConvertError)]
    assert loaded.level == 4  # "Level IV" in the header
    phh = to_phh_hand(loaded)
    assert phh.level == 4
    again = loaded_from_phh(loads(dumps(phh)), play_phh(phh))
    assert " - Level IV (50/100) - " in to_pokerstars_text(again).splitlines()[0]


def _reordered(text: str, cards: str, order: str) -> str:
    """``text`` with every listing of the seven ``cards`` put in ``order`` (indices)."""
    words = cards.split()
    return text.replace(f"[{cards}]", "[" + " ".join(words[int(k)] for k in order) + "]")


@pytest.mark.parametrize("hero", ["shown", "mucked", None])
def test_shown_and_mucked_down_cards_in_another_order_match_as_a_set(hero: str | None) -> None:
    """Rule: a 'shows', 'mucked [..]' or summary 'showed [..]' line whose down cards (two on 3rd
    street, one on 7th) come in another order than dealt, or than an earlier line listed them,
    is the same hand; our engine keeps the order first seen (the hero's 'Dealt to' lines)."""
    hand = _showdown_hand(60, muck=True)
    names = [f"P{i}" for i in range(hand.n)]
    shown, mucked = min(hand.shown), min(hand.mucked)
    seat = {"shown": shown, "mucked": mucked, None: None}[hero]
    text = format_hand(hand, players=names, hero=seat)
    if seat is None:  # the summary lists the shown hand again, in another order
        cards = " ".join(str(c) for c in hand.cards[shown])
        summary = f"Seat {shown + 1}: {names[shown]} showed [{cards}]"
        changed = text.replace(summary, _reordered(summary, cards, "1023456"))
    else:
        changed = text
        for s, order in ((shown, "6123450"), (mucked, "1023456")):
            changed = _reordered(changed, " ".join(str(c) for c in hand.cards[s]), order)
    assert changed != text
    (item,) = read_hands(io.StringIO(changed))
    assert isinstance(item, PokerStarsHand)
    again = play_pokerstars(item).hand
    assert (again.awards, again.stacks) == (hand.awards, hand.stacks)
    kept = [shown] if seat is None else [seat]  # the hand whose order the file told first
    assert [again.cards[s] for s in kept] == [hand.cards[s] for s in kept]


def test_a_card_shown_that_is_none_dealt_is_refused_naming_the_line() -> None:
    hand = _showdown_hand(60, muck=True)
    names = [f"P{i}" for i in range(hand.n)]
    seat = min(hand.shown)
    text = format_hand(hand, players=names, hero=seat)
    cards = [str(c) for c in hand.cards[seat]]
    spare = next(str(c) for c in Deck.seeded(0).cards if str(c) not in text)
    wrong = " ".join([cards[1], spare, *cards[2:]])
    lines = [
        line.replace(" ".join(cards), wrong) if line.startswith(f"{names[seat]}: shows") else line
        for line in text.splitlines()
    ]
    number = next(n for n, line in enumerate(lines, 1) if line.startswith(f"{names[seat]}: shows"))
    (item,) = read_hands(io.StringIO("\n".join(lines)))
    assert isinstance(item, PokerStarsHand)
    with pytest.raises(
        PokerStarsError,
        match=rf"line {number}: {names[seat]} shows {spare} among the down cards, but {names[seat]} "
        rf"was dealt \[{cards[0]} {cards[1]} {cards[6]}\] down",
    ):
        play_pokerstars(item)


@needs_hh
def test_a_real_tournament_hand_keeps_its_header_through_phh() -> None:
    """The buy-in, level, limits and table of a tournament hand survive PokerStars -> PHH ->
    PokerStars: the header written is the card room's own (a tracker reads the buy-in there)."""
    path = HH / "PokerStars_tour_Razz-8max-USD-200-15-201009.bracket.in.alias.txt"
    real = path.read_text(encoding="utf-8-sig").splitlines()
    (loaded,) = [item for item in iter_loaded(path) if not isinstance(item, ConvertError)]
    assert loaded.buy_in == "$200+$15 USD"
    phh = to_phh_hand(loaded)
    assert phh.extra["_buy_in"] == "$200+$15 USD"
    again = loaded_from_phh(loads(dumps(phh)), play_phh(phh))
    written = to_pokerstars_text(again).splitlines()
    heads = [line for line in real if line.startswith("PokerStars Hand #")]
    assert written[0] == heads[0].strip()
    assert written[1] == next(line for line in real if line.startswith("Table ")).strip()


# Issue 16, point 3: the only hand shown holds a 6-5-4-3-A low and scoops (the other mucks).
LOW_ALONE = ["Ac 3d 4h 5d 6c Kd 9s", "Qc Jh 9d 7d 2c Ts 3s", "7h 8h Qd"]


def _the_only_hand_shown_has_a_low() -> Hand:
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], deck_for(LOW_ALONE))
    for action in ("bring-in", "call", "fold"):
        hand.act(action)
    while not hand.is_over:
        hand.act("check")
    return hand


def _showdown_block(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[lines.index("*** SHOW DOWN ***") + 1 : lines.index("*** SUMMARY ***")]


def test_a_scoop_by_the_only_hand_shown_says_its_low() -> None:
    """Rule (docs/rules.md, "Hi/lo split"): a hand alone at the showdown with a qualifying low
    wins both halves; PokerStars pays them on two lines and writes no "No low hand qualified"
    (it did, with the chips right, before the engine paid the halves)."""
    hand = _the_only_hand_shown_has_a_low()
    text = format_hand(hand, players=["Ann", "Bob", "Cid"], hero=0)
    assert _showdown_block(text) == [
        "Ann: shows [Ac 3d 4h 5d 6c Kd 9s] (HI: high card Ace; LO: 6,5,4,3,A)",
        "Bob: mucks hand ",
        "Ann collected 4 from pot",
        "Ann collected 3 from pot",
    ]
    won = "Seat 1: Ann showed [Ac 3d 4h 5d 6c Kd 9s] and won (7) with HI: high card Ace; LO: 6,5,4,3,A"
    assert won in text
    (item,) = read_hands(io.StringIO(text))
    assert isinstance(item, PokerStarsHand)
    assert play_pokerstars(item).hand.awards == hand.awards


@needs_hh
def test_the_lone_scoop_is_written_as_the_card_room_writes_one() -> None:
    """PokerStars' own hi/lo hand #99632136884 (Omaha hi/lo, the same text as stud's): one hand
    shown with a low, the other mucked, the pot paid in two halves to the one player and no
    "No low hand qualified"; our showdown has the same lines, shape for shape."""
    text = (HH / "PokerStars_tour_8-Game-2max-STT-play-100-201306.homeGame.shootout.txt").read_text(
        encoding="utf-8-sig"
    )
    real = next(c for c in re.split(r"\n\s*\n\s*\n", text) if "Hand #99632136884:" in c)
    names = sorted(set(re.findall(r"^Seat \d+: (.+?) \(", real, re.M)), key=len, reverse=True)

    def shape(lines: list[str], names: list[str]) -> list[str]:
        out = []
        for line in lines:
            if ' said, "' in line:  # the players' chat, between the card room's lines
                continue
            for name in names:
                line = line.replace(name, "P")
            line = re.sub(r"\[[^]]*\]", "[C]", line)
            out.append(re.sub(r"\d+", "A", re.sub(r"\((HI: [^;]*); LO: [^)]*\)", "(HI; LO)", line)))
        return out

    ours = format_hand(_the_only_hand_shown_has_a_low(), players=["Ann", "Bob", "Cid"])
    assert shape(_showdown_block(real), names) == shape(_showdown_block(ours), ["Ann", "Bob"]) == [
        "P: shows [C] (HI; LO)",
        "P: mucks hand ",
        "P collected A from pot",
        "P collected A from pot",
    ]
