"""PHH hands in and out of the engine, and the `sevenstud replay` command."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sevenstud.cli import main
from sevenstud.dealing import deck_for
from sevenstud.deck import Deck
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.hand import Hand
from sevenstud.history.phh import PHHHand, dumps, dumps_all, loads
from sevenstud.history.replay import ReplayError, play_phh, to_phh
from sevenstud.history.replay_files import replay_record

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
GAMES = [StudHiLo(STAKES), Stud(STAKES), Razz(STAKES)]


def random_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    hand = Hand(rng.choice(GAMES), [rng.randint(1, 120) for _ in range(n)], Deck.seeded(seed))
    while not hand.is_over:
        hand.act(rng.choice(hand.legal_actions()))
    return hand


def test_round_trip_through_phh_text_on_many_random_hands() -> None:
    for seed in range(1500):
        hand = random_hand(seed)
        again = play_phh(loads(dumps(to_phh(hand))))
        assert again.events == hand.events, seed
        assert again.stacks == hand.stacks
        assert again.awards == hand.awards


def test_community_card_is_written_and_read_as_d_db() -> None:
    # Eight players who all check to the end exhaust the deck on 7th street.
    hand = Hand(StudHiLo(STAKES), [100] * 8, Deck.seeded(11))
    while not hand.is_over:
        legal = hand.legal_actions()
        passive = [a for a in legal if a.kind.value in ("check", "call", "bring-in")]
        hand.act(passive[0])
    assert hand.community is not None
    phh = to_phh(hand)
    assert f"d db {hand.community}" in phh.actions
    assert play_phh(phh).stacks == hand.stacks


def _hand_with_showdown() -> PHHHand:
    for seed in range(200):
        hand = random_hand(seed)
        phh = to_phh(hand)
        if sum(1 for line in phh.actions if " sm " in line) >= 2:
            return phh
    raise AssertionError("no showdown found")


def test_show_lines_are_accepted_in_the_order_written() -> None:
    phh = _hand_with_showdown()
    shows = [line for line in phh.actions if " sm" in line]
    others = [line for line in phh.actions if " sm" not in line]
    reordered = PHHHand(**{**_fields(phh), "actions": others + shows[::-1]})
    assert play_phh(reordered).stacks == play_phh(phh).stacks


def _fields(phh: PHHHand) -> dict[str, object]:
    return {name: getattr(phh, name) for name in phh.__dataclass_fields__}


def _hand_with_bring_in_posted() -> PHHHand:
    return next(
        p
        for p in (to_phh(random_hand(s)) for s in range(100))
        if any(a.endswith(" pb") for a in p.actions)
    )


def test_illegal_action_is_reported_naming_the_action() -> None:
    phh = _hand_with_bring_in_posted()
    actions = list(phh.actions)
    first_bet = next(i for i, line in enumerate(actions) if line.endswith(" pb"))
    seat = actions[first_bet].split()[0]
    actions.insert(first_bet + 1, f"{seat} cbr 999")
    broken = PHHHand(**{**_fields(phh), "actions": actions, "finishing_stacks": None})
    with pytest.raises(ReplayError, match=rf"actions\[{first_bet + 1}\] '{seat} cbr 999'"):
        play_phh(broken)


def test_finishing_stacks_that_disagree_are_an_error() -> None:
    phh = to_phh(random_hand(4))
    stacks = list(phh.finishing_stacks or [])
    stacks[0] += 1
    stacks[1] -= 1
    with pytest.raises(ReplayError, match="finishing_stacks"):
        play_phh(PHHHand(**{**_fields(phh), "finishing_stacks": stacks}))


def test_replay_command_json_is_deterministic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = tmp_path / "one.phh"
    one.write_text(
        dumps(
            to_phh(
                random_hand(5),
                players=["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][: random_hand(5).n],
            )
        )
    )
    many = tmp_path / "many.phhs"
    many.write_text(dumps_all(to_phh(random_hand(s)) for s in range(6, 12)))
    assert main(["replay", "--json", str(one), str(many)]) == 0
    first = capsys.readouterr().out
    assert main(["replay", "--json", str(one), str(many)]) == 0
    assert capsys.readouterr().out == first
    records = [json.loads(line) for line in first.splitlines()]
    records = [r for r in records if r["record"] == "hand"]  # then one record per file
    assert len(records) == 7
    for record in records:
        assert {
            "file",
            "variant",
            "players",
            "starting_stacks",
            "finishing_stacks",
            "awards",
        } <= set(record)
        assert sum(a["amount"] for a in record["awards"]) > 0
        assert sum(record["finishing_stacks"]) == sum(record["starting_stacks"])
        for award in record["awards"]:
            assert set(award) == {"seat", "player", "amount", "pot", "share"}
    assert records[0]["players"][0] == "Ann"


def test_replay_command_fails_naming_the_file_and_the_action(tmp_path: Path) -> None:
    phh = _hand_with_bring_in_posted()
    actions = list(phh.actions)
    first_bet = next(i for i, line in enumerate(actions) if line.endswith(" pb"))
    actions.insert(first_bet + 1, actions[first_bet].split()[0] + " cbr 999")
    bad = tmp_path / "bad.phh"
    bad.write_text(dumps(PHHHand(**{**_fields(phh), "actions": actions, "finishing_stacks": None})))
    good = tmp_path / "good.phh"
    good.write_text(dumps(phh))
    result = subprocess.run(
        [sys.executable, "-m", "sevenstud.cli", "replay", "--json", str(good), str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    lines = [r for r in lines if r["record"] == "hand"]  # the per-file records follow each file
    assert "error" not in lines[0]
    assert lines[1]["file"] == str(bad)
    assert "cbr 999" in lines[1]["error"]


def test_malformed_file_is_an_error_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "broken.phh"
    bad.write_text('variant = "F7S/8"\nantes = [1, 1]\n')
    assert main(["replay", "--json", str(bad)]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["file"] == str(bad) and "bring_in" in record["error"]


def test_phh_records_carry_ok_like_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    phh = _hand_with_bring_in_posted()
    good = tmp_path / "good.phh"
    good.write_text(dumps(phh))
    bad = tmp_path / "bad.phh"
    bad.write_text(dumps(PHHHand(**{**_fields(phh), "finishing_stacks": [1] * phh.player_count})))
    assert main(["replay", "--json", str(good), str(bad)]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    hands = {r["file"]: r for r in records if r["record"] == "hand"}
    files = {r["file"]: r for r in records if r["record"] == "file"}
    assert hands[str(good)]["ok"] is True and "error" not in hands[str(good)]
    assert hands[str(bad)]["ok"] is False and "finishing_stacks" in hands[str(bad)]["error"]
    assert files[str(good)]["ok"] is True and files[str(bad)]["ok"] is False
    assert files[str(bad)]["error"] == "1 of 1 hand(s) failed"


def test_replay_of_a_file_with_no_stud_hands_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    holdem = tmp_path / "holdem.txt"
    holdem.write_text(
        "PokerStars Hand #1:  Hold'em Limit ($0.10/$0.20 USD) - 2024/01/01 00:00:00 ET\n"
        "Table 'T' 9-max Seat #1 is the button\n"
    )
    assert main(["replay", "--json", str(holdem)]) == 1
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert record["ok"] is False and record["skipped"] == 1
    assert record["error"].startswith("no stud hands")


def _with_show(phh: PHHHand, change: Callable[[list[str]], list[str]]) -> PHHHand:
    """``phh`` with the cards of its last show line changed by ``change``."""
    actions = list(phh.actions)
    index = max(i for i, line in enumerate(actions) if " sm " in line)
    who, cards = actions[index].rsplit(" ", 1)
    listed = [cards[i : i + 2] for i in range(0, len(cards), 2)]
    actions[index] = f"{who} {''.join(change(listed))}"
    return PHHHand(**{**_fields(phh), "actions": actions})


def test_a_show_may_list_the_down_cards_in_another_order_than_dealt() -> None:
    """Rule: shown down cards (two on 3rd street, one on 7th) match the dealt ones as a set;
    the engine keeps the dealt order."""
    phh = _hand_with_showdown()
    expected = play_phh(phh)
    for order in ((1, 0, 2, 3, 4, 5, 6), (6, 1, 2, 3, 4, 5, 0)):
        again = play_phh(_with_show(phh, lambda c, o=order: [c[k] for k in o]))  # type: ignore[misc]
        assert (again.stacks, again.cards) == (expected.stacks, expected.cards)


def test_a_show_naming_a_card_not_dealt_or_a_moved_up_card_is_refused() -> None:
    """Rule: a down card that was not dealt, or up cards out of their places, are refused."""
    phh = _hand_with_showdown()
    spare = next(str(c) for c in Deck.seeded(0).cards if str(c) not in " ".join(phh.actions))
    with pytest.raises(ReplayError, match=f"down, not {spare}"):
        play_phh(_with_show(phh, lambda c: [spare, *c[1:]]))
    with pytest.raises(ReplayError, match="was dealt"):
        play_phh(_with_show(phh, lambda c: [*c[:2], c[3], c[2], *c[4:]]))


def test_a_scoop_by_the_only_hand_shown_replays_from_phh_with_its_low_half(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rule (docs/rules.md, "Hi/lo split"): the one hand shown, with a 6-5-4-3-A low, wins both
    halves; PHH carries no awards, so its replay (``sevenstud replay``, text and JSON) must pay
    the low half as the engine did."""
    deck = deck_for(["Ac 3d 4h 5d 6c Kd 9s", "Qc Jh 9d 7d 2c Ts 3s", "7h 8h Qd"])
    hand = Hand(StudHiLo(STAKES), [100, 100, 100], deck)
    for action in ("bring-in", "call", "fold"):
        hand.act(action)
    while not hand.is_over:
        hand.act("check")
    phh = loads(dumps(to_phh(hand, ["ann", "bob", "cid"])))
    assert play_phh(phh).awards == hand.awards
    record = replay_record("lone.phh", phh)
    assert [(a["player"], a["amount"], a["share"]) for a in record["awards"]] == [
        ("ann", 4, "high"),
        ("ann", 3, "low"),
    ]
    path = tmp_path / "lone.phh"
    path.write_text(dumps(phh))
    assert main(["replay", str(path)]) == 0
    assert "ann 4 (main pot, high half), ann 3 (main pot, low half)" in capsys.readouterr().out
