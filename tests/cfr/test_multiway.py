"""The learned bot's multiway table (issue 17, point 2): trained N-handed with the heads-up ends
played by the heads-up table (or learned, ``--learn-heads-up-ends``), its keys summarising a
multiway street's betting, looked up with two or more opponents in."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from sevenstud.bots import TightBot
from sevenstud.bots.learned import LearnedBot, multiway_table, shipped_policy
from sevenstud.cfr import policy as policy_file
from sevenstud.cfr.abstraction import TOKENS, opponents_of, view_key
from sevenstud.cfr.solvers import ExternalSampling
from sevenstud.cfr.stud_game import StudGame, StudState
from sevenstud.cfr.train import TrainSettings, export, train, visits
from sevenstud.deck import Deck
from sevenstud.games import GAMES, GameCode, Stakes
from sevenstud.hand import Hand, SeatView

STAKES = Stakes(1, 2, 5, 10)


def decisions(code: GameCode, players: int, deals: int) -> list[SeatView]:
    """The views of every betting decision of tight bots' hands."""
    views: list[SeatView] = []
    for deal in range(deals):
        bots = [TightBot(seed=f"{deal}-{s}") for s in range(players)]
        hand = Hand(GAMES[code](STAKES), [500] * players, Deck.seeded(f"multiway-{code}-{deal}"))
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            action = bots[seat].act(view)
            if action.kind in TOKENS:
                views.append(view)
            hand.act(action, seat)
    return views


def test_a_multiway_street_is_summarised_and_a_heads_up_one_spelled_out() -> None:
    """Three-handed, a street's key reads its betting as a summary while two opponents are in,
    and as the letters once one has folded."""
    game = StudGame("stud8", 3)
    rng = random.Random(2)
    state = game.child(game.root(), game.sample_chance(game.root(), rng))
    state = game.child(state, "i")  # brought in
    state = game.child(state, "c")
    assert game.infoset(state).split("|")[2:] == ["2", "0-", "i0o1:fcb"]
    state = game.child(state, "b")  # completed: the bring-in, who called it, may fold now
    assert game.infoset(state).split("|")[2:] == ["2", "0-", "1o0a:fcr"]
    state = game.child(state, "f")
    assert game.infoset(state).split("|")[2:] == ["1", "0-", "icbf:fcr"]


