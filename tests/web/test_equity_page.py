"""The equity page (issue 11, point 5) in Debian's chromium: cards picked on the grid and typed,
an exact run checked against the equity engine itself, a Monte Carlo run followed to the end
through its progress bar, the server's error for a bad card, the game's halves, accessibility
and the phone layout; and (issue 18, point 3) why a job was refused (too large, the room busy,
a job of yours running) or cut short at its deadline, with what Monte Carlo drew by then."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sevenstud.equity import equity
from tests.spawn import running

pytest.importorskip("numpy", reason="the equity engine needs numpy (pip install -e '.[server]')")
pytest.importorskip("playwright")
from playwright.sync_api import expect

FIFTH_STREET = ("As Ad Kc 7h 2d", "Qs Qh Jc 9d 9s")
"""Two players on 5th street: exact counting is quick (under a second)."""


def _open(page: Any, server: str) -> None:
    page.goto(f"{server}/equity")
    page.get_by_test_id("pick-As").wait_for()


def _pick(page: Any, slot: str, cards: str) -> None:
    """Chooses the slot that gets the next picks, then clicks each card on the grid."""
    page.get_by_test_id(f"target-{slot}").check()
    for card in cards.split():
        page.get_by_test_id(f"pick-{card}").click()


def _is_job_start(response: Any) -> bool:
    return bool(response.url.endswith("/api/equity") and response.request.method == "POST")


def _percent(x: float) -> str:
    return f"{x * 100:.1f}%"


def test_cards_picked_on_the_grid_go_to_the_chosen_player_once_each(page: Any, server: str) -> None:
    _open(page, server)
    grid_card = page.get_by_test_id("pick-As")
    # Each grid card is a button a screen reader names as a player says the card.
    assert grid_card.get_attribute("aria-label") == "Ace of spades"
    assert page.locator("#grid button").count() == 52
    # No progress bar until a job runs.
    assert page.get_by_test_id("progress").is_hidden()
    _pick(page, "p0", "As")
    assert page.get_by_test_id("cards-p0").input_value() == "As"
    assert grid_card.get_attribute("aria-pressed") == "true"
    # A card is used once at most: picking it again, for another player, takes it back.
    _pick(page, "p1", "As")
    assert page.get_by_test_id("cards-p0").input_value() == ""
    assert page.get_by_test_id("cards-p1").input_value() == ""
    assert grid_card.get_attribute("aria-pressed") == "false"
    # A card typed is marked on the grid too, whatever its case.
    page.get_by_test_id("cards-dead").fill("7h 10c")
    assert page.get_by_test_id("pick-7h").get_attribute("aria-pressed") == "true"
    assert page.get_by_test_id("pick-Tc").get_attribute("aria-pressed") == "true"
    # Seven cards make a whole hand: an eighth is not taken.
    _pick(page, "p0", "2s 3s 4s 5s 6s 7s 8s 9s")
    assert page.get_by_test_id("cards-p0").input_value() == "2s 3s 4s 5s 6s 7s 8s"
    assert "already has 7 cards" in page.get_by_test_id("pick-note").inner_text()
    # The keyboard: one tab stop for the grid, the arrows move, Enter picks.
    page.get_by_test_id("cards-dead").fill("")
    page.get_by_test_id("target-dead").check()
    page.get_by_test_id("pick-As").focus()
    for key in ("ArrowRight", "ArrowDown", "Enter", "ArrowLeft", "Space"):
        page.keyboard.press(key)
    assert page.get_by_test_id("cards-dead").input_value() == "Kh Ah"
    assert page.locator("#grid button[tabindex='0']").count() == 1
    # Unknown cards go in as ??; two to eight players.
    _pick(page, "p1", "")
    page.get_by_test_id("unknown-card").click()
    assert page.get_by_test_id("cards-p1").input_value() == "??"
    for _ in range(6):
        page.get_by_test_id("add-player").click()
    assert page.get_by_test_id("slot-p7").is_visible()
    assert page.get_by_test_id("add-player").is_disabled()


def test_exact_equity_on_fifth_street_shows_the_engines_figures(
    page: Any, server: str, axe_check: Any, artifacts: Path
) -> None:
    _open(page, server)
    _pick(page, "p0", FIFTH_STREET[0])
    _pick(page, "p1", FIFTH_STREET[1])
    assert page.get_by_test_id("cards-p1").input_value() == FIFTH_STREET[1]
    page.get_by_test_id("method-exact").check()
    with page.expect_response(_is_job_start) as posted:
        page.get_by_test_id("run").click()
    assert posted.value.request.post_data_json == {
        "game": "stud8", "hands": list(FIFTH_STREET), "dead": "", "method": "exact",
    }
    page.get_by_test_id("result-1-low").wait_for()
    expected = equity(list(FIFTH_STREET), game="stud8", exact=True)
    figures = {"equity": "equity", "scoop": "scoop", "high": "high_win", "low": "low_win"}
    for i, player in enumerate(expected.players):
        for shown, field in figures.items():
            value = getattr(player, field)
            cell = page.get_by_test_id(f"result-{i}-{shown}")
            assert float(cell.get_attribute("data-value")) == pytest.approx(value, abs=1e-12)
            assert cell.inner_text() == _percent(value)
    assert page.get_by_test_id("summary").inner_text().startswith("Done: exact over")
    assert page.get_by_test_id("equity-error").inner_text() == ""
    axe_check(page, "the equity page with results")
    page.screenshot(path=str(artifacts / "equity.png"), full_page=True)
    # A phone: nothing runs off the side of the screen.
    page.set_viewport_size({"width": 375, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(artifacts / "equity-phone.png"), full_page=True)


def test_a_monte_carlo_run_shows_its_progress_then_its_result(page: Any, server: str) -> None:
    _open(page, server)
    hands = ["As 2d 3c", "Qs 4h 5c", "Kd Kh 8s", "7c 7d 9h", "Jh Td 6s", "2s 3h 4d", "5s 6h 8c", "9c Tc Jc"]
    for _ in range(len(hands) - 2):
        page.get_by_test_id("add-player").click()
    for i, cards in enumerate(hands):
        page.get_by_test_id(f"cards-p{i}").fill(cards)
    page.get_by_test_id("method-monte-carlo").check()
    page.get_by_test_id("trials").fill("2000000")
    polls: list[Any] = []
    page.on("response", lambda r: polls.append(r) if "/api/equity/" in r.url else None)
    page.get_by_test_id("run").click()
    bar = page.get_by_test_id("progress")
    bar.wait_for()
    assert page.get_by_label("Progress").count() == 1
    page.get_by_test_id(f"result-{len(hands) - 1}-equity").wait_for(timeout=60_000)
    answers = [r.json() for r in polls]
    assert any(a.get("done") is False for a in answers), "no poll saw the job running"
    assert answers[-1]["done"] is True and answers[-1]["result"]["trials"] == 2_000_000
    assert bar.evaluate("b => b.value") == 1
    assert page.get_by_test_id("progress-text").inner_text() == "Done"
    assert page.get_by_test_id("summary").inner_text().startswith("Done: Monte Carlo, 2,000,000 trials")
    shares = [page.get_by_test_id(f"result-{i}-equity").get_attribute("data-value") for i in range(8)]
    assert sum(float(x) for x in shares) == pytest.approx(1.0, abs=1e-9)


def test_the_games_halves_stud_has_no_low_and_razz_only_the_low(page: Any, server: str) -> None:
    _open(page, server)
    page.get_by_test_id("cards-p0").fill("As Ad Kc")
    page.get_by_test_id("cards-p1").fill("Qs Qh Jc")
    page.get_by_test_id("game").select_option("stud")
    page.get_by_test_id("run").click()
    page.get_by_test_id("result-1-high").wait_for()
    assert page.get_by_test_id("result-0-low").count() == 0
    page.get_by_test_id("cards-p0").fill("As 2d 3c")
    page.get_by_test_id("cards-p1").fill("Qs 4h 5c")
    page.get_by_test_id("game").select_option("razz")
    page.get_by_test_id("run").click()
    page.get_by_test_id("result-1-low").wait_for()
    assert page.get_by_test_id("result-0-high").count() == 0
    assert page.get_by_test_id("result-0-scoop").count() == 1


def test_a_bad_card_typed_shows_the_servers_error(page: Any, server: str) -> None:
    body = {"game": "stud8", "hands": ["As Xx 3s", "Kd Kh Kc"], "dead": "", "method": "auto"}
    refused = httpx.post(f"{server}/api/equity", json=body)
    assert refused.status_code == 400
    _open(page, server)
    page.get_by_test_id("cards-p0").fill("As Xx 3s")
    page.get_by_test_id("cards-p1").fill("Kd Kh Kc")
    page.get_by_test_id("run").click()
    error = page.get_by_test_id("equity-error")
    error.filter(has_text="Xx").wait_for()
    assert error.inner_text() == refused.json()["detail"]
    assert page.get_by_test_id("results").inner_text() == ""
    # The page is usable again: mended, the same position runs.
    page.get_by_test_id("cards-p0").fill("As 2s 3s")
    page.get_by_test_id("run").click()
    page.get_by_test_id("result-1-equity").wait_for()
    assert error.inner_text() == ""


def test_a_duplicate_card_error_goes_when_the_cards_are_corrected(page: Any, server: str) -> None:
    """Issue 16, point 6: the server's refusal of a card given twice stays until the cards
    change, then goes (it stayed on screen after the cards were corrected before)."""
    body = {"game": "stud8", "hands": ["As 2s 3s", "As Kh Kc"], "dead": "", "method": "auto"}
    refused = httpx.post(f"{server}/api/equity", json=body)
    assert refused.status_code == 400 and refused.json()["reason"] == "bad-position"
    _open(page, server)
    page.get_by_test_id("cards-p0").fill("As 2s 3s")
    page.get_by_test_id("cards-p1").fill("As Kh Kc")
    page.get_by_test_id("run").click()
    error = page.get_by_test_id("equity-error")
    expect(error).to_have_text(refused.json()["detail"], timeout=15_000)
    page.get_by_test_id("cards-p1").fill("Kd Kh Kc")
    expect(error).to_have_text("")


def test_a_card_given_twice_is_refused_in_the_pages_language_until_corrected(page: Any, server: str) -> None:
    """Issue 16, point 8: the server says the refusal in the page's language (the page asks in
    it), naming the card; the message goes once the cards are corrected, and the same
    position then runs."""
    page.goto(f"{server}/equity?lang=uk")
    page.get_by_test_id("pick-As").wait_for()
    page.get_by_test_id("cards-p0").fill("As 2s 3s")
    page.get_by_test_id("cards-p1").fill("As Kh Kc")
    page.get_by_test_id("run").click()
    error = page.get_by_test_id("equity-error")
    expect(error).to_have_text("карту As вказано двічі (гравець 1 і гравець 2)", timeout=15_000)
    expect(page.get_by_test_id("equity-why")).to_have_text("Відмовлено: ці карти не утворюють позицію.")
    page.get_by_test_id("cards-p1").fill("Kd Kh Kc")
    expect(error).to_have_text("")
    page.get_by_test_id("run").click()
    page.get_by_test_id("result-1-equity").wait_for(timeout=30_000)
    assert error.inner_text() == ""


# ---------------------------------------------------------------------- refused, or cut short (issue 18)

EIGHT_ON_THIRD = ["As 2d 3c", "Qs 4h 5c", "Kd Kh 8s", "7c 7d 9h"]
EIGHT_ON_THIRD += ["Jh Td 6s", "2s 3h 4d", "5s 6h 8c", "9c Tc Jc"]
"""Eight players on 3rd street: about 3 x 10^22 outcomes to count exactly."""
THREE_ON_THIRD = ["As 2d 3c", "Qs 4h 5c", "Kd Kh 8s"]
"""Three players on 3rd street: an exact count that would run for days."""
TIGHT = ["--equity-jobs", "1", "--equity-jobs-per-client", "1", "--equity-seconds", "1.5"]
TIGHT += ["--equity-max-outcomes", str(10**16), "--equity-max-trials", str(10**9)]
"""A card room that runs one equity job at a time, one per client, cut at 1.5 s, with the size
caps out of the way (so that a job runs until its deadline)."""


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A card room with the limits of :data:`TIGHT`: its base URL."""
    folder = tmp_path_factory.mktemp("tight")
    with running(f"sqlite:///{folder / 'cardroom.sqlite3'}", pause=1.5, args=TIGHT) as served:
        yield served.base


