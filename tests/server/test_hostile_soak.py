"""The hostile-client soak, short (issue 18, point 13): honest people play at six tables while
spectators that never read, garbage senders, a guest flood, a password flood and equity jobs
too large to run, header floods, connection hoarders, lone surrogates and guests asking for
their history in a loop all hit the same card room (benchmarks/hostile_soak.py; the full size is a
benchmark). Nothing may stall a table, leak a card, trouble an honest client or unbalance the
ledger, and every attacker is answered with a refusal that names it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from hostile_soak import run


def test_honest_tables_play_on_through_every_attack_at_once() -> None:
    report = run(
        tables=6, seconds=20.0, non_readers=6, garbage=3, stored_hands=3000, history_askers=2, field_size=40
    )
    assert report.stalled == [], f"tables stalled: {report.stalled}"
    assert report.leaks == []
    assert report.honest.errors == []
    assert report.honest.actions > 30 and set(report.last_activity) >= set(report.tables)
    assert report.audit.endswith(": clean"), report.audit
    answers = report.answers
    assert answers["guest flood 429"] > 0 and answers["guest flood 200"] <= 20
    assert answers["login flood 429"] > 0 and answers["login flood 200"] == 0
    assert answers["equity exact 8 players 400"] > 0 and answers["equity exact 8 players 200"] == 0
    assert answers["garbage answered error"] > 0
    assert not [a for a in answers if a.startswith("attacker failed")], answers
    # the new attackers (issue 36): a 50 MiB header is never read whole, connections past the
    # count per address are refused, a lone surrogate is a 422 (never a 500)
    assert answers["header flood 431"] > 0 and answers["header flood 200"] == 0, answers
    assert answers["hoarder 429"] > 0, answers
    assert answers["lone surrogate 422"] > 0 and answers["lone surrogate 500"] == 0, answers
    # guests asking for their own hands in a loop, in a room of stored hands, are answered
    for route in ("/api/hands", "/api/history", "/api/stats"):
        assert answers[f"history {route} 200"] > 0, answers
    assert not [a for a in answers if a.startswith("history ") and not a.endswith(" 200")], answers
    # tournament floods and register churn (issue 36, points 3 and 6): the limits answer 429,
    # never a 500, and the churned field is still the audit's (clean, above)
    assert answers["tournament flood 429"] > 0 and answers["tournament flood 200"] <= 10, answers
    assert answers["field register 200"] == 40, answers
    assert answers["register churn register 200"] > 0, answers
    attackers = [a for a in answers if a.startswith(("tournament flood", "register churn"))]
    assert not [a for a in attackers if a.rsplit(" ", 1)[-1].startswith("5")], answers
