"""Equity jobs for the study page: ``POST /api/equity`` starts one, ``GET /api/equity/{job}``
follows it (docs/protocol.md, "Equity").

A job is :func:`sevenstud.equity.equity` run in a thread pool, its ``progress`` callback kept for
the page to poll. No login is needed (guests study too), so every client address has a rate
limit, at most :data:`PER_CLIENT` jobs running at once, and the room at most :data:`RUNNING`
in all; a job is forgotten :data:`KEEP_SECONDS` after it was asked for. The position is checked
before a job starts: bad cards are a 400 with the equity calculator's own message.
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from sevenstud import equity as calculator

PER_CLIENT = 2
"""Jobs one client address may have running at once."""
RUNNING = 8
"""Jobs the room runs at once, all clients together."""
KEEP_SECONDS = 600.0
"""A job older than this is forgotten (its result too)."""
MAX_OUTCOMES = 5_000_000
"""``auto`` enumerates exactly up to this many outcomes, else samples (a job stays bounded)."""
MAX_TRIALS = 2_000_000
STARTS_PER_MINUTE = 20
"""Jobs one client address may ask for each minute."""
POLLS_PER_SECOND = 10.0
"""Requests about jobs one client address may make each second (a burst of as many)."""


class EquityRequest(BaseModel):
    """A position to study: each player's cards in dealing order (``??`` unknown), dead cards,
    how to count (``auto``: exact when small enough, else Monte Carlo) and the trials."""

    game: Literal["stud8", "stud", "razz"] = "stud8"
    hands: list[Annotated[str, Field(max_length=60)]] = Field(min_length=1, max_length=8)
    dead: str = Field(default="", max_length=200)
    method: Literal["auto", "exact", "monte-carlo"] = "auto"
    trials: int = Field(default=200_000, ge=1, le=MAX_TRIALS)


@dataclasses.dataclass(slots=True)
class Job:
    """One equity job: who asked (a client address), when, how far it is, its answer."""

    id: str
    client: str
    created: float
    progress: float = 0.0
    done: bool = False
    result: dict[str, Any] | None = None
    error: str | None = None

    def answer(self) -> dict[str, Any]:
        """The job as ``GET /api/equity/{job}`` says it."""
        if not self.done:
            return {"done": False, "progress": round(self.progress, 4)}
        if self.error is not None:
            return {"done": True, "error": self.error}
        return {"done": True, "progress": 1.0, "result": self.result}


def result_json(result: calculator.EquityResult) -> dict[str, Any]:
    """The page's form of an equity result: fractions per player (None: no such half)."""
    count = {"outcomes": result.outcomes} if result.exact else {"trials": result.outcomes}
    return {
        "exact": result.exact,
        "method": result.method,
        **count,
        "seconds": round(result.seconds, 3),
        "no_low": result.no_low,
        "players": [
            {
                "cards": p.cards,
                "equity": p.equity,
                "scoop": p.scoop,
                "high": p.high_win,
                "low": p.low_win,
                "tie": p.high_tie if p.high_tie is not None else p.low_tie,
                "high_tie": p.high_tie,
                "low_tie": p.low_tie,
                "equity_se": p.equity_se,
            }
            for p in result.players
        ],
    }


class _Bucket:
    """A token bucket per client address."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens: dict[str, tuple[float, float]] = {}

    def take(self, client: str) -> bool:
        now = self.clock()
        tokens, then = self.tokens.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self.tokens[client] = (tokens, now)
            return False
        self.tokens[client] = (tokens - 1, now)
        return True


class Study:
    """The room's equity jobs (see the module); ``clock`` gives the time in seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=RUNNING, thread_name_prefix="equity")
        self.starts = _Bucket(STARTS_PER_MINUTE / 60.0, STARTS_PER_MINUTE, clock)
        self.polls = _Bucket(POLLS_PER_SECOND, POLLS_PER_SECOND, clock)

    def close(self) -> None:
        """Stop taking jobs; the ones waiting are dropped."""
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _forget_old(self) -> None:
        old = self.clock() - KEEP_SECONDS
        for key in [k for k, job in self.jobs.items() if job.created < old]:
            del self.jobs[key]

    def start(self, body: EquityRequest, client: str) -> Job:
        """Check the position and queue its job; :class:`calculator.EquityError` for bad cards,
        :class:`HTTPException` 429 past a limit."""
        try:
            pos = calculator.position(body.hands, game=body.game, dead=body.dead)
        except ValueError as error:  # EquityError, and a card's own errors
            raise calculator.EquityError(str(error)) from None
        with self.lock:
            self._forget_old()
            if not self.starts.take(client):
                raise HTTPException(429, "too many equity jobs asked for: wait a minute")
            running = [j for j in self.jobs.values() if not j.done]
            if sum(1 for j in running if j.client == client) >= PER_CLIENT:
                raise HTTPException(429, f"at most {PER_CLIENT} equity jobs of yours run at once")
            if len(running) >= RUNNING:
                raise HTTPException(429, "the equity calculator is busy: try again shortly")
            job = Job(secrets.token_urlsafe(12), client, self.clock())
            self.jobs[job.id] = job
        _, work = calculator.exact_work(pos)
        exact = body.method == "exact" or (body.method == "auto" and work <= MAX_OUTCOMES)
        self.pool.submit(self._run, job, body, exact)
        return job

    def _run(self, job: Job, body: EquityRequest, exact: bool) -> None:
        def progress(fraction: float) -> None:
            job.progress = min(max(job.progress, fraction), 0.999)

        common: dict[str, Any] = {"game": body.game, "dead": body.dead, "progress": progress}
        try:
            try:
                if exact:
                    answer = calculator.equity(body.hands, exact=True, **common)
                else:
                    answer = calculator.equity(body.hands, trials=body.trials, **common)
            except calculator.EquityError:
                if body.method != "auto" or not exact:
                    raise
                # Too big to count exactly after all (memory): sample instead.
                answer = calculator.equity(body.hands, trials=body.trials, **common)
            job.result = result_json(answer)
        except ValueError as error:
            job.error = str(error)
        except Exception as error:  # a job that breaks says so; the room runs on
            job.error = f"the equity job failed: {type(error).__name__}"
        finally:
            job.progress = 1.0 if job.error is None else job.progress
            job.done = True

    def get(self, job_id: str, client: str) -> Job:
        """A job by its id; 404 when there is none (or it was forgotten), 429 past the limit."""
        with self.lock:
            if not self.polls.take(client):
                raise HTTPException(429, "too many requests: slow down")
            self._forget_old()
            job = self.jobs.get(job_id)
        if job is None:
            kept = f"{KEEP_SECONDS / 60:.0f} minutes"
            raise HTTPException(404, f"no equity job {job_id[:40]!r} (jobs are kept {kept})")
        return job


def router(study: Study) -> APIRouter:
    """``POST /api/equity`` and ``GET /api/equity/{job}`` over ``study``."""
    routes = APIRouter()

    def client_of(request: Request) -> str:
        return request.client.host if request.client is not None else "unknown"

    @routes.post("/api/equity")
    def start(body: EquityRequest, request: Request) -> dict[str, Any]:
        try:
            job = study.start(body, client_of(request))
        except calculator.EquityError as error:
            raise HTTPException(400, str(error)) from None
        return {"job": job.id}

    @routes.get("/api/equity/{job_id}")
    def follow(job_id: str, request: Request) -> dict[str, Any]:
        return study.get(job_id, client_of(request)).answer()

    return routes


__all__ = ["KEEP_SECONDS", "PER_CLIENT", "RUNNING", "EquityRequest", "Job", "Study", "result_json", "router"]
