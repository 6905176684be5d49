"""Hand downloads (issue 10, point 6): each player downloads their own finished hands in
PokerStars text and PHH, as they saw them; both replay through ``sevenstud replay``; another
seat's down cards appear only where that seat showed them; nobody gets a hand that is not theirs
or not over. On SQLite and PostgreSQL, over a real uvicorn on 127.0.0.1."""

from __future__ import annotations

import contextlib
import io
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from sqlalchemy import select, update

from sevenstud.bots import RuleBot
from sevenstud.cli import main
from sevenstud.deck import Deck
from sevenstud.events import HandMucked, HandShown, HandTurnedUp
from sevenstud.games import Stakes, StudHiLo
from sevenstud.hand import Hand
from sevenstud.history.phh import loads_all
from sevenstud.history.pokerstars import PokerStarsHand, play_pokerstars, read_hands
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.downloads import own_hands
from sevenstud.server.app import create_app
from sevenstud.server.store import Store
from sevenstud.server.store.models import HandRow, Sitting, TableRow
from sevenstud.server.tables.room import TableKeeper, create_table
from sevenstud.table import TableSettings
from sevenstud.wire import hand_from_record
from tests.spawn import free_port

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=5)
CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")


def _play_out(keeper: TableKeeper, now: float, bot: RuleBot) -> float:
    table = keeper.table
    while table.hand_in_progress:
        seat = table.to_act
        assert seat is not None
        view = table.view(seat).hand
        assert view is not None
        now += 0.1
        keeper.act(seat, bot.act(view), now)
    return now


@pytest.fixture
def played(store: Store) -> tuple[Store, dict[str, int], int]:
    """Ann and Bob (people) with two bots at one table, 40 hands played to the end; Cat has an
    account and played nothing. Returns the store, the people's ids and the table's id."""
    people = {name: auth.sign_up(store, name, "correct horse") for name in ("ann", "bob", "cat")}
    table_id = create_table(store, "Downloads", SETTINGS)
    keeper = TableKeeper(store, table_id, SETTINGS)
    keeper.sit_down("ann", 1, 200, 0.0, player_id=people["ann"])
    keeper.sit_down("bot2", 2, 200, 0.0)
    keeper.sit_down("bob", 3, 200, 0.0, player_id=people["bob"])
    keeper.sit_down("bot4", 4, 200, 0.0)
    bot, now = RuleBot(seed=11), 1.0
    for _ in range(40):
        if not keeper.table.can_start_hand():
            break
        keeper.start_hand(now, Deck.seeded(f"downloads {now}"))  # the same hands every run
        now = _play_out(keeper, now, bot) + 1
    return store, people, table_id


