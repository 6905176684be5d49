"""Equity jobs against a hostile client (issue 18, point 3): the size cap on every method, a
deadline that really stops the worker process (the process is gone, no core is left busy), a
job that counts against its client and the room until its worker has ended, and jobs forgotten
only after that. Each test sets tiny limits through the study's settings (EquityLimits)."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("numpy", reason="the equity calculator needs numpy (the server extra)")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sevenstud.server.study import jobs as study
from sevenstud.server.study.limits import EquityLimits, from_args
from tests.spawn import spawn

EIGHT_ON_THIRD = [
    "As 2d 3c",
    "Qs 4h 5c",
    "Kd Kh 8s",
    "7c 7d 9h",
    "Jh Td 6s",
    "2s 3h 4d",
    "5s 6h 8c",
    "9c Tc Jc",
]
"""Eight players on 3rd street: about 3 x 10^22 outcomes to count exactly."""
THREE_ON_THIRD = ["As 2d 3c", "Qs 4h 5c", "Kd Kh 8s"]
"""Three players on 3rd street: 5.3 x 10^14 outcomes, an exact count that would run for days."""
SMALL = ["As Ad Kc 7h 2d", "Qs Qh Jc 9d 9s"]
"""Two players on 5th street: counted exactly in well under a second."""


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (a zombie counts: not reaped yet)."""
    return Path(f"/proc/{pid}").exists() if Path("/proc").exists() else _signal_zero(pid)


def _signal_zero(pid: int) -> bool:  # pragma: no cover - not Linux
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _workers(root: int | None = None) -> list[int]:
    """The processes the children of ``root`` (this process by default) started: the fork
    server's workers. None once the jobs have ended."""
    if not Path("/proc").exists():  # pragma: no cover - not Linux
        return []
    me = os.getpid() if root is None else root
    stats = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats.append((int(entry.name), int(fields[1])))
    children = {pid for pid, parent in stats if parent == me}
    grandchildren = [pid for pid, parent in stats if parent in children]
    return grandchildren


