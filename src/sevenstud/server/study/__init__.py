"""Equity jobs for the study page: the routes, the worker process, and their limits.

Standard library only at import (the limits module is read by ``sevenstud --help``)."""
