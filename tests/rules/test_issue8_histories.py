"""Issue 8, points 7, 8 and 10, tried from outside: stud hands written by PokerKit's own PHH
writer, and the shared real histories, through ``sevenstud replay`` (the command line only)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pokerkit = pytest.importorskip("pokerkit")

PROGRAM = Path(sys.executable).with_name("sevenstud")
COMMAND = [str(PROGRAM)] if PROGRAM.exists() else [sys.executable, "-m", "sevenstud"]
SHARED_HH = Path(__file__).resolve().parents[3] / "shared" / "hh"

GAMES = {
    "stud": "FixedLimitSevenCardStud",
    "stud8": "FixedLimitSevenCardStudHighLowSplitEightOrBetter",
    "razz": "FixedLimitRazz",
}


def replay_json(*paths: Path) -> tuple[int, list[dict[str, object]]]:
    result = subprocess.run(
        [*COMMAND, "replay", "--json", *map(str, paths)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert "Traceback" not in result.stderr
    return result.returncode, [json.loads(line) for line in result.stdout.splitlines()]


def pokerkit_state(code: str, stacks: list[int], deal_cards: bool = True) -> tuple[object, object]:
    """A PokerKit stud game at 1/2/5/10 that does every chore but (optionally) the dealing."""
    auto = pokerkit.Automation
    chores = [
        auto.ANTE_POSTING, auto.BET_COLLECTION, auto.BLIND_OR_STRADDLE_POSTING,
        auto.CARD_BURNING, auto.HOLE_CARDS_SHOWING_OR_MUCKING, auto.HAND_KILLING,
        auto.CHIPS_PUSHING, auto.CHIPS_PULLING,
    ]
    if deal_cards:
        chores += [auto.HOLE_DEALING, auto.BOARD_DEALING]
    game = getattr(pokerkit, GAMES[code])(tuple(chores), False, 1, 2, 5, 10)
    return game, game(stacks, len(stacks))


def write(path: Path, game: object, state: object) -> Path:
    history = pokerkit.HandHistory.from_game_state(game, state)
    history.players = [f"P{i}" for i in range(len(state.stacks))]  # type: ignore[attr-defined]
    with path.open("wb") as file:
        history.dump(file)
    return path


@pytest.mark.parametrize("code", sorted(GAMES))
def test_history_pokerkit_phh_of_every_stud_game_replays_to_its_stacks(
    code: str, tmp_path: Path
) -> None:
    # Deep stacks (no all-in, where PokerKit's short-raise rule is not Robert's): every hand
    # PokerKit writes replays, and finishes with PokerKit's own stacks. PokerKit deals with the
    # global random: seeded here, so that the deals are the same at every run. Unseeded, about
    # one deal in 4,500 gave tied hands an odd chip, which PokerKit gives to the lowest seat and
    # we to the highest card by suit (docs/rules.md, "Odd chips among tied players"), and the
    # test failed now and then for a difference of rule it is not about.
    expected = {}
    kept = random.getstate()  # (given back after: other tests' draws stay their own)
    for seed in range(12):
        random.seed(f"issue8-{code}-{seed}")
        rng = random.Random(seed)
        game, state = pokerkit_state(code, [500] * rng.randint(2, 7))
        while state.status:  # type: ignore[attr-defined]
            if state.can_post_bring_in():  # type: ignore[attr-defined]
                state.post_bring_in()  # type: ignore[attr-defined]
            elif rng.random() < 0.1 and state.can_fold():  # type: ignore[attr-defined]
                state.fold()  # type: ignore[attr-defined]
            elif rng.random() < 0.3 and state.can_complete_bet_or_raise_to():  # type: ignore[attr-defined]
                state.complete_bet_or_raise_to()  # type: ignore[attr-defined]
            else:
                state.check_or_call()  # type: ignore[attr-defined]
        path = write(tmp_path / f"{code}_{seed}.phh", game, state)
        expected[str(path)] = list(state.stacks)  # type: ignore[attr-defined]
    random.setstate(kept)
    status, records = replay_json(*expected)
    hands = [r for r in records if r["record"] == "hand"]
    assert status == 0 and len(hands) == len(expected)
    for record in hands:
        assert record["ok"] is True and record["format"] == "phh", record
        assert record["finishing_stacks"] == expected[str(record["file"])]


def test_history_a_bring_in_all_in_written_as_a_completion_replays(tmp_path: Path) -> None:
    # The short stack (3 chips: 2 after the ante) has the lowest door card. PokerKit lets it
    # "complete" with its all, and writes 'cbr 2': for us that is its all-in bring-in.
    game, state = pokerkit_state("stud", [60, 3, 60], deal_cards=False)
    for cards in ("KcKdAh", "2d3h2c", "7s8s9d"):
        state.deal_hole(cards)  # type: ignore[attr-defined]
    assert state.can_complete_bet_or_raise_to(2)  # type: ignore[attr-defined]
    state.complete_bet_or_raise_to(2)  # type: ignore[attr-defined]
    while state.status:  # type: ignore[attr-defined]
        if state.can_deal_hole():  # type: ignore[attr-defined]
            state.deal_hole()  # type: ignore[attr-defined]
        else:
            state.check_or_call()  # type: ignore[attr-defined]
    path = write(tmp_path / "short.phh", game, state)
    assert "'p2 cbr 2'" in path.read_text()
    status, records = replay_json(path)
    assert status == 0 and records[0]["ok"] is True, records[0]


def test_history_unknown_door_card_of_a_folded_player_is_not_the_bring_in(tmp_path: Path) -> None:
    # PHH from one seat's view: p3's cards are unknown and p3 folds after the bring-in; filling
    # its door card with the spare 2c would make p3 the bring-in and contradict the file.
    path = tmp_path / "hidden.phh"
    path.write_text(
        "variant = 'F7S'\nante_trimming_status = true\nantes = [1, 1, 1]\nbring_in = 2\n"
        "small_bet = 5\nbig_bet = 10\nstarting_stacks = [100, 100, 100]\n"
        "actions = ['d dh p1 AsKsQs', 'd dh p2 ????3d', 'd dh p3 ??????', 'p2 pb', 'p3 f',"
        " 'p1 cc', 'd dh p1 Js', 'd dh p2 ??', 'p1 cc', 'p2 cc', 'd dh p1 Ts', 'd dh p2 ??',"
        " 'p1 cbr 10', 'p2 f']\n"
    )
    status, records = replay_json(path)
    assert status == 0 and records[0]["ok"] is True, records[0]
    assert records[0]["finishing_stacks"] == [104, 97, 99]


def test_history_mixed_game_files_skip_other_games_with_a_count(tmp_path: Path) -> None:
    files = sorted(SHARED_HH.glob("*10Game*")) + sorted(SHARED_HH.glob("*8-Game*"))
    if not files:
        pytest.skip(f"the shared hand histories are not here ({SHARED_HH})")
    copies = []
    for source in files:
        copies.append(tmp_path / source.name)
        copies[-1].write_bytes(source.read_bytes())
    status, records = replay_json(*copies)
    assert status == 0
    for summary in (r for r in records if r["record"] == "file"):
        assert summary["ok"] and summary["failed"] == 0 and summary["replayed"] > 0
        skipped = summary["skipped_games"]
        assert isinstance(skipped, dict) and sum(skipped.values()) == summary["skipped"] > 0
        assert not any("Stud" in game or "Razz" in game for game in skipped), skipped


def test_history_replay_exit_status_for_a_damaged_hand(tmp_path: Path) -> None:
    source = SHARED_HH / "PokerStars_tour_Triple-Stud-USD-2.00-0.20-MTT-201301.txt"
    if not source.exists():
        pytest.skip(f"the shared hand histories are not here ({SHARED_HH})")
    copy = tmp_path / source.name
    copy.write_bytes(source.read_bytes())
    status, records = replay_json(copy)
    assert status == 1
    hand, summary = records[0], records[-1]
    assert hand["ok"] is False and "[of]" in str(hand["error"]) and "line" in str(hand["error"])
    assert summary["record"] == "file" and summary["failed"] == 1 and summary["ok"] is False
