"""The server's log lines: plain text, or one JSON object a line (``sevenstud serve
--log-format json``), for a log collector that reads fields instead of sentences.

Each JSON line holds the time (UTC, ISO 8601), the level, the logger's name and the message,
and the exception's traceback when there is one. Neither a password nor a token is ever logged
(docs/security.md): uvicorn's access log is off, and nothing here adds a request's headers.
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

LOGGERS = ("uvicorn", "uvicorn.error", "sevenstud")
"""The loggers the card room writes to."""


class JsonLines(logging.Formatter):
    """A log record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def log_config(log_format: str) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of ``sevenstud serve`` for ``text`` or ``json``."""
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonLines"}
        if log_format == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": formatter},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "line"}},
        "loggers": {
            name: {"handlers": ["stderr"], "level": "WARNING", "propagate": False} for name in LOGGERS
        },
    }
