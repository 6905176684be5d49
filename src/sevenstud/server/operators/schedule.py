"""The house's tournaments: the operators' templates and the schedule that makes tournaments of
them (docs/operators.md, "Tournaments").

A template is a name and the body a tournament is made from (``POST /api/tournaments``'s,
:class:`~sevenstud.server.tournaments.routes.NewTournament`). A schedule makes a tournament of
its template ``daily`` at a time of day in a named time zone, ``every`` N hours, or keeps one of
it ``always`` registering (a sit-and-go: when one fills and starts, or is cancelled, the next
opens). A scheduled tournament (``mtt-*``) starts at the schedule's time, made its template's
``start_in`` seconds before (registration open until then); a sit-and-go is made at the time.

The schedule is in the database (migration 0018) and its :class:`Keeper` on every process:
whichever process first raises a schedule's ``version`` makes its next tournament, so that two
processes on one PostgreSQL database never make it twice. The keeper sleeps until the next
time due, and is woken when a tournament changes state (an ``always`` schedule's one starting)
or the schedule is edited: idle, it costs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import re
import time
import zoneinfo
from typing import Any

from fastapi import HTTPException

from sevenstud.refusals import Refusal
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.operators import log
from sevenstud.server.store import Session, Store, tournament_list
from sevenstud.server.store import schedule as kept
from sevenstud.server.store.models import TournamentSchedule, TournamentTemplateRow
from sevenstud.server.tournaments.cashier import Running
from sevenstud.server.tournaments.routes import TEMPLATES, NewTournament, create_tournament
from sevenstud.tournament import Command, Status

KINDS = ("daily", "every", "always")
"""What a schedule may be: daily at a time in a time zone, every N hours, always registering."""
IDLE_SECONDS = 30.0
"""The longest the keeper sleeps without being woken: another process's edits and tournaments
are seen within it."""
_TIME = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")

log_ = logging.getLogger(__name__)


class ScheduleError(Exception):
    """A template or schedule refused: its :class:`Refusal` and the HTTP status it answers."""

    def __init__(self, refusal: Refusal, status: int = 422) -> None:
        super().__init__(str(refusal))
        self.refusal, self.status = refusal, status


# ------------------------------------------------------------------ templates


def template_body(settings: dict[str, Any]) -> NewTournament:
    """A template's stored settings as the body a tournament is made from."""
    return NewTournament.model_validate(settings)


def describe_template(row: TournamentTemplateRow) -> dict[str, Any]:
    """A template as the console and the API show it."""
    body = template_body(row.settings)
    return {
        "id": row.id,
        "name": row.name,
        "settings": body.model_dump(exclude_defaults=False),
        "kind": TEMPLATES[body.template].kind,
        "seats": TEMPLATES[body.template].seats,
        "updated_at": row.updated_at,
    }


def templates(store: Store) -> list[dict[str, Any]]:
    """Every template, by id."""
    with store.session() as s:
        return [describe_template(row) for row in kept.template_rows(s)]


def save_template(
    store: Store, operator: str, name: str, settings: NewTournament, template_id: int | None = None
) -> dict[str, Any]:
    """Make a template (``template_id`` None) or change one; written in the event log."""
    name = name.strip()
    stored = settings.model_dump(exclude_defaults=True)
    now = time.time()
    with store.transaction() as s:
        taken = kept.template_named(s, name, besides=template_id)
        if taken is not None:
            raise ScheduleError(Refusal("template_name_taken", name=repr(name)), 409)
        if template_id is None:
            row = TournamentTemplateRow(name=name, settings=stored, created_at=now, updated_at=now)
            s.add(row)
            s.flush()
            action = "template_made"
        else:
            found = s.get(TournamentTemplateRow, template_id)
            if found is None:
                raise ScheduleError(Refusal("no_template", template=template_id), 404)
            row, action = found, "template_changed"
            if _always_users(s, template_id) and TEMPLATES[settings.template].kind != "sit_and_go":
                raise ScheduleError(Refusal("always_needs_sit_and_go", template=template_id))
            row.name, row.settings, row.updated_at = name, stored, now
        log.write(s, operator, action, f"template {row.id}", "", name=name, settings=stored)
        s.flush()
        return describe_template(row)