class Watched(StudGame):
    """A training game that counts the heads-up table's answers."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.played = 0

    def fixed_strategy(self, state: StudState, key: str) -> Any:
        fixed = super().fixed_strategy(state, key)
        self.played += fixed is not None
        return fixed


def test_a_multiway_hand_s_heads_up_end_is_played_by_the_heads_up_table_not_learned() -> None:
    heads_up = shipped_policy()["tables"]["stud8/2"]
    game = Watched("stud8", 4, heads_up)
    solver = ExternalSampling(game, seed=3)
    solver.iterate(20)
    learned = solver.tables.regrets
    assert game.played > 50
    assert not [key for key in learned if opponents_of(key) == 1 and key in heads_up]
    assert sum(opponents_of(key) >= 2 for key in learned) > 100
    # Without the table the same hands learn heads-up keys the table knows.
    plain = ExternalSampling(StudGame("stud8", 4), seed=3)
    plain.iterate(20)
    assert [key for key in plain.tables.regrets if opponents_of(key) == 1 and key in heads_up]


def test_a_multiway_table_is_exported_with_its_multiway_keys_alone(tmp_path: Path) -> None:
    out = tmp_path / "p.json.gz"
    tables = train(TrainSettings("razz", 3, 30, 1, batch=30, seed=1, out=out))
    written = policy_file.load(out)["tables"]["razz/3"]
    assert written and all(opponents_of(key) >= 2 for key in written)
    assert any(opponents_of(key) == 1 for key in tables.regrets)
    # Those reached less often than asked are left out (the tight rules play them).
    often = tmp_path / "often.json.gz"
    export(often, "razz", 3, tables, least_visits=20)
    kept = policy_file.load(often)["tables"]["razz/3"]
    assert kept and len(kept) < len(written) / 2
    assert all(written[key] == kept[key] and visits(tables, key) >= 20 for key in kept)
    assert all(visits(tables, key) < 20 for key in set(written) - set(kept))
    assert policy_file.load(often)["meta"]["razz/3"] == {"iterations": 30, "least_visits": 20}


def table_of(found: list[int] | None) -> int | None:
    """Which table answered (the test's tables mark their weights with their seats)."""
    return None if found is None else found[0]


def opponents_in(view: SeatView) -> int:
    return sum(not folded for s, folded in enumerate(view.folded) if s != view.seat)


def test_the_bot_looks_in_the_largest_multiway_table_while_it_was_trained_for_that_many() -> None:
    """Eight seats: with one opponent in the heads-up table answers; with two to four a table
    trained five-handed (the largest of three); with more, nothing (the tight rules play)."""
    views = decisions("stud8", 8, 8)
    by_opponents: dict[str, list[SeatView]] = {"heads-up": [], "trained": [], "more": []}
    for view in views:
        n = opponents_in(view)
        by_opponents["heads-up" if n == 1 else "trained" if n <= 4 else "more"].append(view)
    assert all(len(group) > 10 for group in by_opponents.values()), {
        k: len(v) for k, v in by_opponents.items()
    }
    # Every key in every table, the tables told apart by their weights' first number.
    every = {view_key(v, 3): len(view_key(v, 3).split(":")[1]) for v in views}
    tables = {
        f"stud8/{n}": {key: [n] + [0] * (letters - 1) for key, letters in every.items()} for n in (2, 3, 5)
    }
    assert multiway_table(tables, "stud8") == "stud8/5" and multiway_table(tables, "razz") == ""
    bot = LearnedBot(policy={"tables": tables})
    answers = {group: {table_of(bot.lookup(v)) for v in views} for group, views in by_opponents.items()}
    assert answers == {"heads-up": {2}, "trained": {5}, "more": {None}}
    # With the heads-up table alone a multiway pot has no answer (the tight rules play it).
    alone = LearnedBot(policy={"tables": {"stud8/2": tables["stud8/2"]}})
    assert all(alone.lookup(v) is None for v in by_opponents["trained"])


def test_a_table_that_learned_its_heads_up_ends_keeps_them_and_plays_them(tmp_path: Path) -> None:
    """``--learn-heads-up-ends``: the multiway table keeps the keys of its hands' heads-up ends
    and says so; the bot then plays a multiway hand come down to two by that table (where it
    knows the key), and without the table's word by its fallback, as before."""
    out = tmp_path / "p.json.gz"
    tables = train(TrainSettings("razz", 3, 30, 1, batch=30, seed=1, out=out, learn_ends=True))
    policy = policy_file.load(out)
    written = policy["tables"]["razz/3"]
    assert any(opponents_of(key) == 1 for key in written)
    assert any(opponents_of(key) == 2 for key in written)
    assert policy["meta"]["razz/3"]["heads_up_ends"] == "learned"
    # Learned, not played by the shipped heads-up table: its heads-up keys have regrets.
    assert sum(opponents_of(key) == 1 for key in tables.regrets) > 20
    ends = [v for v in decisions("razz", 3, 30) if opponents_in(v) == 1]
    known = [v for v in ends if view_key(v, 3) in written]
    assert len(ends) > 20 and known
    bot = LearnedBot(policy=policy)
    assert all(bot.lookup(v) == written.get(view_key(v, 3)) for v in ends)
    # The same table without the word "learned" is never asked there (razz's ends are the
    # fallback's: HEADS_UP_ENDS).
    quiet = LearnedBot(policy={"tables": policy["tables"]})
    assert all(quiet.lookup(v) is None for v in ends)


def test_a_checkpoint_resumes_only_as_it_was_trained(tmp_path: Path) -> None:
    """A checkpoint whose heads-up ends were learned is not resumed by a run that has the heads-up
    table play them (its tables would mix two games), nor the other way round."""
    ckpt = tmp_path / "t.ckpt"
    train(TrainSettings("razz", 3, 10, 1, batch=10, seed=1, checkpoint=ckpt, learn_ends=True))
    with pytest.raises(ValueError, match="heads-up ends learned: resume it the same way"):
        train(TrainSettings("razz", 3, 20, 1, batch=10, seed=1, checkpoint=ckpt))
    assert (
        train(TrainSettings("razz", 3, 20, 1, batch=10, seed=1, checkpoint=ckpt, learn_ends=True)).iterations
        == 20
    )
    plain = tmp_path / "plain.ckpt"
    train(TrainSettings("razz", 3, 10, 1, batch=10, seed=1, checkpoint=plain))
    with pytest.raises(ValueError, match="played by the heads-up table: resume it the same way"):
        train(TrainSettings("razz", 3, 20, 1, batch=10, seed=1, checkpoint=plain, learn_ends=True))
