"""The card room's HTTP refusals in the language of the request: a ``detail`` (an
:class:`HTTPException`'s raised with a :class:`~sevenstud.refusals.Refusal` as its detail, a
limit's, the edge's) is said by its code in the language the request chose (``?lang=``, else
``Accept-Language``: :func:`sevenstud.server.i18n.negotiate`), and a
request's validation errors (FastAPI's 422 list) keep their ``loc`` and ``type`` and have their
``msg`` in our words, in that language. docs/protocol.md ("Languages") lists what is translated.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from sevenstud.i18n import N_
from sevenstud.refusals import WORDS, Refusal
from sevenstud.server.i18n import negotiate, say, translation
from sevenstud.server.limits import RateLimited
from sevenstud.server.plaintext import PLAIN_LINE

__all__ = ["VALIDATION_WORDS", "install", "language_of_request", "validation_errors"]

VALIDATION_WORDS: dict[str, str] = {
    "missing": N_("missing"),
    "extra_forbidden": N_("no such field"),
    "int_type": N_("expected an integer"),
    "int_parsing": N_("expected an integer"),
    "int_from_float": N_("expected an integer"),
    "float_type": N_("expected a number"),
    "float_parsing": N_("expected a number"),
    "bool_type": N_("expected true or false"),
    "bool_parsing": N_("expected true or false"),
    "string_type": N_("expected a string"),
    "dict_type": N_("expected a JSON object"),
    "model_attributes_type": N_("expected a JSON object"),
    "list_type": N_("expected an array"),
    "json_invalid": N_("invalid JSON"),
    "literal_error": N_("expected {expected}"),
    "enum": N_("expected {expected}"),
    "greater_than_equal": N_("at least {ge}"),
    "greater_than": N_("more than {gt}"),
    "less_than_equal": N_("at most {le}"),
    "less_than": N_("less than {lt}"),
    "string_too_short": N_("at least {min_length} characters"),
    "string_too_long": N_("at most {max_length} characters"),
    "string_pattern_mismatch": N_("not in the form asked for"),
    # the card room's own kinds: the edge's (edge.py) and the plain-line rule's (plaintext.py)
    "string_unpaired_surrogate": N_(
        "text with an unpaired surrogate (\\ud800 to \\udfff alone is not Unicode)"
    ),
    "plain_line": PLAIN_LINE,
}
"""Our words for pydantic's kinds of error (``type``), ``{name}`` filled from its ``ctx``; a
kind not listed keeps pydantic's own (English) ``msg``; so does an English request."""


def language_of_request(query: Mapping[str, str], headers: Mapping[str, str]) -> str:
    """The language a request chose: its ``lang`` query parameter, else ``Accept-Language``."""
    return negotiate(headers.get("accept-language"), query.get("lang"))


def validation_errors(errors: list[Any], lang: str) -> list[dict[str, Any]]:
    """FastAPI's validation errors with each ``msg`` in our words in ``lang`` (``loc``, ``type``,
    ``input`` and ``ctx`` as they were: they are for programs). English keeps pydantic's own
    ``msg``, as the API always answered."""
    if lang == "en":
        return list(errors)
    tr = translation(lang)
    said = []
    for error in errors:
        error = dict(error)
        words = VALIDATION_WORDS.get(str(error.get("type")))
        if words is not None:
            # a part of the context that is itself one of our words (sevenstud.refusals.WORDS:
            # "control characters") is said in the language too
            ctx = {
                key: tr.gettext(str(value)) if str(value) in WORDS else str(value)
                for key, value in (error.get("ctx") or {}).items()
            }
            # a context this kind of error lacks here: pydantic's own words stay
            with contextlib.suppress(KeyError, IndexError):
                error["msg"] = tr.gettext(words).format(**ctx)
        said.append(error)
    return said


def install(app: FastAPI, counted: Callable[[str], None] | None = None) -> None:
    """Answer the app's refusals in the language of each request; ``counted`` is told the name
    of each limit that refused one (the metrics)."""

    @app.exception_handler(StarletteHTTPException)
    async def in_language(request: Request, error: StarletteHTTPException) -> Response:
        lang = language_of_request(request.query_params, request.headers)
        detail: Any = error.detail
        if isinstance(detail, Refusal):  # raised as HTTPException(404, Refusal("no_table", ...))
            error = StarletteHTTPException(error.status_code, say(detail, lang), error.headers)
        return await http_exception_handler(request, error)

    @app.exception_handler(RateLimited)
    async def rate_limited(request: Request, error: RateLimited) -> JSONResponse:
        if counted is not None:
            counted(error.limit)
        headers = {"Retry-After": str(error.retry_after)}
        body = error.body()
        body["detail"] = say(error, language_of_request(request.query_params, request.headers))
        return JSONResponse(body, status_code=error.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        lang = language_of_request(request.query_params, request.headers)
        detail = validation_errors(list(error.errors()), lang)
        return JSONResponse({"detail": jsonable_encoder(detail)}, status_code=422)
