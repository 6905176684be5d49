"""Tournaments: sit-and-gos and scheduled multi-table tournaments of stud, as a card room runs
them (docs/tournaments.md).

- :mod:`~sevenstud.tournament.structure`: levels and breaks as data, the shipped structures;
- :mod:`~sevenstud.tournament.settings`: the template and the director's commands;
- :mod:`~sevenstud.tournament.payouts`: payout tables, tied places, ICM and the ICM deal;
- :mod:`~sevenstud.tournament.seating`: the draw, balancing by position, breaking tables;
- :mod:`~sevenstud.tournament.director`: the director itself, without I/O.
"""

from sevenstud.tournament.director import DealTalk, Director, Entrant, TournamentError
from sevenstud.tournament.payouts import icm, icm_deal, paid_places, payout_table
from sevenstud.tournament.settings import (
    AddChips,
    Break,
    CloseTable,
    Command,
    Deal,
    Finish,
    HandForHand,
    NewLevel,
    Refund,
    Seat,
    Status,
    TournamentSettings,
)
from sevenstud.tournament.structure import (
    HEADS_UP,
    STANDARD,
    STRUCTURES,
    TURBO,
    Level,
    Structure,
    StructureError,
)

__all__ = [
    "HEADS_UP",
    "STANDARD",
    "STRUCTURES",
    "TURBO",
    "AddChips",
    "Break",
    "CloseTable",
    "Command",
    "Deal",
    "DealTalk",
    "Director",
    "Entrant",
    "Finish",
    "HandForHand",
    "Level",
    "NewLevel",
    "Refund",
    "Seat",
    "Status",
    "Structure",
    "StructureError",
    "TournamentError",
    "TournamentSettings",
    "icm",
    "icm_deal",
    "paid_places",
    "payout_table",
]