def remove_template(store: Store, operator: str, template_id: int) -> dict[str, Any]:
    """Remove a template no schedule uses; written in the event log."""
    with store.transaction() as s:
        row = s.get(TournamentTemplateRow, template_id)
        if row is None:
            raise ScheduleError(Refusal("no_template", template=template_id), 404)
        using = kept.schedule_using(s, template_id)
        if using is not None:
            raise ScheduleError(Refusal("template_in_use", template=template_id, schedule=using), 409)
        log.write(s, operator, "template_removed", f"template {template_id}", "", name=row.name)
        s.delete(row)
    return {"removed": template_id}


def _always_users(s: Session, template_id: int) -> bool:
    return kept.schedule_using(s, template_id, "always") is not None


# ------------------------------------------------------------------ schedules


def next_time(
    kind: str, at_time: str | None, zone: str | None, every_hours: float | None, after: float
) -> float | None:
    """When a schedule next makes a tournament after ``after`` (a wall time): the next
    ``at_time`` in ``zone`` (its own clock: a day of a daylight-saving change included), or
    ``after`` plus ``every_hours``; None for ``always``."""
    if kind == "daily":
        assert at_time is not None and zone is not None
        where = zoneinfo.ZoneInfo(zone)
        hour, minute = (int(part) for part in at_time.split(":"))
        day = datetime.datetime.fromtimestamp(after, where).date()
        for _ in range(3):
            moment = datetime.datetime(day.year, day.month, day.day, hour, minute, tzinfo=where)
            if moment.timestamp() > after:
                return moment.timestamp()
            day += datetime.timedelta(days=1)
        raise AssertionError("a time of day comes within three days")
    if kind == "every":
        assert every_hours is not None
        return after + every_hours * 3600.0
    return None


