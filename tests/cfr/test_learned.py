"""The learned bot (issue 17, point 2): the abstraction it plays by at the table is the one it
was trained on, it reads only its seat's view, its policy file is checked, and ``sevenstud
train`` trains, checkpoints and resumes."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from sevenstud.bots import RandomBot, TightBot, new_bot
from sevenstud.bots.learned import HEADS_UP_ENDS, LearnedBot, multiway_table, shipped_policy
from sevenstud.bots.match import BotFactory, duplicate_match
from sevenstud.cards import CARDS, parse_cards
from sevenstud.cfr import policy as policy_file
from sevenstud.cfr.abstraction import RULES, TOKENS, legal_letters, opponents_of, strength, view_key
from sevenstud.cfr.stud_game import StudGame
from sevenstud.cfr.train import load_checkpoint
from sevenstud.cli import main
from sevenstud.deck import Deck
from sevenstud.games import GAMES, Stakes
from sevenstud.hand import Action, ActionKind, Hand, SeatView

STAKES = Stakes(1, 2, 5, 10)
MULTIWAY_UNKNOWN = 0.75
"""The most of the multiway decisions (two or three opponents in) the shipped four-handed
tables may leave to the tight rules: they keep only the keys self-play reached about 2,000
times or more (``--least-visits 2000``); measured 0.10 to 0.62 over the test's hands. A table
whose keys drifted from the abstraction would know none."""


class Recorder:
    """A bot that notes, at each betting decision, the key and letters its view gives."""

    def __init__(self, bot: RandomBot | TightBot, log: list[tuple[int, str, list[str], str]]) -> None:
        self.bot, self.log, self.name = bot, log, bot.name

    def act(self, view: SeatView) -> Action:
        action = self.bot.act(view)
        if action.kind in TOKENS:
            assert view.seat is not None
            self.log.append((view.seat, view_key(view), legal_letters(view), TOKENS[action.kind]))
        return action


@pytest.mark.parametrize("code", list(GAMES))
@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_table_s_keys_are_the_training_game_s(code: str, players: int) -> None:
    """Real hands replayed in the training game: at every decision the key computed from the
    seat's view, and its legal letters, are those the training game computes for that seat."""
    rng = random.Random(f"{code}-{players}")
    for deal in range(12):
        log: list[tuple[int, str, list[str], str]] = []
        bots = [
            Recorder((RandomBot if rng.random() < 0.5 else TightBot)(seed=rng.random()), log)
            for _ in range(players)
        ]
        hand = Hand(GAMES[code](STAKES), [500] * players, Deck.seeded(f"keys-{code}-{deal}"))
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            hand.act(bots[seat].act(hand.view(seat)), seat)
        # Each seat's seven cards (those never dealt taken from the rest of the deck: no key
        # before the hand's end can depend on them).
        used = {c for row in hand.cards for c in row}
        spare = iter(c for c in CARDS if c not in used)
        rows = [list(row) + [next(spare) for _ in range(7 - len(row))] for row in hand.cards]
        game = StudGame(code, players)  # type: ignore[arg-type]
        state = game.child(game.root(), [rows[s][k] for k in range(7) for s in range(players)])
        for seat, key, letters, token in log:
            assert game.player(state) == seat
            assert list(game.actions(state)) == letters
            assert game.infoset(state) == key
            state = game.child(state, token)
        assert game.is_terminal(state)


class Counting(LearnedBot):
    """A learned bot that notes, at each betting decision, the opponents still in and whether
    the policy answered."""

    def __init__(self, seed: int, heads_up_ends: frozenset[str] = HEADS_UP_ENDS) -> None:
        super().__init__(seed=seed, heads_up_ends=heads_up_ends)
        self.answers: list[tuple[int, bool]] = []

    def lookup(self, view: SeatView) -> list[int] | None:
        found = super().lookup(view)
        opponents = sum(not folded for s, folded in enumerate(view.folded) if s != view.seat)
        assert opponents_of(view_key(view, 3)) == min(opponents, 3)
        self.answers.append((opponents, found is not None))
        return found


