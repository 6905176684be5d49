"""Complete hands per second through a six-seat ``Table``, as a server or a bot drives it.

Every decision builds the actor's view (``table.view(seat)``) before a uniformly random legal
action is taken; between hands a player below 50 chips tops up to 200 (and sits in again), so
six players are dealt every hand. Stud Hi/Lo at 1/2/5/10, the clock running (one second a
decision, never timing out), a fresh seed every hand.

- ``table, views``: the table alone.
- ``table, views, JSON``: as the server will: after every command each viewer (the six seats
  and a spectator) reads its new stream entries, and each entry and the actor's view are encoded
  with ``to_wire`` and ``json.dumps``.
- ``bare Hand`` (the reference the ratios are against): the same random hands through the engine
  alone, no table, no views, no encoding.

    .venv/bin/python benchmarks/table_throughput.py [--seconds S] [--json]
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import main

SEATS = 6
PLAYERS = tuple(f"p{n}" for n in range(1, SEATS + 1))


def _table(seed: int) -> Any:
    from sevenstud.games import Stakes, StudHiLo
    from sevenstud.table import Table, TableSettings

    settings = TableSettings(
        StudHiLo(Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)),
        seats=SEATS,
        min_buy_in=40,
        max_buy_in=200,
        action_time=15.0,
    )
    table = Table(settings)
    for seat, player in enumerate(PLAYERS, 1):
        table.sit_down(player, seat, 200, now=0.0)
    return table


def _between_hands(table: Any, now: float) -> None:
    """Players low on chips top up (and sit in again), so every hand is dealt six-handed."""
    for state in table.view(None).seats:
        if state.stack < 50:
            table.top_up(state.player, 200 - state.stack, now=now)
            if state.sitting_out:
                table.sit_in(state.player, now=now)


def _run(
    seconds: float, on_entries: Callable[[Any], None] | None, encode_view: bool
) -> tuple[int, float, str, float]:
    from sevenstud.wire import to_wire

    table = _table(0)
    rng = random.Random(0)
    choice = rng.choice
    dumps = json.dumps
    now = 0.0
    done = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            now += 1.0
            _between_hands(table, now)
            table.start_hand(now, seed=done)
            if on_entries is not None:
                on_entries(table)
            while table.hand_in_progress:
                seat = table.to_act
                view = table.view(seat)  # what the actor (a client, a bot) decides from
                if encode_view:
                    dumps(to_wire(view))
                now += 1.0
                table.act(seat, choice(view.hand.legal_actions), now=now)
                if on_entries is not None:
                    on_entries(table)
            done += 1
    return done, time.perf_counter() - start, "hands", time.process_time() - cpu_start


def table_with_views(seconds: float) -> tuple[int, float, str, float]:
    return _run(seconds, None, encode_view=False)


def table_with_views_and_json(seconds: float) -> tuple[int, float, str, float]:
    from sevenstud.wire import to_wire

    viewers = (None, *range(1, SEATS + 1))
    read = dict.fromkeys(viewers, 0)
    dumps = json.dumps

    def send(table: Any) -> None:
        # Each connection gets its own redacted entries since the last it was sent.
        for viewer in viewers:
            for entry in table.events_since(read[viewer], viewer):
                dumps(to_wire(entry))
            read[viewer] = table.number

    return _run(seconds, send, encode_view=True)


def bare_hand(seconds: float) -> tuple[int, float, str, float]:
    from sevenstud.games import Stakes, StudHiLo
    from sevenstud.hand import Hand

    game = StudHiLo(Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10))
    rng = random.Random(0)
    choice = rng.choice
    stacks = [200] * SEATS
    done = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            hand = Hand(game, [s if s >= 50 else 200 for s in stacks], seed=done)
            while not hand.is_over:
                hand.act(choice(hand.legal_actions()))
            stacks = list(hand.stacks)
            done += 1
    return done, time.perf_counter() - start, "hands", time.process_time() - cpu_start


SIDES = {
    "table, views": table_with_views,
    "table, views, JSON": table_with_views_and_json,
    "bare Hand (reference)": bare_hand,
}

if __name__ == "__main__":
    main(
        __file__,
        "Complete six-seat Stud Hi/Lo hands through Table, random legal actions, one core",
        SIDES,
    )
