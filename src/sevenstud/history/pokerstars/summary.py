"""A tournament's summary as PokerStars writes it (the file trackers import beside the hands):
the tournament's number, game, buy-in, field, prize pool, start, every place with its prize
(and share of the pool), the finish, and the reader's own place and what it received.

>>> places = [("ann", 1, 390), ("bob", 2, 210), ("cy", 3, 0)]
>>> at, end = "2026/12/01 22:40:00 UTC", "2026/12/01 22:52:10 UTC"
>>> print(tournament_summary(7, "stud8", 100, 10, places, started=at, finished=end, you="bob"))
PokerStars Tournament #7, 7 Card Stud Hi/Lo Limit
Buy-In: 100/10
3 players
Total Prize Pool: 600
Tournament started 2026/12/01 22:40:00 UTC
<BLANKLINE>
  1: ann, 390 (65%)
  2: bob, 210 (35%)
  3: cy,
<BLANKLINE>
Tournament finished 2026/12/01 22:52:10 UTC
You finished in 2nd place and received 210.
>>> print(tournament_summary(7, "stud8", 100, 10, places, started=at, you="cy").splitlines()[-1])
You finished in 3rd place.
"""

from __future__ import annotations

from collections.abc import Sequence

from sevenstud.history.text.model import GAME_TITLES


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def tournament_summary(
    number: int,
    game: str,
    buy_in: int,
    fee: int,
    places: Sequence[tuple[str, int, int]],
    *,
    started: str,
    finished: str | None = None,
    you: str | None = None,
    pool: int | None = None,
) -> str:
    """The summary of tournament ``number`` (``game`` a code: ``stud8``, ``stud``, ``razz``):
    ``places`` is ``(name, place, prize)`` of every entrant (chips are play chips, written as
    whole numbers); ``pool`` the prize pool (by default the prizes' sum); ``you`` the reader."""
    if game not in GAME_TITLES:
        raise ValueError(f"unknown game {game!r}")
    ordered = sorted(places, key=lambda p: (p[1], p[0]))
    total = sum(prize for _, _, prize in ordered) if pool is None else pool
    out = [
        f"PokerStars Tournament #{number}, {GAME_TITLES[game]} Limit",
        f"Buy-In: {buy_in}/{fee}",
        f"{len(ordered)} players",
        f"Total Prize Pool: {total}",
        f"Tournament started {started}",
        "",
    ]
    for name, place, prize in ordered:
        if prize:
            share = f" ({round(100 * prize / total)}%)" if total else ""
            out.append(f"  {place}: {name}, {prize}{share}")
        else:
            out.append(f"  {place}: {name},")
    out.append("")
    if finished is not None:
        out.append(f"Tournament finished {finished}")
    # The reader's own line, as PokerStars ends it: the place, and what it received (a prize).
    mine = next(((place, prize) for name, place, prize in ordered if name == you), None)
    if mine is not None:
        place, prize = mine
        received = f" and received {prize}" if prize else ""
        out.append(f"You finished in {_ordinal(place)} place{received}.")
    return "\n".join(out)