@pytest.fixture
def live(played: tuple[Store, dict[str, int], int]) -> Iterator[tuple[str, Store, dict[str, int]]]:
    """A real uvicorn serving the played store, and a logged-in session per person."""
    store, people, _ = played
    port = free_port()
    server = uvicorn.Server(
        # (long leases: the table the tests deal by hand is not taken over while they run)
        uvicorn.Config(
            create_app(store, pause=60, lease_seconds=600), host="127.0.0.1", port=port, log_level="warning"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", store, people
    server.should_exit = True
    thread.join(10)


@contextlib.contextmanager
def _client(base: str, name: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=30) as client:
        client.post("/api/login", json={"name": name, "password": "correct horse"}).raise_for_status()
        yield client


def _truth(store: Store, player_id: int) -> dict[int, tuple[Hand, int, list[str]]]:
    """From the database: each finished hand the player was dealt in, as (hand, their index,
    names), by hand row id."""
    out = {}
    with store.session() as s:
        for row in s.scalars(select(HandRow).where(HandRow.status == "finished")).all():
            dealt = [s.get(Sitting, i) for i in row.sittings]
            names = [x.name for x in dealt if x is not None]
            ids = [x.player_id for x in dealt if x is not None]
            if player_id in ids:
                out[row.id] = (hand_from_record(row.record), ids.index(player_id), names)
    return out


def _unseen(hand: Hand, hero: int) -> set[str]:
    """Every card of the deck the hero never saw: others' down cards not shown (mucked ones
    included) and every card never dealt."""
    seen = {str(c) for c in hand.cards[hero]}
    for seat in range(hand.n):
        seen |= {str(c) for c, up in zip(hand.cards[seat], hand.face_up[seat], strict=True) if up}
    for event in hand.events:
        if isinstance(event, HandShown | HandTurnedUp):
            seen |= {str(c) for c in event.cards}
    if hand.community is not None:
        seen.add(str(hand.community))
    return {str(c) for c in hand.deck.cards} - seen


def _cards_in_pokerstars(text: str) -> set[str]:
    return {c for group in re.findall(r"\[([^\]]*)\]", text) for c in CARD.findall(group)}


def _cards_in_phh_actions(actions: list[str]) -> set[str]:
    return {c for line in actions for c in re.findall(r"[2-9TJQKA][cdhs]", line.split("#")[0])}


def test_each_player_lists_exactly_their_own_finished_hands(live: tuple[str, Store, dict[str, int]]) -> None:
    base, store, people = live
    for name in ("ann", "bob"):
        with _client(base, name) as client:
            listed = client.get("/api/hands").json()
        truth = _truth(store, people[name])
        assert truth, "the fixture played hands"
        assert sorted(h["id"] for h in listed) == sorted(truth)
    with _client(base, "cat") as client:
        assert client.get("/api/hands").json() == []
        assert client.get("/api/hands/download").status_code == 404


def test_pokerstars_download_replays_and_holds_no_unshown_down_card(
    live: tuple[str, Store, dict[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, store, people = live
    with _client(base, "ann") as client:
        response = client.get("/api/hands/download", params={"format": "pokerstars"})
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    text = response.text
    truth = _truth(store, people["ann"])
    blocks = [b for b in re.split(r"\n\n+(?=PokerStars Hand #)", text) if b.strip()]
    assert len(blocks) == len(truth)
    mucked_seen = 0
    for block in blocks:
        row_id = int(re.match(r"PokerStars Hand #(\d+)", block).group(1))  # type: ignore[union-attr]
        hand, hero, _names = truth[row_id]
        # Her own down cards are written (the hero's 'Dealt to' line) ...
        assert f"Dealt to ann [{hand.cards[hero][0]} {hand.cards[hero][1]} {hand.cards[hero][2]}]" in block
        # ... and no card she never saw: another seat's unshown or mucked down cards.
        leaked = _cards_in_pokerstars(block) & _unseen(hand, hero)
        assert not leaked, f"hand {row_id} gives away {leaked}"
        mucked_seen += sum(isinstance(e, HandMucked) and e.seat != hero for e in hand.events)
    assert mucked_seen, "the fixture's hands include another seat's muck"
    path = tmp_path / "ann.txt"
    path.write_text(text)
    assert main(["replay", str(path)]) == 0, capsys.readouterr().out
    assert len(list(read_hands(path))) == len(truth)


def test_phh_download_replays_with_unseen_cards_unknown(
    live: tuple[str, Store, dict[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, store, people = live
    with _client(base, "bob") as client:
        response = client.get("/api/hands/download", params={"format": "phh"})
        listed = client.get("/api/hands").json()
    assert response.status_code == 200
    hands = loads_all(response.text)
    truth = _truth(store, people["bob"])
    assert len(hands) == len(truth)
    by_number = {row_id: entry for row_id, entry in truth.items()}
    numbers = {h["number"]: h["id"] for h in listed}
    unknown = 0
    for phh in hands:
        assert phh.hand is not None
        hand, hero, names = by_number[numbers[int(phh.hand)]]
        assert phh.players == names
        assert phh.finishing_stacks == list(hand.stacks)
        leaked = _cards_in_phh_actions(phh.actions) & _unseen(hand, hero)
        assert not leaked, f"hand {phh.hand} gives away {leaked}"
        unknown += sum(line.count("??") for line in phh.actions)
        own = "".join(str(c) for c in hand.cards[hero][:3])
        assert f"d dh p{hero + 1} {own}" in phh.actions
    assert unknown, "others' down cards are written as ??"
    path = tmp_path / "bob.phhs"
    path.write_text(response.text)
    assert main(["replay", str(path)]) == 0, capsys.readouterr().out


def test_nobody_downloads_a_hand_not_theirs_or_not_over(live: tuple[str, Store, dict[str, int]]) -> None:
    base, store, people = live
    # A hand in progress at a table of its own, Ann dealt in: its deck is in the database.
    # (The table is marked closed so that the server's rooms leave it to this test's keeper.)
    table_id = create_table(store, "In progress", SETTINGS)
    with store.session() as s, s.begin():
        s.execute(update(TableRow).where(TableRow.id == table_id).values(closed=True))
    keeper = TableKeeper(store, table_id, SETTINGS)
    keeper.sit_down("ann", 1, 100, 0.0, player_id=people["ann"])
    keeper.sit_down("bot2", 2, 100, 0.0)
    keeper.start_hand(1.0, Deck.shuffled())
    assert keeper.table.hand_in_progress
    with store.session() as s:
        playing = s.scalars(
            select(HandRow.id).where(HandRow.status == "playing", HandRow.table_id == table_id)
        ).one()
        rows = s.scalars(select(HandRow).where(HandRow.status == "finished")).all()
        bob_sittings = set(s.scalars(select(Sitting.id).where(Sitting.player_id == people["bob"])).all())
        ann_sittings = set(s.scalars(select(Sitting.id).where(Sitting.player_id == people["ann"])).all())
    only_bob = [r.id for r in rows if bob_sittings & set(r.sittings) and not ann_sittings & set(r.sittings)]
    shared = [r.id for r in rows if bob_sittings & set(r.sittings)]
    with _client(base, "ann") as ann, _client(base, "cat") as cat:
        for hand_id in (playing, 10**9, *only_bob):
            got = ann.get(f"/api/hands/{hand_id}")
            assert got.status_code == 404 and "no finished hand" in got.json()["detail"]
        for hand_id in shared[:5]:
            assert cat.get(f"/api/hands/{hand_id}").status_code == 404
        assert playing not in {h["id"] for h in ann.get("/api/hands").json()}
        assert ann.get(f"/api/hands/{shared[0]}", params={"format": "zip"}).status_code == 422
        assert ann.get("/api/hands/not-a-number").status_code == 422
    anonymous = httpx.get(f"{base}/api/hands")
    assert anonymous.status_code == 401
    assert httpx.get(f"{base}/api/hands/{shared[0]}").status_code == 401


def test_one_hand_downloads_alone_in_each_format(live: tuple[str, Store, dict[str, int]]) -> None:
    base, store, people = live
    first = min(_truth(store, people["ann"]))
    with _client(base, "ann") as client:
        text = client.get(f"/api/hands/{first}", params={"format": "pokerstars"}).text
        phh = client.get(f"/api/hands/{first}", params={"format": "phh"})
        plain = client.get(f"/api/hands/{first}")
        every = client.get("/api/hands/download")
    assert text.startswith(f"PokerStars Hand #{first}:") and text.count("PokerStars Hand #") == 1
    assert 'filename="sevenstud-hand-' in phh.headers["content-disposition"]
    assert "variant = " in phh.text and "[1]" not in phh.text
    # Rule (docs/protocol.md): a download with no format asked for is PHH, one hand a .phh,
    # all of them a .phhs.
    assert plain.text == phh.text and plain.headers["content-disposition"].endswith('.phh"')
    assert every.headers["content-disposition"].endswith('.phhs"') and "[1]" in every.text


def test_own_hands_is_the_newest_when_limited(played: tuple[Store, dict[str, int], int]) -> None:
    store, people, _ = played
    every = own_hands(store, people["ann"])
    newest = own_hands(store, people["ann"], limit=3)
    assert [h.row_id for h in newest] == [h.row_id for h in every][-3:]


def test_a_scoop_by_the_only_hand_shown_says_its_low_in_every_download() -> None:
    """Issue 16, point 3 (docs/rules.md, "Hi/lo split"): the only hand shown made 6-5-4-3-A and
    scooped; the replayer's result, the PokerStars download and the PHH download all say the
    low it won (the summary said "wins the main pot (7) with high card Ace" and the download
    "No low hand qualified" before)."""
    from sevenstud.dealing import deck_for
    from sevenstud.history.replay import play_phh
    from sevenstud.server.accounts.downloads import OwnHand, phh_for, pokerstars_for, replay_for

    deck = deck_for(["Ac 3d 4h 5d 6c Kd 9s", "Qc Jh 9d 7d 2c Ts 3s", "7h 8h Qd"])
    hand = Hand(SETTINGS.game, [100, 100, 100], deck, auto_showdown=True)
    for action in ("bring-in", "call", "fold"):
        hand.act(action)
    while not hand.is_over:
        hand.act("check")
    own = OwnHand(
        row_id=7, table_id=1, table_name="Downloads", number=3, max_seats=5, started_at=0.0,
        hand=hand, names=["ann", "bob", "cid"], seats=[1, 3, 4], hero=1,
    )
    assert replay_for(own)["result"]["summary"] == [
        "ann scoops the main pot (7) with high card Ace and 6,5,4,3,A"
    ]
    text = pokerstars_for(own)
    assert "ann: shows [Ac 3d 4h 5d 6c Kd 9s] (HI: high card Ace; LO: 6,5,4,3,A)" in text
    assert "No low hand qualified" not in text
    assert "ann collected 4 from pot\nann collected 3 from pot\n" in text
    (item,) = read_hands(io.StringIO(text))
    assert isinstance(item, PokerStarsHand)
    assert play_pokerstars(item).hand.awards == hand.awards
    assert [(a.seat, a.amount, a.share) for a in play_phh(phh_for(own)).awards] == [
        (0, 4, "high"),
        (0, 3, "low"),
    ]


def _own(hand: Hand) -> object:
    from sevenstud.server.accounts.downloads import OwnHand

    return OwnHand(
        row_id=8, table_id=1, table_name="Downloads", number=4, max_seats=5, started_at=0.0,
        hand=hand, names=["ann", "bob", "cid"], seats=[1, 3, 4], hero=0,
    )


def test_the_replayer_is_told_the_pots_and_each_seats_bets_on_every_street() -> None:
    """Issue 16, point 4: each street of the replay carries the pots at the end of its betting
    (table seats) and what each seat put in on it (the antes not counted)."""
    from sevenstud.dealing import deck_for
    from sevenstud.server.accounts.downloads import replay_for

    deck = deck_for(["Ac 3d 4h 5d 6c Kd 9s", "Qc Jh 9d 7d 2c Ts 3s", "7h 8h Qd Jd 2h 4c 8c"])
    hand = Hand(SETTINGS.game, [100, 100, 100], deck, auto_showdown=True)
    for action in ("bring-in", "call", "call"):  # 3 antes, three bets of 2: 9
        hand.act(action)
    for action in ("bet", "call", "call"):  # fourth street, 5 each: 24
        hand.act(action)
    for action in ("bet", "call", "call"):  # fifth street, 10 each: 54
        hand.act(action)
    while not hand.is_over:
        hand.act("check")
    streets = replay_for(_own(hand))["streets"]  # type: ignore[arg-type]
    assert [s["street"] for s in streets] == [3, 4, 5, 6, 7]
    assert [[p["amount"] for p in s["pots"]] for s in streets] == [[9], [24], [54], [54], [54]]
    assert all(s["pots"][0]["seats"] == [1, 3, 4] for s in streets)
    assert [s["bets"] for s in streets] == [[2, 2, 2], [5, 5, 5], [10, 10, 10], [0, 0, 0], [0, 0, 0]]


def test_an_uncalled_bet_is_not_counted_in_the_replayers_pot_or_bets() -> None:
    """Rule: a bet nobody calls goes back (docs/rules.md): the street's bets and pot leave it out."""
    from sevenstud.dealing import deck_for
    from sevenstud.server.accounts.downloads import replay_for

    deck = deck_for(["Ac 3d 4h 5d", "Qc Jh 9d 7d", "7h 8h Qd Jd"])
    hand = Hand(SETTINGS.game, [100, 100, 100], deck, auto_showdown=True)
    for action in ("bring-in", "call", "call", "bet", "fold", "fold"):
        hand.act(action)
    assert hand.is_over
    streets = replay_for(_own(hand))["streets"]  # type: ignore[arg-type]
    assert [s["street"] for s in streets] == [3, 4]
    assert [[p["amount"] for p in s["pots"]] for s in streets] == [[9], [9]]
    assert [s["bets"] for s in streets] == [[2, 2, 2], [0, 0, 0]]
