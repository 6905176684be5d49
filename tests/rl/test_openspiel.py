"""The OpenSpiel game: OpenSpiel's random-simulation test on all three games, and its CFR,
best-response and exploitability tools on a reduced stud game (issue 17, point 4)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (open_spiel) is not installed")
np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from open_spiel.python.algorithms import best_response, cfr, exploitability  # noqa: E402

import sevenstud.rl.openspiel_game  # noqa: E402,F401  (registers python_sevenstud)
from sevenstud.cards import CARDS  # noqa: E402
from sevenstud.hand import Hand  # noqa: E402
from sevenstud.rl.encoding import Layout, decode_cards  # noqa: E402

# Three cards for chance, short stacks: every player is all-in or folded within two bets, and
# the rest of the deck follows in card order (sevenstud.rl.openspiel_game's reduced game).
REDUCED = {
    "game": "stud8", "players": 2, "deck": "Ac 2c Kd", "stack": 3,
    "ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4,
}


@pytest.mark.parametrize("game", ["stud8", "stud", "razz"])
@pytest.mark.parametrize("players", [2, 8])
def test_openspiels_random_simulation_test_passes(game: str, players: int) -> None:
    spiel_game = pyspiel.load_game("python_sevenstud", {"game": game, "players": players})
    pyspiel.random_sim_test(spiel_game, num_sims=4, serialize=False, verbose=False)


def _random_states(params: dict[str, object], seed: int) -> list[object]:
    game = pyspiel.load_game("python_sevenstud", params)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    states = []
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=probs)))
        else:
            states.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
    states.append(state)
    return states


def test_every_card_is_a_chance_outcome_and_the_hand_is_the_engines() -> None:
    """The deal is chance's: the hand's cards are the chance outcomes, in dealing order, and
    replaying the hand's actions on its deck gives the same result (no rule of our own)."""
    for seed in range(5):
        states = _random_states({"game": "razz", "players": 3}, seed)
        final = states[-1]
        hand = final.hand
        dealt_cards = [int(c) for c in hand.deck.cards[: hand.deck.position]]
        assert dealt_cards == final.dealt
        again = Hand.replay(hand.game, list(hand.starting_stacks), hand.deck.cards, hand.actions)
        assert again.stacks == hand.stacks
        chips = zip(hand.stacks, hand.starting_stacks, strict=True)
        assert final.returns() == [float(end - start) for end, start in chips]
        assert sum(final.returns()) == 0.0


def test_the_tensors_hold_no_other_seats_down_card() -> None:
    """Rule: a seat's observation and information-state tensors show exactly its redacted view."""
    layout = Layout(3)
    for seed in range(3):
        for state in _random_states({"game": "stud8", "players": 3}, seed)[:-1]:
            hand = state.hand
            for player in range(3):
                view = hand.view(player)
                for tensor in (state.observation_tensor(player), state.information_state_tensor(player)):
                    decoded = decode_cards(np.asarray(tensor[: layout.size], np.float32), layout)
                    for s in range(3):
                        expected = [None if c is None else int(c) for c in view.cards[s]]
                        assert decoded[(s - player) % 3] == expected
                text = state.information_state_string(player)
                for s in range(3):
                    if s != player and s not in hand.turned_up and s not in hand.shown:
                        for card, up in zip(hand.cards[s], hand.face_up[s], strict=True):
                            if not up:
                                assert str(CARDS[card]) not in text.split("|")[1]


def test_the_information_state_string_tells_the_actions_apart() -> None:
    states = _random_states({"game": "stud", "players": 2}, 11)
    player = states[0].current_player()
    first = states[0]
    strings = set()
    for action in first.legal_actions():
        child = first.child(action)
        while child.is_chance_node():
            child.apply_action(child.chance_outcomes()[0][0])
        if not child.is_terminal():
            strings.add(child.information_state_string(player))
    assert len(strings) == len([a for a in first.legal_actions() if not first.child(a).is_terminal()])


def test_cfr_best_response_and_exploitability_run_and_cfr_lowers_exploitability() -> None:
    """OpenSpiel's tools on the reduced game: the exact exploitability of CFR's average policy
    (by a best response over the whole tree) falls as it trains."""
    game = pyspiel.load_game("python_sevenstud", REDUCED)
    solver = cfr.CFRSolver(game)
    start = exploitability.exploitability(game, solver.average_policy())
    for _ in range(8):
        solver.evaluate_and_update_policy()
    after = exploitability.exploitability(game, solver.average_policy())
    assert 0.0 <= after < start
    responder = best_response.BestResponsePolicy(game, 0, solver.average_policy())
    assert responder.value(game.new_initial_state()) >= -REDUCED["stack"]  # type: ignore[operator]


@pytest.mark.parametrize(("params", "message"), [
    ({"players": 9}, "players must be 2 to 8"),
    ({"stack": 0}, "stack must be above 0"),
    ({"deck": "Ac Ac"}, "Ac"),
    ({"game": "holdem"}, "unknown game 'holdem'"),
])
def test_bad_parameters_are_refused_by_name(params: dict[str, object], message: str) -> None:
    with pytest.raises(Exception, match=message):
        pyspiel.load_game("python_sevenstud", params)