def _long_job(server: str, source: str) -> tuple[httpx.Client, str]:
    """A job that runs until its deadline, asked for from the address ``source``."""
    client = httpx.Client(base_url=server, transport=httpx.HTTPTransport(local_address=source))
    started = client.post("/api/equity", json={"hands": THREE_ON_THIRD, "method": "exact"})
    assert started.status_code == 200, started.text
    return client, started.json()["job"]


def _ended(client: httpx.Client, job: str) -> dict[str, Any]:
    for _ in range(100):
        answer: dict[str, Any] = client.get(f"/api/equity/{job}").json()
        if answer["done"]:
            return answer
        time.sleep(0.2)
    raise AssertionError(f"the job {job} did not end")


def _fill(page: Any, hands: list[str]) -> None:
    for _ in range(len(hands) - 2):
        page.get_by_test_id("add-player").click()
    for i, cards in enumerate(hands):
        page.get_by_test_id(f"cards-p{i}").fill(cards)


def test_the_page_says_a_job_too_large_was_refused_and_which_limit(page: Any, server: str) -> None:
    body = {"game": "stud8", "hands": EIGHT_ON_THIRD, "dead": "", "method": "exact"}
    refused = httpx.post(f"{server}/api/equity", json=body)
    assert refused.status_code == 400 and refused.json()["reason"] == "too-large"
    _open(page, server)
    _fill(page, EIGHT_ON_THIRD)
    page.get_by_test_id("method-exact").check()
    page.get_by_test_id("run").click()
    why = page.get_by_test_id("equity-why")
    why.filter(has_text="Refused").wait_for()
    assert why.inner_text() == "Refused: this job is larger than the server computes."
    assert page.get_by_test_id("equity-error").inner_text() == refused.json()["detail"]
    assert "max_outcomes" in refused.json()["detail"]
    assert page.get_by_test_id("progress-text").inner_text() == "Refused"
    assert page.get_by_test_id("results").inner_text() == ""