def test_the_learned_bot_plays_every_game_from_its_policy() -> None:
    """The shipped policy covers the games at every table size: heads-up, and in Stud Hi/Lo in
    a multiway hand once one opponent is left, nearly every decision is the heads-up table's (in
    Stud there, many are the four-handed table's, which learned them; in Razz, none: the
    fallback's); with two or three opponents in many are the four-handed table's; with more,
    none (the fallback's)."""
    policy = shipped_policy()
    ends_learned = {code for code in GAMES if policy["meta"][f"{code}/4"].get("heads_up_ends") == "learned"}
    assert ends_learned == {"stud"}
    for code in GAMES:
        assert f"{code}/2" in policy["tables"] and multiway_table(policy["tables"], code) == f"{code}/4"
        for players in (2, 6, 8):
            bots: list[Counting] = []

            def make(seed: int, bots: list[Counting] = bots) -> Counting:
                bot = Counting(seed)
                bots.append(bot)
                return bot

            duplicate_match([make] + ["rule"] * (players - 1), game=code, deals=10, seed=5)
            answers = [a for b in bots for a in b.answers]
            heads_up = [found for opponents, found in answers if opponents == 1]
            multiway = [found for opponents, found in answers if 2 <= opponents <= 3]
            more = [found for opponents, found in answers if opponents > 3]
            # Once a multiway hand is down to two, its earlier betting (three bets on a street,
            # a fold between them) is sometimes unknown to the heads-up table: about one in six.
            # (Eight-handed, ten deals reach heads-up some twenty times, too few to count.)
            most_unknown = {2: 0.05, 6: 0.3, 8: 1.0}[players]
            if players > 2 and code in ends_learned:
                # Learned four-handed, kept where reached 2,000 times or more: fewer known.
                assert len(heads_up) > 10 and 1 - sum(heads_up) / len(heads_up) < MULTIWAY_UNKNOWN, (
                    code,
                    players,
                    sum(heads_up),
                    len(heads_up),
                )
            elif players == 2 or code in HEADS_UP_ENDS:
                assert len(heads_up) > 10 and 1 - sum(heads_up) / len(heads_up) < most_unknown, (
                    code,
                    players,
                    sum(heads_up),
                    len(heads_up),
                )
            else:
                assert len(heads_up) > 10 and not any(heads_up), (code, players)
            if players > 2:
                assert len(multiway) > 20 and 1 - sum(multiway) / len(multiway) < MULTIWAY_UNKNOWN, (
                    code,
                    players,
                    sum(multiway),
                    len(multiway),
                )
                assert len(more) > 10 and not any(more), (code, players)
            assert sum(b.fell_back for b in bots) == len(answers) - sum(heads_up) - sum(multiway)


def test_the_learned_bot_is_registered() -> None:
    bot = new_bot("learned", seed=1, name="Lea")
    assert isinstance(bot, LearnedBot) and bot.name == "Lea"


def test_a_bad_policy_file_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(policy_file.PolicyFileError, match=r"bad\.json\.gz"):
        policy_file.load(bad)
    wrong = tmp_path / "wrong.json.gz"
    wrong.write_bytes(gzip.compress(b'{"format": "other"}'))
    with pytest.raises(policy_file.PolicyFileError, match="not a version 1"):
        policy_file.load(wrong)


def test_quantised_probabilities_sum_to_a_thousand() -> None:
    rng = random.Random(4)
    for _ in range(200):
        raw = [rng.random() for _ in range(rng.randint(1, 3))]
        total = sum(raw)
        assert sum(policy_file.quantise([x / total for x in raw])) == 1000


def test_train_writes_a_policy_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.json.gz"
    args = ["train", "--game", "kuhn", "--workers", "1", "--batch", "100", "--out", str(out)]
    assert main([*args, "--iterations", "200"]) == 0
    first = capsys.readouterr().err
    assert "kuhn/2: 200 iterations" in first and "exploitability" in first
    assert main([*args, "--iterations", "1500"]) == 0
    second = capsys.readouterr().err
    assert "resuming kuhn/2 at 200 iterations" in second and "kuhn/2: 1500 iterations" in second
    exploit = [float(line.rsplit(" ", 1)[1]) for line in second.splitlines() if "exploitability" in line]
    assert exploit[-1] < 0.1
    assert load_checkpoint(out.with_name(out.name + ".ckpt"), "kuhn", 2).iterations == 1500
    assert set(policy_file.load(out)["tables"]) == {"kuhn/2"}


def test_train_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--game", "kuhn", "--players", "3"]) != 0
    assert "kuhn is a two-player game" in capsys.readouterr().err
    assert main(["train", "--iterations", "0"]) != 0
    assert "--iterations must be at least 1" in capsys.readouterr().err
    assert main(["train", "--least-visits", "-5"]) != 0
    assert "--least-visits cannot be negative (-5)" in capsys.readouterr().err
    assert main(["train", "--game", "stud", "--learn-heads-up-ends"]) != 0
    assert (
        "--learn-heads-up-ends is for a multiway table (--players 3 or more), not 2"
        in capsys.readouterr().err
    )


