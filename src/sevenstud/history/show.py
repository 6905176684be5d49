"""Step through a hand history in the terminal: ``sevenstud show FILE [--hand N]``.

The hand (PHH, PokerStars, Full Tilt or ACR text, told apart by the file's first line) is played
through our engine, then shown street by street:
every player's board (down cards in brackets, ``??`` for a card the history never shows), each
action with the pot after it, and at the end the showdown and the result, high and low halves
named. When stdout is a terminal it waits for Enter between streets; otherwise it prints it all.
``--hand`` picks a hand by its number in the history (``#35874576282``) or by its place in the
file (1 for the first); without it, the first hand is shown. A file that cannot be shown (a
folder, missing, binary, empty, another format) is one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from sevenstud.cards import Card
from sevenstud.games import STREET_NAMES
from sevenstud.hand import (
    ActionKind,
    ActionTaken,
    AntePosted,
    BetReturned,
    CommunityCardDealt,
    HandMucked,
    HandShown,
    PotAwarded,
    RakeTaken,
    StreetStarted,
)
from sevenstud.history.convert import ConvertError, Loaded, iter_loaded
from sevenstud.history.pokerstars import describe_show


def _card(card: Card, loaded: Loaded) -> str:
    return "??" if card in loaded.unknown else str(card)


def _board(loaded: Loaded, seat: int, upto: int) -> str:
    hand = loaded.hand
    cards = hand.cards[seat][:upto]
    up = hand.face_up[seat][:upto]
    down = [_card(c, loaded) for c, u in zip(cards, up, strict=True) if not u]
    shown = [str(c) for c, u in zip(cards, up, strict=True) if u]
    parts = []
    if down:
        parts.append(f"[{' '.join(down[:2])}]")
    parts.extend(shown)
    if len(down) > 2:
        parts.append(f"[{' '.join(down[2:])}]")
    return " ".join(parts)


def render(loaded: Loaded) -> list[list[str]]:
    """The hand as blocks of lines: the table, one block per street, the showdown and result."""
    hand = loaded.hand
    game = hand.game
    stakes = game.stakes
    names = loaded.players
    money = loaded.amount
    width = max(len(n) for n in names)
    blocks: list[list[str]] = []
    title = (
        f"Hand #{loaded.hand_id}: {game.name}, {money(stakes.small_bet)}/{money(stakes.big_bet)}"
    )
    title += f" (ante {money(stakes.ante)}, bring-in {money(stakes.bring_in)})"
    if loaded.table:
        title += f", table '{loaded.table}'"
    block = [title]
    for s in range(hand.n):
        mark = "  (hero)" if s == loaded.hero else ""
        block.append(
            f"  Seat {loaded.seat_numbers[s]}: {names[s]:<{width}}  "
            f"{money(hand.starting_stacks[s])}{mark}"
        )
    blocks.append(block)
    pot = 0
    dealt = [0] * hand.n
    folded: set[int] = set()
    for ev in hand.events:
        if isinstance(ev, AntePosted):
            pot += ev.amount
        elif isinstance(ev, StreetStarted):
            block = [f"--- {STREET_NAMES[ev.street]} ---  pot {money(pot)}"]
            if ev.street == 7 and hand.community is not None:
                block.append(f"  community card: {hand.community} (everybody's seventh card)")
            for s in range(hand.n):
                dealt[s] = (
                    len(hand.cards[s]) if ev.street == 7 else min(ev.street, len(hand.cards[s]))
                )
                if s not in folded:
                    block.append(f"  {names[s]:<{width}}  {_board(loaded, s, dealt[s])}")
            if ev.first_to_act is None:
                block.append("  (no betting: at most one player can still bet)")
            blocks.append(block)
        elif isinstance(ev, CommunityCardDealt):
            continue
        elif isinstance(ev, ActionTaken):
            action = ev.action
            text = action.kind.value
            pot += ev.chips
            if action.amount is not None:
                if action.kind in (ActionKind.RAISE, ActionKind.COMPLETE):
                    text += f" to {money(action.amount)}"
                else:
                    text += f" {money(action.amount)}"
            if action.kind is ActionKind.FOLD:
                folded.add(ev.seat)
            if ev.all_in:
                text += ", all-in"
            blocks[-1].append(f"  {names[ev.seat]:<{width}}  {text:<24} pot {money(pot)}")
        elif isinstance(ev, BetReturned):
            pot -= ev.amount
            blocks[-1].append(f"  uncalled {money(ev.amount)} returned to {names[ev.seat]}")
        elif isinstance(ev, HandShown | HandMucked):
            if not blocks[-1][0].startswith("--- showdown"):
                blocks.append(["--- showdown ---"])
            if isinstance(ev, HandShown):
                cards = " ".join(str(c) for c in ev.cards)
                described = describe_show(game, ev.high, ev.low)
                blocks[-1].append(f"  {names[ev.seat]:<{width}}  shows {cards}: {described}")
            else:
                blocks[-1].append(f"  {names[ev.seat]:<{width}}  mucks")
    result = [
        "--- result ---",
        f"  total pot {money(sum(a.amount for a in hand.awards) + hand.rake)}",
    ]
    for ev in hand.events:
        if isinstance(ev, RakeTaken):
            result.append(f"  rake {money(ev.amount)}")
    for ev in hand.events:
        if isinstance(ev, PotAwarded):
            pot_name = "main pot" if ev.pot == 0 else f"side pot {ev.pot}"
            half = {"whole": "", "high": ", high half", "low": ", low half"}[ev.share]
            result.append(f"  {names[ev.seat]} wins {money(ev.amount)} ({pot_name}{half})")
    live = [s for s in range(hand.n) if not hand.folded[s]]
    if (
        game.split
        and len(live) > 1
        and not any(a.share == "low" for a in hand.awards)
    ):
        result.append("  no low hand qualified: the high hand takes the whole pot")
    if len(live) == 1:
        result.append(f"  {names[live[0]]} wins uncontested, everybody else folded")
    changes = ", ".join(
        f"{names[s]} {money(hand.stacks[s])} ({'+' if d >= 0 else '-'}{money(abs(d))})"
        for s in range(hand.n)
        for d in [hand.stacks[s] - hand.starting_stacks[s]]
    )
    result.append(f"  stacks: {changes}")
    blocks.append(result)
    return blocks


def pick(path: Path, wanted: str | None) -> Loaded:
    """The hand of ``path`` numbered ``wanted`` (its id, or its place from 1), or the first."""
    count = 0
    errors: list[str] = []
    for item in iter_loaded(path):
        if isinstance(item, ConvertError):
            errors.append(str(item))
            continue
        count += 1
        if wanted is None or wanted.lstrip("#") == item.hand_id or wanted == str(count):
            return item
    if errors and (wanted is None or not count):
        raise ConvertError(errors[0])
    raise ConvertError(
        f"{path}: no hand {wanted!r} among its {count} playable hand(s) (give a hand number such "
        "as #35874576282, or the hand's place in the file from 1)"
    )


def show(
    loaded: Loaded,
    out: TextIO,
    *,
    interactive: bool = False,
    wait: Callable[[str], str] = input,
) -> None:
    """Print the hand; when ``interactive``, wait for Enter before each street."""
    blocks = render(loaded)
    for i, block in enumerate(blocks):
        if i and interactive:
            try:
                title = block[0].split("---")[1].strip()
                wait(f"-- press Enter for {title} --")
            except EOFError:
                interactive = False
        out.write("\n".join(block) + "\n")
        out.flush()


def show_command(args: argparse.Namespace) -> int:
    """``sevenstud show FILE [--hand N]``."""
    try:
        loaded = pick(Path(args.file), args.hand)
    except ConvertError as error:
        print(f"sevenstud show: {error}", file=sys.stderr)
        return 1
    show(loaded, sys.stdout, interactive=sys.stdout.isatty() and sys.stdin.isatty())
    return 0
