"""Equity jobs for the study page: ``POST /api/equity`` starts one, ``GET /api/equity/{job}``
follows it (docs/protocol.md, "Equity jobs"; the limits: docs/security.md, "Equity jobs").

A job is :func:`sevenstud.equity.equity` in a worker process of its own
(:mod:`~sevenstud.server.study.worker`), watched by a thread of the server: it runs under a
deadline and is killed when it does not stop at it. No login is needed (guests study too), so
what a job may cost is bounded before it starts, by :class:`~.equity_limits.EquityLimits`: the
size of the work for every method (exact counting's work, Monte Carlo's trials), the jobs one
client address may run at once and the jobs the room runs at once (each a process on one core),
and a rate of starts and of polls per address. A job counts against its client and the room
from the moment it is accepted until its worker process has ended, and is forgotten only
``keep_seconds`` after that. Every refusal is a :class:`Refused`: its status, a ``reason`` a
page can tell apart, the limit and the message, said in the request's language (``?lang=``,
else ``Accept-Language``, as every refusal of the card room: :mod:`~sevenstud.server.answers`);
so is a job's ``error``. The message is a :class:`sevenstud.refusals.Refusal`, said by its code.
"""

from __future__ import annotations

import dataclasses
import math
import secrets
import threading
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from sevenstud import equity as calculator
from sevenstud.games import GameCode, StudHiLo
from sevenstud.refusals import Refusal
from sevenstud.server.answers import language_of_request
from sevenstud.server.i18n import say
from sevenstud.server.study import worker as equity_worker
from sevenstud.server.study.limits import EquityLimits, exact_seconds


class EquityRequest(BaseModel):
    """A position to study: each player's cards in dealing order (``??`` unknown), dead cards,
    how to count (``auto``: exact when small enough, else Monte Carlo) and the trials (at most
    the server's ``max_trials``, checked when the job is asked for). Strict, as every body
    and message: ``"trials": "5"`` is refused naming the field, not read as 5."""

    model_config = ConfigDict(strict=True)

    game: GameCode = StudHiLo.code
    hands: list[Annotated[str, Field(max_length=60)]] = Field(min_length=1, max_length=8)
    dead: str = Field(default="", max_length=200)
    method: Literal["auto", "exact", "monte-carlo"] = "auto"
    trials: int = Field(default=200_000, ge=1, le=10**12)


class Refused(Exception):
    """A request about equity jobs that is refused: HTTP ``status``, ``reason`` (a word a page
    tells apart: ``bad-position``, ``too-large``, ``client-busy``, ``server-busy``, ``rate``,
    ``unknown-job``), the message, and ``extra`` fields (the limit: its name, the most it
    allows, what was asked); ``retry_after`` in seconds where waiting helps. ``refusal`` says why
    (``detail``: its English); :meth:`response` says it in the request's language, by its code."""

    def __init__(
        self, status: int, reason: str, detail: Refusal, *, retry_after: float | None = None, **extra: Any
    ) -> None:
        super().__init__(str(detail))
        self.status, self.reason, self.refusal, self.detail = status, reason, detail, str(detail)
        self.retry_after, self.extra = retry_after, extra

    def response(self, lang: str = "en") -> JSONResponse:
        """The refusal as the HTTP answer: ``{"detail", "reason", ...}`` and ``Retry-After``;
        ``detail`` in ``lang``, the rest (for programs) as it is."""
        headers = {}
        body: dict[str, Any] = {"detail": say(self.refusal, lang), "reason": self.reason, **self.extra}
        if self.retry_after is not None:
            seconds = max(1, math.ceil(self.retry_after))
            headers["Retry-After"] = str(seconds)
            body["retry_after"] = seconds
        return JSONResponse(body, status_code=self.status, headers=headers)


@dataclasses.dataclass(slots=True)
class Job:
    """One equity job: who asked (a client address), when, how far it is, its answer. ``done``
    is set only once its worker process has ended; ``stopped`` says why it was cut short."""

    id: str
    client: str
    created: float
    deadline: float
    """The job's deadline in seconds from its start."""
    trials: int | None = None
    """The trials asked for (None: exact counting)."""
    progress: float = 0.0
    done: bool = False
    ended: float | None = None
    """When the worker had ended (the study's clock)."""
    result: dict[str, Any] | None = None
    error: Refusal | None = None
    stopped: str | None = None
    """``"deadline"`` or ``"shutdown"`` when the job was cut short."""
    pid: int | None = None
    """The worker process's id, once started (it may have ended: see ``done``)."""
    killed: bool = False
    """The worker did not stop when asked and was killed."""

    def answer(self, lang: str = "en") -> dict[str, Any]:
        """The job as ``GET /api/equity/{job}`` says it, its ``error`` in ``lang``."""
        if not self.done:
            return {"done": False, "progress": round(self.progress, 4), "deadline": self.deadline}
        if self.stopped is not None:
            stopped = {"done": True, "progress": round(self.progress, 4), "stopped": self.stopped}
            stopped["error"] = say(self.error or Refusal("cut_short"), lang)
            if self.result is not None:
                stopped["result"] = self.result
            return stopped
        if self.error is not None:
            return {"done": True, "error": say(self.error, lang)}
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

    def take(self, client: str) -> float:
        """0 when a token was taken, else the seconds until there is one."""
        now = self.clock()
        tokens, then = self.tokens.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self.tokens[client] = (tokens, now)
            return (1 - tokens) / self.rate
        if len(self.tokens) > 10_000:  # many addresses: forget the full buckets (full is the default)
            self.tokens = {
                k: (t, w) for k, (t, w) in self.tokens.items() if t + (now - w) * self.rate < self.burst
            }
        self.tokens[client] = (tokens - 1, now)
        return 0.0


