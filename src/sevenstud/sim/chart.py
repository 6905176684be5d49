"""The chart of a match: each player's cumulative result, hand by hand, as a PNG (matplotlib,
from the ``sim`` extra, drawn off-screen with its Agg back end)."""

from __future__ import annotations

import os

from sevenstud.sim.core import SimResult, SimulationError


def write_chart(result: SimResult, path: str | os.PathLike[str]) -> None:
    """Draw ``result``'s cumulative results (small bets won per seat, luck-corrected solid, as
    dealt dotted) against the hands played, into a PNG at ``path``."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SimulationError("the chart needs matplotlib (pip install 'sevenstud[sim]')") from None
    seats = len(result.matchup.players)
    hands = [(d + 1) * seats for d in range(result.deals)]
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=100)
    try:
        for k, player in enumerate(result.players):
            (line,) = axes.plot(
                hands, result.cumulative[k], label=f"{player.name}: {player.corrected} mSB/hand"
            )
            if result.matchup.luck:
                axes.plot(
                    hands, result.cumulative_dealt[k], linestyle=":", color=line.get_color(), linewidth=1
                )
        m = result.matchup
        what = "luck-corrected (solid) and as dealt (dotted)" if m.luck else "as dealt"
        axes.set_title(
            f"{m.game}, {seats} seats, {result.hands} duplicate hands, seed {m.seed}: {what}", fontsize=9
        )
        axes.set_xlabel("hands played")
        axes.set_ylabel("small bets won, per seat")
        axes.axhline(0, color="grey", linewidth=0.5)
        axes.legend(fontsize=8)
        figure.tight_layout()
        figure.savefig(os.fspath(path), format="png")
    finally:
        plt.close(figure)
