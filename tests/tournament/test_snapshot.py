"""The director stored and taken up again (issue 15, point 6; docs/tournaments.md, "Storage and
recovery"): a tournament whose director is written out and read back after every step plays
exactly as one never stored, and a director taken up after time down has its clock paused."""

from __future__ import annotations

import json
import random

import pytest

from sevenstud.tournament import STANDARD, TURBO, Director, StructureError, TournamentSettings
from sevenstud.tournament.snapshot import (
    director_from_parts,
    director_from_record,
    director_moved_on,
    director_parts,
    director_to_record,
    settings_from_record,
    settings_to_record,
)
from tests.tournament.fake_hands import Run, check_invariants, finish_hand, start_hand


def _play(settings: TournamentSettings, seed: int, stored: bool, late: int = 0, parts: bool = False) -> Run:
    run = Run(Director(settings, seed=seed), random.Random(seed))
    kept: dict[tuple[str, object], dict[str, object]] = {}  # a store's parts (``parts``)
    choice = random.Random(seed)  # (not the run's: its hands are the plain run's)
    for n in range(40):
        run.take(run.director.register(f"p{n}", 0.0))
    late_names = [f"late{n}" for n in range(late)]
    for _ in range(200_000):
        d = run.director
        if d.state in ("finished", "cancelled"):
            return run
        run.take(d.tick(run.now))
        if late_names and d.late_open and d.state == "running" and run.rng.random() < 0.05:
            run.take(d.register(late_names.pop(), run.now))
        ready = [t for t in sorted(d.tables) if d.may_deal(t, run.now) is not None]
        if ready and (not run.in_progress or run.rng.random() < 0.6):
            start_hand(run, run.rng.choice(ready))
        elif run.in_progress:
            finish_hand(run, run.rng.choice(sorted(run.in_progress)))
        else:
            run.now += 1.0
        run.now += run.rng.uniform(0, 5)
        if parts:  # the changed parts alone written, as the card room does, and read back whole
            whole = director_to_record(d, run.now)
            head, entrants, tables = json.loads(json.dumps(director_parts(d, run.now), default=list))
            for kind, changed in (("entrant", entrants), ("table", tables)):
                for key, record in changed.items():
                    if record is None:
                        kept.pop((kind, key), None)
                    else:
                        kept[(kind, key)] = record
            if choice.random() < 0.5:  # read whole
                run.director = director_from_parts(
                    head,
                    [r for (kind, _), r in kept.items() if kind == "entrant"],
                    [r for (kind, _), r in kept.items() if kind == "table"],
                    run.now,
                )
                run.director.take_changes()  # (all of it stored)
            else:  # or the changes alone taken up, as a process sharing the tournament does
                changed_tables = [(int(n), r) for n, r in tables.items()]
                run.director = director_moved_on(
                    d, head, [r for r in entrants.values() if r is not None], changed_tables, run.now
                )
            assert director_to_record(run.director, run.now) == whole
            check_invariants(run.director)
        elif stored:  # through JSON, as the database holds it, at the same moment (no time down)
            run.director = director_from_record(
                json.loads(json.dumps(director_to_record(d, run.now))), run.now
            )
            check_invariants(run.director)
    raise AssertionError("the tournament did not end")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_director_stored_after_every_step_plays_as_one_never_stored(seed: int) -> None:
    """Everything is in the record: seats drawn after a restart, levels, breaks, late entries
    and places are those of the director that never stopped (its random draws included)."""
    settings = TournamentSettings(
        kind="scheduled",
        seats=6,
        max_entries=100,
        start_at=0.0,
        structure=STANDARD,
        late_registration_levels=2,
    )
    plain = _play(settings, seed, stored=False, late=8)
    again = _play(settings, seed, stored=True, late=8)
    assert again.finishes == plain.finishes
    assert again.seats_given == plain.seats_given
    assert again.hands == plain.hands


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_director_stored_in_parts_after_every_step_plays_as_one_never_stored(seed: int) -> None:
    """Only the entrants and tables a step changed are written (issue 35: a hand's write the
    size of the hand), yet what is read back is the whole director after every step: a change
    the director failed to note would leave a stale part, and the records would differ."""
    settings = TournamentSettings(
        kind="scheduled",
        seats=6,
        max_entries=100,
        start_at=0.0,
        structure=STANDARD,
        late_registration_levels=2,
    )
    plain = _play(settings, seed, stored=False, late=8)
    again = _play(settings, seed, stored=True, late=8, parts=True)
    assert again.finishes == plain.finishes
    assert again.seats_given == plain.seats_given
    assert again.hands == plain.hands


def test_the_clock_stands_still_while_the_server_is_down() -> None:
    """Play time stops at the moment stored: a director taken up an hour later has the same
    play time, the same time to the next level, and a break's end moved on by the hour."""
    d = Director(TournamentSettings(seats=2, max_entries=2, structure=TURBO), seed=3)
    d.register("ann", 0.0)
    d.register("bob", 10.0)
    record = director_to_record(d, 100.0)
    later = director_from_record(record, 3700.0)
    assert later.play_time(3700.0) == pytest.approx(d.play_time(100.0))
    assert later.time_to_next_level(3700.0) == pytest.approx(d.time_to_next_level(100.0))
    assert later.play_time(3760.0) == pytest.approx(d.play_time(160.0))  # and runs again


def test_a_template_round_trips_and_a_bad_one_is_refused_by_name() -> None:
    settings = TournamentSettings(kind="scheduled", start_at=5.0, rotation=("stud8", "razz"), max_entries=50)
    assert settings_from_record(json.loads(json.dumps(settings_to_record(settings)))) == settings
    with pytest.raises(StructureError, match="unknown template field"):
        settings_from_record({**settings_to_record(settings), "jackpot": 1})
    with pytest.raises(StructureError, match="version"):
        director_from_record({"version": 99}, 0.0)
