"""The bring-in marker of the table page's `view` message (issue 16, point 5): the seat the
bring-in fell to, once it has acted, whether it brought in or completed, on third street only."""

from __future__ import annotations

from sevenstud.actions import ActionKind
from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.tables.presenter import Presenter
from sevenstud.table import Table, TableSettings

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=3)


def _table() -> tuple[Table, Presenter]:
    table = Table(SETTINGS)
    for seat, name in ((1, "ann"), (2, "bob"), (3, "cid")):
        table.sit_down(name, seat, 100, 0.0)
    presenter = Presenter(table)  # following from before the deal, as a room does
    table.start_hand(1.0, Deck.seeded(7))
    return table, presenter


def _mark(table: Table, presenter: Presenter) -> object:
    presenter.follow(table)
    return presenter.message(table, None, None, []).bring_in


def _act(table: Table, kind: ActionKind) -> int:
    seat = table.to_act
    assert seat is not None
    action = next(a for a in table.legal_actions() if a.kind is kind)
    table.act(seat, action, 2.0)
    return seat


def test_a_completed_bring_in_is_marked_as_the_bring_in() -> None:
    table, presenter = _table()
    assert _mark(table, presenter) is None  # before it acts
    seat = _act(table, ActionKind.COMPLETE)
    assert _mark(table, presenter) == seat


def test_the_bring_in_mark_is_third_streets_alone() -> None:
    table, presenter = _table()
    seat = _act(table, ActionKind.BRING_IN)
    assert _mark(table, presenter) == seat
    while table.view(None).hand.street == 3:  # type: ignore[union-attr]
        kinds = {a.kind for a in table.legal_actions()}
        _act(table, ActionKind.CALL if ActionKind.CALL in kinds else ActionKind.CHECK)
    assert table.hand_in_progress
    assert _mark(table, presenter) is None