class Study:
    """The room's equity jobs (see the module); ``clock`` gives the time in seconds (the rates
    and the forgetting; a worker's deadline is real time)."""

    def __init__(
        self, limits: EquityLimits | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limits = limits or EquityLimits()
        self.clock = clock
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.watchers: set[threading.Thread] = set()
        self.starts = _Bucket(self.limits.starts_per_minute / 60.0, self.limits.starts_per_minute, clock)
        self.polls = _Bucket(self.limits.polls_per_second, self.limits.polls_per_second, clock)

    def close(self, seconds: float | None = None) -> None:
        """Stop every job (each worker asked to stop, then killed) and wait for their workers to
        end (at most ``seconds``, by default the grace and a second more); take no more jobs."""
        self.closing.set()
        wait = self.limits.grace + 1.0 if seconds is None else seconds
        end = time.monotonic() + wait
        with self.lock:
            watchers = list(self.watchers)
        for watcher in watchers:
            watcher.join(max(0.0, end - time.monotonic()))

    def running(self) -> list[Job]:
        """The jobs whose worker has not ended yet."""
        with self.lock:
            return [job for job in self.jobs.values() if not job.done]

    def _forget_old(self) -> None:
        """Forget the jobs whose worker ended ``keep_seconds`` ago, and past ``kept`` finished
        jobs the oldest; never a job whose worker may still run."""
        old = self.clock() - self.limits.keep_seconds
        finished = sorted((job.ended, key) for key, job in self.jobs.items() if job.ended is not None)
        surplus = len(finished) - self.limits.kept
        for place, (ended, key) in enumerate(finished):
            if ended <= old or place < surplus:
                del self.jobs[key]

    def _order(self, body: EquityRequest) -> equity_worker.Order:
        """What to compute, or :class:`Refused` (400) for bad cards or a job past the size cap."""
        limits = self.limits
        try:
            pos = calculator.position(body.hands, game=body.game, dead=body.dead)
            method, work = calculator.exact_work(pos)
        except ValueError as error:  # EquityError, and a card's own errors
            refusal = error if isinstance(error, Refusal) else Refusal(str(error))
            raise Refused(400, "bad-position", refusal) from None
        if body.method == "exact" and work > limits.max_outcomes:
            raise Refused(
                400,
                "too-large",
                Refusal(
                    "exact_too_much_work", work=f"{work:,}", method=method, most=f"{limits.max_outcomes:,}"
                ),
                limit="max_outcomes",
                most=limits.max_outcomes,
                asked=work,
            )
        exact = body.method == "exact" or (body.method == "auto" and self.quick(method, work))
        if not exact and body.trials > limits.max_trials:
            raise Refused(
                400,
                "too-large",
                Refusal("too_many_trials", trials=f"{body.trials:,}", most=f"{limits.max_trials:,}"),
                limit="max_trials",
                most=limits.max_trials,
                asked=body.trials,
            )
        return equity_worker.Order(
            tuple(body.hands), body.game, body.dead, exact, body.trials, fallback=body.method == "auto"
        )

    def quick(self, method: str, work: int) -> bool:
        """``auto``'s choice: count exactly when the cost model says it is quick (at most
        ``quick_seconds`` at the measured rate of its method), within ``max_outcomes``, and
        within exact counting's memory (two players hold their completions at once)."""
        limits = self.limits
        if method == "inclusion-exclusion" and work > calculator.EXACT_MEMORY_LIMIT:
            return False
        return work <= limits.max_outcomes and exact_seconds(method, work) <= limits.quick_seconds

    def _wait_for(self, jobs: list[Job]) -> float:
        """Seconds until the first of ``jobs`` must have ended (its deadline and the grace)."""
        now = self.clock()
        ends = [job.created + job.deadline + self.limits.grace - now for job in jobs]
        return max(1.0, min(ends, default=1.0))

    def start(self, body: EquityRequest, client: str) -> Job:
        """Check the position and the limits and start the job's worker; :class:`Refused` when
        the cards are bad, the job is too large, or a limit of jobs or of starts is reached."""
        order = self._order(body)
        limits = self.limits
        with self.lock:
            if self.closing.is_set():
                raise Refused(503, "server-busy", Refusal("equity_stopping"), retry_after=10)
            self._forget_old()
            running = [j for j in self.jobs.values() if not j.done]
            mine = [j for j in running if j.client == client]
            if len(mine) >= limits.per_client:
                raise Refused(
                    429,
                    "client-busy",
                    Refusal("equity_client_busy", count=len(mine), most=limits.per_client),
                    retry_after=self._wait_for(mine),
                    limit="per_client",
                    most=limits.per_client,
                )
            if len(running) >= limits.running:
                raise Refused(
                    503,
                    "server-busy",
                    Refusal("equity_server_busy", count=len(running)),
                    retry_after=self._wait_for(running),
                    limit="running",
                    most=limits.running,
                )
            wait = self.starts.take(client)
            if wait:
                raise Refused(
                    429,
                    "rate",
                    Refusal("equity_starts_rate", most=limits.starts_per_minute),
                    retry_after=wait,
                    limit="starts_per_minute",
                    most=limits.starts_per_minute,
                )
            job = Job(
                secrets.token_urlsafe(12),
                client,
                self.clock(),
                limits.seconds,
                trials=None if order.exact else order.trials,
            )
            self.jobs[job.id] = job
            watcher = threading.Thread(
                target=self._watch, args=(job, order), name=f"equity-{job.id[:6]}", daemon=True
            )
            self.watchers.add(watcher)
            watcher.start()  # under the lock: close() never meets a watcher not started yet
        return job

    def _watch(self, job: Job, order: equity_worker.Order) -> None:
        """The job's thread: its worker from start to end, then the job's answer."""

        def progress(fraction: float) -> None:
            job.progress = min(max(job.progress, fraction), 0.999)

        def started(pid: int) -> None:
            job.pid = pid

        try:
            outcome = equity_worker.run(
                order,
                seconds=self.limits.seconds,
                grace=self.limits.grace,
                progress=progress,
                cancel=self.closing,
                started=started,
                memory=self.limits.memory_mb,
            )
            job.progress = max(job.progress, outcome.progress)
            if outcome.result is not None:
                job.result = result_json(outcome.result)
            job.stopped, job.killed = outcome.stopped, outcome.killed
            job.error = self._why_stopped(job, outcome) if outcome.stopped else outcome.error
        except Exception as error:  # a watcher that breaks says so; the room runs on
            job.error = Refusal("equity_job_failed", kind=type(error).__name__)
        finally:
            with self.lock:
                if job.error is None and job.stopped is None:
                    job.progress = 1.0
                job.ended = self.clock()
                job.done = True
                self.watchers.discard(threading.current_thread())

    def _why_stopped(self, job: Job, outcome: equity_worker.Outcome) -> Refusal:
        """The message of a job cut short, with what it had done: each a whole sentence, a
        template of the catalogs (a translation words why and what was done together)."""
        deadline = f"{self.limits.seconds:g}"
        shutdown = outcome.stopped == "shutdown"
        if outcome.result is not None and job.trials is not None:
            drawn, asked = f"{outcome.result.outcomes:,}", f"{job.trials:,}"
            if shutdown:
                return Refusal("cut_short_stopping_trials", drawn=drawn, trials=asked)
            return Refusal("cut_short_deadline_trials", seconds=deadline, drawn=drawn, trials=asked)
        if job.trials is None:
            counted = f"{100 * outcome.progress:.0f}"
            if shutdown:
                return Refusal("cut_short_stopping_exact", percent=counted)
            return Refusal("cut_short_deadline_exact", seconds=deadline, percent=counted)
        if shutdown:
            return Refusal("cut_short_stopping_none")
        return Refusal("cut_short_deadline_none", seconds=deadline)

    def get(self, job_id: str, client: str) -> Job:
        """A job by its id; :class:`Refused` 404 when there is none (or it was forgotten), 429
        past the rate of polls."""
        with self.lock:
            wait = self.polls.take(client)
            if wait:
                raise Refused(
                    429,
                    "rate",
                    Refusal("equity_polls_rate", most=f"{self.limits.polls_per_second:g}"),
                    retry_after=wait,
                    limit="polls_per_second",
                    most=self.limits.polls_per_second,
                )
            self._forget_old()
            job = self.jobs.get(job_id)
        if job is None:
            raise Refused(
                404,
                "unknown-job",
                Refusal("no_equity_job", job=repr(job_id[:40]), minutes=f"{self.limits.keep_seconds / 60:g}"),
            )
        return job


def router(study: Study) -> APIRouter:
    """``POST /api/equity`` and ``GET /api/equity/{job}`` over ``study``."""
    routes = APIRouter()

    def client_of(request: Request) -> str:
        return request.client.host if request.client is not None else "unknown"

    def lang_of(request: Request) -> str:
        return language_of_request(request.query_params, request.headers)

    @routes.post("/api/equity", response_model=None)
    def start(body: EquityRequest, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            job = study.start(body, client_of(request))
        except Refused as refused:
            return refused.response(lang_of(request))
        return {"job": job.id, "deadline": job.deadline}

    @routes.get("/api/equity/{job_id}", response_model=None)
    def follow(job_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            return study.get(job_id, client_of(request)).answer(lang_of(request))
        except Refused as refused:
            return refused.response(lang_of(request))

    return routes


__all__ = ["EquityLimits", "EquityRequest", "Job", "Refused", "Study", "result_json", "router"]