def check_schedule(kind: str, at_time: str | None, zone: str | None, every_hours: float | None) -> None:
    """Refuse (ScheduleError) a schedule that does not say when."""
    if kind == "daily":
        if not at_time or not zone:
            raise ScheduleError(Refusal("schedule_needs_time"))
        if not _TIME.fullmatch(at_time):
            raise ScheduleError(Refusal("bad_time_of_day", time=repr(at_time)))
        try:
            zoneinfo.ZoneInfo(zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ScheduleError(Refusal("unknown_zone", zone=repr(zone))) from None
    elif kind == "every" and (every_hours is None or not 0.25 <= every_hours <= 168):
        raise ScheduleError(Refusal("schedule_needs_hours"))


def describe_schedule(row: TournamentSchedule, template_name: str | None) -> dict[str, Any]:
    """A schedule as the console and the API show it."""
    return {
        "id": row.id,
        "template": row.template_id,
        "template_name": template_name,
        "kind": row.kind,
        "at_time": row.at_time,
        "zone": row.zone,
        "every_hours": row.every_hours,
        "next_at": row.next_at,
        "tournament": row.tournament_id,
        "enabled": row.enabled,
    }


def schedules(store: Store) -> list[dict[str, Any]]:
    """Every schedule, by id, with its template's name."""
    with store.session() as s:
        return [describe_schedule(row, name) for row, name in kept.schedule_rows(s)]


def save_schedule(
    store: Store, operator: str, fields: dict[str, Any], schedule_id: int | None = None
) -> dict[str, Any]:
    """Make a schedule (``schedule_id`` None) or change one; ``fields``: ``template``,
    ``kind``, ``at_time``, ``zone``, ``every_hours``, ``enabled``. Written in the event log."""
    kind, at_time, zone, hours = (
        fields["kind"],
        fields.get("at_time"),
        fields.get("zone"),
        fields.get("every_hours"),
    )
    check_schedule(kind, at_time, zone, hours)
    now = time.time()
    with store.transaction() as s:
        template = s.get(TournamentTemplateRow, fields["template"])
        if template is None:
            raise ScheduleError(Refusal("no_template", template=fields["template"]), 404)
        if kind == "always" and TEMPLATES[template_body(template.settings).template].kind != "sit_and_go":
            raise ScheduleError(Refusal("always_needs_sit_and_go", template=template.id))
        if schedule_id is None:
            row = TournamentSchedule(template_id=template.id, kind=kind, created_at=now, version=0)
            s.add(row)
            action = "schedule_made"
        else:
            found = s.get(TournamentSchedule, schedule_id)
            if found is None:
                raise ScheduleError(Refusal("no_schedule", schedule=schedule_id), 404)
            row, action = found, "schedule_changed"
        row.template_id, row.kind = template.id, kind
        row.at_time = at_time if kind == "daily" else None
        row.zone = zone if kind == "daily" else None
        row.every_hours = hours if kind == "every" else None
        row.enabled = bool(fields.get("enabled", True))
        # "every N hours" counts from now (the first one at once); "daily" from its next time.
        row.next_at = now if kind == "every" else next_time(kind, row.at_time, row.zone, None, now)
        s.flush()
        detail = {k: v for k, v in describe_schedule(row, template.name).items() if k != "id"}
        log.write(s, operator, action, f"schedule {row.id}", "", **detail)
        return describe_schedule(row, template.name)


def remove_schedule(store: Store, operator: str, schedule_id: int) -> dict[str, Any]:
    """Remove a schedule (the tournaments it made play on); written in the event log."""
    with store.transaction() as s:
        row = s.get(TournamentSchedule, schedule_id)
        if row is None:
            raise ScheduleError(Refusal("no_schedule", schedule=schedule_id), 404)
        log.write(s, operator, "schedule_removed", f"schedule {schedule_id}", "", template=row.template_id)
        s.delete(row)
    return {"removed": schedule_id}


# ------------------------------------------------------------------ the keeper


class Keeper:
    """Makes the schedules' tournaments on this process (see the module)."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.store = room.store
        self.wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._making = asyncio.Lock()

    def start(self) -> None:
        """Run on the card room's loop (after the room has started: its tournaments too)."""
        self.room.tournaments.listeners.append(self._heard)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop making tournaments."""
        with contextlib.suppress(ValueError):
            self.room.tournaments.listeners.remove(self._heard)
        task, self._task = self._task, None
        if task is not None:
            while not task.done():
                task.cancel()
                await asyncio.wait([task], timeout=0.5)

    def _heard(self, _running: Running, commands: list[Command]) -> None:
        # A tournament started, ended or was cancelled: an "always" schedule's may have.
        if any(isinstance(c, Status) for c in commands):
            self.wake.set()

    async def _run(self) -> None:
        while True:
            try:
                sleep = await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log_.exception("the tournament schedule: a round failed")
                sleep = IDLE_SECONDS
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=max(0.05, sleep))
            self.wake.clear()

    async def round(self) -> float:
        """Make every tournament due now; the seconds until the next is due (at most
        :data:`IDLE_SECONDS`)."""
        now = time.time()
        due = await self.store.run(self._due, now)
        for schedule_id in due:
            await self.make_next(schedule_id)
        upcoming = await self.store.run(self._next_due, time.time())
        return min(IDLE_SECONDS, upcoming - time.time()) if upcoming is not None else IDLE_SECONDS

    def _lead(self, settings: dict[str, Any]) -> float:
        body = template_body(settings)
        return body.start_in if TEMPLATES[body.template].kind == "scheduled" else 0.0

    def _due(self, now: float) -> list[int]:
        with self.store.session() as s:
            due = []
            for row, settings in kept.enabled_schedules(s):
                if row.kind == "always":
                    state = tournament_list.tournament_state(s, row.tournament_id)
                    if state != "registering":
                        due.append(row.id)
                elif row.next_at is not None and row.next_at - self._lead(settings) <= now:
                    due.append(row.id)
            return due

    def _next_due(self, now: float) -> float | None:
        with self.store.session() as s:
            rows = kept.next_times(s)
        times = [at - self._lead(settings) for at, settings in rows]
        return min(times, default=None)

    async def make_next(self, schedule_id: int, *, unless_registering: bool = True) -> int | None:
        """Make schedule ``schedule_id``'s next tournament if it is due and this process
        claims it first (its ``version``); the tournament's id, or None."""
        async with self._making:
            claimed = await self.store.run(self._claim, schedule_id, time.time(), unless_registering)
            if claimed is None:
                return None
            version, body, start_at = claimed
            if start_at is not None:
                body = body.model_copy(update={"start_in": max(10.0, start_at - time.time())})
            try:
                made = await create_tournament(self.room.tournaments, self.store, body)
            except HTTPException as error:
                # A template the room cannot make now (a clock too fast for this server):
                # said in the log, and tried again at the schedule's next time.
                log_.warning("schedule %s: its tournament was refused: %s", schedule_id, error.detail)
                await self.store.run(self._made, schedule_id, version, None, start_at, str(error.detail))
                return None
            await self.store.run(self._made, schedule_id, version, made, start_at, "")
            return int(made["id"])

    def _claim(
        self, schedule_id: int, now: float, unless_registering: bool
    ) -> tuple[int, NewTournament, float | None] | None:
        with self.store.transaction() as s:
            found = kept.enabled_schedule(s, schedule_id)
            if found is None:
                return None
            row, settings = found
            if row.kind == "always":
                state = tournament_list.tournament_state(s, row.tournament_id)
                if state == "registering" and unless_registering:
                    return None
                start_at = None
            else:
                if row.next_at is None or row.next_at - self._lead(settings) > now:
                    return None
                start_at = row.next_at if self._lead(settings) else None
            if not kept.claim(s, schedule_id, row.version):
                return None  # another process made it
            return row.version + 1, template_body(settings), start_at

    def _made(
        self,
        schedule_id: int,
        version: int,
        made: dict[str, Any] | None,
        start_at: float | None,
        refused: str,
    ) -> None:
        with self.store.transaction() as s:
            row = s.get(TournamentSchedule, schedule_id)
            if row is None or row.version != version:
                return
            if made is not None:
                row.tournament_id = int(made["id"])
            if row.kind != "always":
                # The next time after this one (a time missed while the room was down is not
                # made up: the next is the next to come).
                after = max(time.time(), row.next_at or 0.0)
                row.next_at = next_time(row.kind, row.at_time, row.zone, row.every_hours, after)
            target = f"tournament {made['id']}" if made is not None else f"schedule {schedule_id}"
            what: dict[str, Any] = {"schedule": schedule_id}
            if made is not None:
                what["name"] = made["name"]
            if start_at is not None:
                what["start_at"] = start_at
            log.write(
                s,
                f"schedule {schedule_id}",
                "tournament_scheduled" if made else "schedule_refused",
                target,
                refused,
                **what,
            )


def quick_schedule(store: Store) -> int | None:
    """The house's quick sit-and-go (the lobby's one click): the first ``always`` schedule
    that is on, or None."""
    with store.session() as s:
        return kept.first_always(s)


def current_of(store: Store, schedule_id: int) -> int | None:
    """The tournament schedule ``schedule_id`` has registering now, or None."""
    with store.session() as s:
        row = s.get(TournamentSchedule, schedule_id)
        if row is None or row.tournament_id is None:
            return None
        state = tournament_list.tournament_state(s, row.tournament_id)
        return row.tournament_id if state == "registering" else None


__all__ = [
    "IDLE_SECONDS",
    "KINDS",
    "Keeper",
    "ScheduleError",
    "current_of",
    "next_time",
    "quick_schedule",
    "remove_schedule",
    "remove_template",
    "save_schedule",
    "save_template",
    "schedules",
    "templates",
]
