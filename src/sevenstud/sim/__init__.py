"""Self-play: duplicate matches between bots, luck-corrected, on all cores or a Ray cluster.

:func:`simulate` plays a :class:`Matchup` for a number of deals (each deck once for every
rotation of the seats) and returns each player's result in milli-small-bets per hand with a 95%
interval, as dealt and corrected for the luck of the cards (:mod:`sevenstud.sim.luck`). The
figures depend on the seed alone, not on how many processes played them
(:mod:`sevenstud.sim.runner`). :mod:`sevenstud.sim.lbr` is a local best response, a seat that
searches each decision by rollouts against the bots it faces, which measures how exploitable a
bot is. ``sevenstud simulate`` is the command line (:mod:`sevenstud.sim.command`).

Like the rest of the engine this package imports the standard library alone; the luck
correction needs numpy, ``--ray`` Ray, the chart matplotlib and the progress bar tqdm (the
``sim`` extra has them all).

>>> result = simulate(Matchup(("tight", "station"), seed=1, luck=False), deals=4)
>>> result.hands, [p.name for p in result.players]
(8, ['tight', 'station'])
"""

from __future__ import annotations

from sevenstud.sim.core import DealRecord, Estimate, Matchup, PlayerResult, SimResult, SimulationError
from sevenstud.sim.runner import simulate

__all__ = ["DealRecord", "Estimate", "Matchup", "PlayerResult", "SimResult", "SimulationError", "simulate"]
