"""Health checks for a load balancer and metrics for Prometheus (docs/operators.md, "Health
and metrics").

- ``GET /healthz``: the process answers (200), nothing more: a load balancer's liveness.
- ``GET /readyz``: the process can serve: its database answers and its leases are current
  (renewed within a lease's time: a process whose renewals stopped may have lost its tables to
  another); 503 naming what is not, so that a balancer sends no new player to it.
- ``GET /metrics``: the Prometheus text format (:mod:`~sevenstud.server.metrics`), to the
  addresses given with ``sevenstud serve --metrics-from`` only (none unless given): the figures
  say how busy the room is, which is nobody else's business. Behind a proxy, the address is
  the client's as the edge read it from a trusted proxy's ``X-Forwarded-For``.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations as objects.

import ipaddress
import time
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST

from sevenstud.refusals import Refusal
from sevenstud.server.accounts.routes import address_of
from sevenstud.server.cardroom import CardRoom

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(given: Sequence[str]) -> tuple[Network, ...]:
    """``--metrics-from`` values (addresses or CIDR networks) as networks; a
    :class:`ValueError` naming the one that is neither."""
    found = []
    for value in given:
        try:
            found.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{value!r} is not an address or a network (e.g. 10.0.0.0/8)") from None
    return tuple(found)


def router(room: CardRoom, metrics_from: Sequence[Network] = ()) -> APIRouter:
    """The health and metrics routes over the card room ``room``."""
    routes = APIRouter()

    @routes.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"status": "ok"}

    @routes.get("/readyz")
    async def readyz() -> Response:
        problems = []

        try:
            await room.store.run(room.store.ping)
        except Exception as error:  # the database's own words, in one line
            problems.append(f"the database does not answer: {type(error).__name__}")
        renewed = room.leases.renewed_at
        if renewed is None or time.time() - renewed > room.leases.ttl:
            problems.append("the table leases have not been renewed within a lease's time")
        if problems:
            return JSONResponse({"status": "not ready", "problems": problems}, status_code=503)
        return JSONResponse({"status": "ready"})

    @routes.get("/metrics")
    async def metrics(request: Request) -> Response:
        try:
            client = ipaddress.ip_address(address_of(request))
        except ValueError:
            client = None
        if client is None or not any(client in network for network in metrics_from):
            raise HTTPException(403, Refusal("metrics_forbidden"))
        return Response(room.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    return routes