def test_the_page_says_the_server_is_busy_and_when_to_try_again(
    page: Any, tight: str, axe_check: Any, artifacts: Path
) -> None:
    other, job = _long_job(tight, "127.0.0.2")  # another client fills the room's one place
    _open(page, tight)
    _fill(page, ["As Ad Kc 7h 2d", "Qs Qh Jc 9d 9s"])
    page.get_by_test_id("run").click()
    why = page.get_by_test_id("equity-why")
    why.filter(has_text="Refused").wait_for()
    assert why.inner_text().startswith("Refused: the server is busy with other jobs. Try again in ")
    assert "busy" in page.get_by_test_id("equity-error").inner_text()
    axe_check(page, "the equity page with a refusal")
    page.screenshot(path=str(artifacts / "equity-refused.png"), full_page=True)
    assert _ended(other, job)["stopped"] == "deadline"
    # The other client's worker has ended: the same job runs now.
    page.get_by_test_id("run").click()
    page.get_by_test_id("result-1-equity").wait_for()
    assert why.inner_text() == "" and page.get_by_test_id("equity-error").inner_text() == ""


def test_the_page_says_you_have_a_job_running_already(page: Any, tight: str) -> None:
    mine, job = _long_job(tight, "127.0.0.1")  # the page's own address
    _open(page, tight)
    _fill(page, ["As Ad Kc 7h 2d", "Qs Qh Jc 9d 9s"])
    page.get_by_test_id("run").click()
    why = page.get_by_test_id("equity-why")
    why.filter(has_text="Refused").wait_for()
    expected = "Refused: you have as many jobs running as the server allows one visitor."
    assert why.inner_text().startswith(expected)
    assert "per_client" in page.get_by_test_id("equity-error").inner_text()
    _ended(mine, job)