def _cpu_ticks(pid: int) -> int:
    """The CPU time a process has used, user and system, in clock ticks (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def _until(check: Callable[[], bool], seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "gave up waiting"
        time.sleep(0.02)


@pytest.fixture
def jobs(request: pytest.FixtureRequest) -> Iterator[Callable[..., study.Study]]:
    """``jobs(**limits)``: a study with those limits (closed at the end of the test)."""
    made: list[study.Study] = []

    def make(clock: Callable[[], float] = time.monotonic, **limits: Any) -> study.Study:
        limits.setdefault("polls_per_second", 1000)  # the tests poll as fast as they like
        made.append(study.Study(EquityLimits(**limits), clock=clock))
        return made[-1]

    yield make
    for each in made:
        each.close()
    _until(lambda: not _workers(), 10)


def _client(jobs: study.Study) -> TestClient:
    app = FastAPI()
    app.include_router(study.router(jobs))
    return TestClient(app)


# ---------------------------------------------------------------------- the size cap, every method


def test_the_exact_job_of_3e22_outcomes_is_refused_naming_the_limit(jobs: Callable[..., study.Study]) -> None:
    room = jobs()
    http = _client(room)
    refused = http.post("/api/equity", json={"hands": EIGHT_ON_THIRD, "method": "exact"})
    assert refused.status_code == 400
    body = refused.json()
    assert body["reason"] == "too-large" and body["limit"] == "max_outcomes"
    assert body["most"] == 20_000_000 and body["asked"] > 3 * 10**22
    assert "max_outcomes" in body["detail"] and "20,000,000" in body["detail"]
    assert "Monte Carlo" in body["detail"]
    # Nothing was started: no job, no worker.
    assert room.running() == [] and room.jobs == {} and _workers() == []


def test_the_cap_applies_to_monte_carlo_and_auto_too(jobs: Callable[..., study.Study]) -> None:
    room = jobs(max_trials=50_000)
    http = _client(room)
    for method in ("monte-carlo", "auto"):
        refused = http.post("/api/equity", json={"hands": EIGHT_ON_THIRD, "method": method, "trials": 50_001})
        assert refused.status_code == 400, method
        assert refused.json()["reason"] == "too-large" and refused.json()["limit"] == "max_trials"
        assert "50,001 trials" in refused.json()["detail"] and "50,000" in refused.json()["detail"]
    # auto on a position past max_outcomes samples (within max_trials) rather than counting.
    job = http.post("/api/equity", json={"hands": EIGHT_ON_THIRD, "method": "auto", "trials": 2000}).json()[
        "job"
    ]
    _until(lambda: http.get(f"/api/equity/{job}").json()["done"])
    result = http.get(f"/api/equity/{job}").json()["result"]
    assert result["method"] == "monte-carlo" and result["trials"] == 2000
    # A small exact job is counted, as before.
    job = http.post("/api/equity", json={"hands": SMALL, "method": "exact"}).json()["job"]
    _until(lambda: http.get(f"/api/equity/{job}").json()["done"])
    assert http.get(f"/api/equity/{job}").json()["result"]["outcomes"] == 671_580


def test_the_limits_are_the_servers_settings() -> None:
    from sevenstud.cli import build_parser

    args = build_parser().parse_args(
        ["serve", "--equity-jobs", "3", "--equity-seconds", "0.5", "--equity-max-outcomes", "1000"]
    )
    limits = from_args(args)
    assert (limits.running, limits.seconds, limits.max_outcomes) == (3, 0.5, 1000)
    assert limits.per_client == EquityLimits().per_client  # not given: the default
    with pytest.raises(ValueError, match="per_client"):
        EquityLimits(per_client=0)


# ---------------------------------------------------------------------- the deadline


def test_a_monte_carlo_job_cut_at_its_deadline_keeps_its_trials_and_its_worker_is_gone(
    jobs: Callable[..., study.Study],
) -> None:
    room = jobs(seconds=0.5, grace=3.0, max_trials=10**9)
    http = _client(room)
    # Eight players: shuffles, whose first block comes within milliseconds (no tables to build).
    start = http.post("/api/equity", json={"hands": EIGHT_ON_THIRD, "method": "monte-carlo", "trials": 10**9})
    assert start.status_code == 200 and start.json()["deadline"] == 0.5
    job = room.jobs[start.json()["job"]]
    _until(lambda: job.done)
    answer = http.get(f"/api/equity/{job.id}").json()
    assert answer["done"] and answer["stopped"] == "deadline"
    assert "deadline of 0.5 s" in answer["error"] and "of the 1,000,000,000 trials" in answer["error"]
    drawn = answer["result"]["trials"]
    assert 0 < drawn < 10**9
    assert abs(sum(p["equity"] for p in answer["result"]["players"]) - 1) < 1e-9
    # It stopped by itself (between two blocks), and the process is gone: no core is busy.
    assert not job.killed and job.pid is not None and not _alive(job.pid)
    assert _workers() == [] and room.running() == []


def test_a_worker_that_does_not_stop_is_killed_and_counts_against_its_client_until_then(
    jobs: Callable[..., study.Study],
) -> None:
    room = jobs(seconds=0.4, grace=1.5, per_client=1, max_outcomes=10**16)
    http = _client(room)
    first = http.post("/api/equity", json={"hands": THREE_ON_THIRD, "method": "exact"}).json()["job"]
    job = room.jobs[first]
    _until(lambda: job.pid is not None)
    assert job.pid is not None
    os.kill(job.pid, signal.SIGSTOP)  # a worker stuck in one long step: it cannot look at "stop"
    time.sleep(0.7)  # past the deadline, within the grace
    assert not job.done and _alive(job.pid) and job.pid in _workers()
    again = http.post("/api/equity", json={"hands": SMALL, "method": "exact"})
    assert again.status_code == 429 and again.json()["reason"] == "client-busy"
    assert again.json()["limit"] == "per_client" and int(again.headers["Retry-After"]) >= 1
    _until(lambda: job.done, 10)
    assert job.killed and job.stopped == "deadline" and not _alive(job.pid)
    answer = http.get(f"/api/equity/{first}").json()
    assert answer["stopped"] == "deadline" and "ask for Monte Carlo" in answer["error"]
    assert "result" not in answer
    # The worker has ended: the client may start another job.
    assert http.post("/api/equity", json={"hands": SMALL, "method": "exact"}).status_code == 200


def test_an_exact_job_stops_at_its_deadline_between_blocks(jobs: Callable[..., study.Study]) -> None:
    room = jobs(seconds=0.4, grace=5.0, max_outcomes=10**16)
    job = room.start(study.EquityRequest(hands=THREE_ON_THIRD, method="exact"), "a")
    began = time.monotonic()
    _until(lambda: job.done)
    # It ended on its own, well before the kill would have come.
    assert job.stopped == "deadline" and not job.killed and time.monotonic() - began < 4.0
    assert job.pid is not None and not _alive(job.pid)


def test_closing_the_study_stops_every_worker(jobs: Callable[..., study.Study]) -> None:
    room = jobs(running=2, seconds=60, grace=1.0, max_outcomes=10**16)
    running = [room.start(study.EquityRequest(hands=THREE_ON_THIRD, method="exact"), c) for c in "ab"]
    _until(lambda: all(job.pid is not None for job in running))
    room.close()
    assert all(job.done and job.stopped == "shutdown" for job in running)
    assert not any(_alive(job.pid or 0) for job in running) and _workers() == []
    refused = _client(room).post("/api/equity", json={"hands": SMALL})
    assert refused.status_code == 503 and refused.json()["reason"] == "server-busy"


@pytest.mark.skipif(not Path("/proc").exists(), reason="finds the workers through /proc (Linux)")
def test_a_server_killed_with_9_leaves_no_worker_running(tmp_path: Path) -> None:
    """``sevenstud serve`` itself: its options set the limits, and when the server dies (kill
    -9: no shutdown runs) its workers die with it, not running on for ever."""
    args = ["--equity-max-outcomes", str(10**16), "--equity-seconds", "600"]
    served = spawn(f"sqlite:///{tmp_path / 'room.sqlite3'}", args=args)
    try:
        answer = httpx.post(f"{served.base}/api/equity", json={"hands": THREE_ON_THIRD, "method": "exact"})
        assert answer.status_code == 200 and answer.json()["deadline"] == 600
        _until(lambda: bool(_workers(served.process.pid)), 30)
        workers = _workers(served.process.pid)
        # Computing, so past its first lines, where it closes its copy of the fork server's pipe
        # and asks to die with it: stopped before those (CI did, once in many runs) it would
        # keep the fork server alive, and itself, which no server can prevent.
        _until(lambda: all(_cpu_ticks(pid) >= 10 for pid in workers), 30)
        for pid in workers:  # stuck: it will not see its pipe close, only the system can end it
            os.kill(pid, signal.SIGSTOP)
    finally:
        served.stop(signal.SIGKILL)
    _until(lambda: not any(_alive(pid) for pid in workers), 15)


# ---------------------------------------------------------------------- counting and forgetting


def test_a_full_room_is_a_503_with_retry_after_and_frees_when_the_worker_ends(
    jobs: Callable[..., study.Study],
) -> None:
    room = jobs(running=1, seconds=0.6, grace=1.0, max_outcomes=10**16)
    http = _client(room)
    first = http.post("/api/equity", json={"hands": THREE_ON_THIRD, "method": "exact"}).json()["job"]
    busy = http.post("/api/equity", json={"hands": SMALL})
    assert busy.status_code == 503 and busy.json()["reason"] == "server-busy"
    assert busy.json()["limit"] == "running" and busy.json()["most"] == 1
    assert int(busy.headers["Retry-After"]) >= 1 and "busy" in busy.json()["detail"]
    _until(lambda: room.jobs[first].done)
    assert http.post("/api/equity", json={"hands": SMALL}).status_code == 200


def test_a_job_is_forgotten_only_after_its_worker_ended(jobs: Callable[..., study.Study]) -> None:
    now = [0.0]
    room = jobs(clock=lambda: now[0], seconds=0.8, grace=1.0, keep_seconds=60, max_outcomes=10**16)
    job = room.start(study.EquityRequest(hands=THREE_ON_THIRD, method="exact"), "a")
    now[0] += 10**6  # long past keep_seconds since it was asked for: its worker runs, it is kept
    assert room.get(job.id, "a") is job and not job.done
    _until(lambda: job.done)
    now[0] += 30
    assert room.get(job.id, "b").answer()["stopped"] == "deadline"
    # its error is said in the language asked for (GET /api/equity/{job}?lang=et), "stopped" kept
    said = job.answer("et")
    assert said["stopped"] == "deadline"
    assert re.fullmatch(
        r"katkestati tähtajal 0\.8 s \(seconds\), loetud \d+%: selle seisu täpne loendamine võtab kauem,"
        r" kui see server lubab; vali Monte Carlo",
        said["error"],
    ), said["error"]
    now[0] += 31  # keep_seconds after its worker ended: forgotten
    with pytest.raises(study.Refused) as gone:
        room.get(job.id, "c")
    assert gone.value.status == 404 and gone.value.reason == "unknown-job"
    assert "kept 1 min after it ended" in gone.value.detail


def test_the_finished_jobs_kept_are_bounded(jobs: Callable[..., study.Study]) -> None:
    room = jobs(kept=2)
    done = []
    for _ in range(4):
        job = room.start(study.EquityRequest(hands=SMALL, method="exact"), "a")
        _until(lambda job=job: job.done)  # type: ignore[misc]
        done.append(job)
    room.start(study.EquityRequest(hands=SMALL, method="exact"), "a")
    assert set(room.jobs) >= {done[-1].id, done[-2].id} and done[0].id not in room.jobs


def test_starts_and_polls_have_their_rates(jobs: Callable[..., study.Study]) -> None:
    now = [0.0]
    room = jobs(clock=lambda: now[0], starts_per_minute=2, polls_per_second=3, per_client=5, running=5)
    http = _client(room)
    for _ in range(2):
        assert http.post("/api/equity", json={"hands": SMALL}).status_code == 200
    refused = http.post("/api/equity", json={"hands": SMALL})
    assert refused.status_code == 429 and refused.json()["reason"] == "rate"
    assert refused.json()["limit"] == "starts_per_minute" and int(refused.headers["Retry-After"]) == 30
    for _ in range(3):
        assert http.get("/api/equity/nope").status_code == 404
    slow_down = http.get("/api/equity/nope")
    assert slow_down.status_code == 429 and slow_down.json()["limit"] == "polls_per_second"
    now[0] += 1.0
    assert http.get("/api/equity/nope").json()["reason"] == "unknown-job"


def test_a_worker_past_its_memory_fails_with_the_limit_named(jobs: Callable[..., study.Study]) -> None:
    room = jobs(memory_mb=200)  # heads-up 3rd street counted exactly needs about 320 MiB
    job = room.start(study.EquityRequest(hands=["As Ad Kc", "Qs Qh Jc"], method="exact"), "a")
    _until(lambda: job.done)
    assert job.answer() == {
        "done": True,
        "error": "the equity job needed more memory than this server gives one job (memory_mb)",
    }
    assert job.answer("ru")["error"] == (
        "заданию эквити понадобилось больше памяти, чем этот сервер даёт одному заданию (memory_mb)"
    )
    assert job.pid is not None and not _alive(job.pid)