def test_a_stud_game_step_matches_the_engine_s_first_actions() -> None:
    """The training game's first decision is the engine's: the same bring-in seat, the same
    letters (bring in or complete)."""
    for seed in range(20):
        hand = Hand(GAMES["stud8"](STAKES), [500] * 4, Deck.seeded(seed))
        seat = hand.to_act
        assert seat is not None
        view = hand.view(seat)
        game = StudGame("stud8", 4)
        rows = [list(hand.cards[s]) for s in range(4)]
        used = {c for row in rows for c in row}
        spare = iter(c for c in CARDS if c not in used)
        rows = [row + [next(spare) for _ in range(7 - len(row))] for row in rows]
        state = game.child(game.root(), [rows[s][k] for k in range(7) for s in range(4)])
        assert game.player(state) == seat and game.infoset(state) == view_key(view)
        assert {a.kind for a in view.legal_actions} >= {ActionKind.BRING_IN, ActionKind.COMPLETE}


def test_train_on_two_processes_adds_their_shares(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two workers: each round counts both workers' iterations and exploitability falls."""
    out = tmp_path / "p.json.gz"
    args = ["train", "--game", "kuhn", "--workers", "2", "--batch", "500", "--out", str(out)]
    assert main([*args, "--iterations", "3000"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "exploitability" in line]
    assert [line.split(": ")[1].split(" ")[0] for line in lines] == ["1000", "2000", "3000"]
    exploit = [float(line.rsplit(" ", 1)[1]) for line in lines]
    assert exploit[-1] < exploit[0] and exploit[-1] < 0.05


@pytest.mark.parametrize(("code", "kind"), [("stud8", "tight"), ("stud", "tight"), ("razz", "equity")])
def test_where_no_table_plays_the_learned_bot_plays_its_game_s_fallback(code: str, kind: str) -> None:
    """With no table at all every decision is the game's fallback bot's, the very one with the
    learned bot's seed: the match's figures are that kind's to the last chip."""
    pytest.importorskip("numpy")  # the equity bot plays the tight rules without it

    def empty(seed: int) -> LearnedBot:
        return LearnedBot(seed=seed, policy={"tables": {}})

    def figures(first: str | BotFactory) -> list[float]:
        match = duplicate_match([first, "rule", "rule"], game=code, deals=4, seed=3)
        return [r.msb_per_hand for r in match.results]

    assert figures(empty) == figures(kind)
    # The other kind plays differently (so the comparison above tells them apart).
    other = "equity" if kind == "tight" else "tight"
    assert figures(other) != figures(empty)
    swapped = LearnedBot(seed=1, policy={"tables": {}}, fallback={code: other})
    assert type(swapped._fallbacks[code]).__name__ == {"tight": "TightBot", "equity": "EquityBot"}[other]
    with pytest.raises(ValueError, match="unknown fallback kind 'station'"):
        LearnedBot(fallback={code: "station"})


def test_a_multiway_hand_s_heads_up_end_is_the_heads_up_table_s_where_asked() -> None:
    """Razz's heads-up table plays a six-handed hand down to two when the bot is told to (it is
    silent there by default, test above), and a hand dealt heads-up either way."""
    assert "razz" not in HEADS_UP_ENDS
    bots: list[Counting] = []

    def make(seed: int) -> Counting:
        bots.append(Counting(seed, heads_up_ends=frozenset({"razz"})))
        return bots[-1]

    duplicate_match([make] + ["rule"] * 5, game="razz", deals=10, seed=5)
    heads_up = [found for b in bots for opponents, found in b.answers if opponents == 1]
    assert len(heads_up) > 10 and sum(heads_up) > len(heads_up) / 2


def test_a_razz_heads_up_key_reads_the_opponent_s_board() -> None:
    """Razz heads-up, the key's hi place (razz has no high hand) holds the opponent's board:
    the same cards of the seat's own read differently against a king, an eight and a four;
    with two opponents in, it is 0 whatever their boards."""
    game = RULES["razz"]
    mine = parse_cards("Ah 2d 3c")
    for door, level in (("Kc", 1), ("8c", 2), ("4c", 3)):
        board = parse_cards(door)
        assert strength(game, mine, mine[2:], board, [board]) == (level, 4, 1)
    two = [parse_cards("4c"), parse_cards("5s")]
    assert strength(game, mine, mine[2:], two[0] + two[1], two)[0] == 0
    stud = strength(RULES["stud"], mine, mine[2:], parse_cards("Kc"), [parse_cards("Kc")])
    assert stud[0] == strength(RULES["stud"], mine, mine[2:], parse_cards("4c"), [parse_cards("4c")])[0]