def test_the_page_says_a_job_was_cut_short_and_shows_what_monte_carlo_drew(page: Any, tight: str) -> None:
    _open(page, tight)
    _fill(page, EIGHT_ON_THIRD)  # shuffles: the first trials come within milliseconds
    page.get_by_test_id("method-monte-carlo").check()
    page.get_by_test_id("trials").fill(str(10**9))
    page.get_by_test_id("run").click()
    page.get_by_test_id("progress-text").filter(has_text="1.5 s at the latest").wait_for()
    page.get_by_test_id("result-7-equity").wait_for(timeout=20_000)
    assert page.get_by_test_id("equity-why").inner_text() == "Cut short at its deadline."
    error = page.get_by_test_id("equity-error").inner_text()
    assert "deadline of 1.5 s" in error and "of the 1,000,000,000 trials were drawn" in error
    assert page.get_by_test_id("progress-text").inner_text() == "Cut short"
    assert page.get_by_test_id("summary").inner_text().startswith("Cut short: Monte Carlo, ")
    shares = [page.get_by_test_id(f"result-{i}-equity").get_attribute("data-value") for i in range(8)]
    assert sum(float(x) for x in shares) == pytest.approx(1.0, abs=1e-9)
    # An exact count cut short has no figures: the page says so and shows none.
    for _ in range(5):
        page.get_by_test_id("remove-player").click()
    for i, cards in enumerate(THREE_ON_THIRD):
        page.get_by_test_id(f"cards-p{i}").fill(cards)
    page.get_by_test_id("method-exact").check()
    page.get_by_test_id("run").click()
    page.get_by_test_id("equity-why").filter(has_text="Cut short").wait_for(timeout=20_000)
    assert "ask for Monte Carlo" in page.get_by_test_id("equity-error").inner_text()
    assert page.get_by_test_id("results").inner_text() == ""
