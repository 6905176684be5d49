"""Train a small policy against the rule bot and plot its learning curve beside three references
(issue 17, point 4; issue 37, point 4).

The learner is Monte Carlo control over a small table: its state is the street, a class of its
own cards read from the observation tensor (docs/rl.md; the high hand, the low cards, a flush
draw: :func:`hand_class`) and whether it faces a bet; it keeps the mean result of each action
in each state and plays the best legal one, a random one with a probability that falls from 0.3
to 0.02 over the first three quarters of the hands: plain numpy, no deep-learning library. (A
linear softmax policy over the whole observation, trained by REINFORCE, with a learned value
baseline, an entropy bonus and scaled inputs, only learned to fold in 8,000 hands: the result of
playing a hand is far noisier than the ante a fold costs.) It plays heads-up Stud Hi/Lo (or
``--game``) in :class:`sevenstud.rl.gym_env.StudGymEnv`, the rule bot in the other seat, the
learner's seat alternating hand by hand.

The curve is its result in big bets a hand, averaged over windows of hands, drawn beside the
same deals played by three fixed policies: random legal actions; **always fold** (fold where it
may, else check or bring in: it loses the antes and bring-ins and nothing more), the floor a
learner must beat, since a policy that only learns to fold rises to it and no further; and the
**rule bot** in the learner's seat (the opponent's own strength: 0 on average by symmetry). The
script ends by saying which of them the learner beat over the last quarter of its hands, with
95% intervals.

    .venv/bin/python examples/train_vs_rule.py [--hands 20000] [--game stud8] [--out curve.png]

About a minute for the default 20,000 hands (four policies play every deal). The PNG needs
matplotlib (``pip install -e '.[rl-plot]'``); without it the curve is written as CSV beside
where the PNG would go, and the script says so.
"""

from __future__ import annotations

import argparse
import csv
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np

from sevenstud.actions import ActionIndex, numbered
from sevenstud.bots.simple import RuleBot
from sevenstud.rl.encoding import Layout
from sevenstud.rl.gym_env import StudGymEnv

CLASSES = 5 * 3 * 2
"""Hand classes: the high hand (5) by the low cards (3) by a flush draw (2)."""
STATES = 5 * CLASSES * 2
"""Streets by hand classes by whether there is a bet to call."""


def hand_class(x: np.ndarray, layout: Layout) -> int:
    """How a stud player first sizes up the seat's own cards (row 0 of the observation's card
    block), which a linear policy cannot read from one-hot cards: the high hand (nothing, a
    small pair, a pair of tens or better, two pair, trips or more), how many of the cards are
    distinct lows (ace to eight: all of them, all but one, fewer) and three or more of a suit."""
    own = x[layout.cards : layout.cards + 7 * 52].reshape(7, 52).nonzero()[1]
    ranks = own >> 2  # cards.py: card = rank * 4 + suit, rank 0 the deuce, 12 the ace
    counts = np.bincount(ranks, minlength=13)
    pairs = np.flatnonzero(counts >= 2)
    if counts.max() >= 3:
        high = 4
    elif len(pairs) >= 2:
        high = 3
    elif len(pairs) == 1:
        high = 2 if pairs[0] >= 8 else 1  # rank 8 is the ten
    else:
        high = 0
    lows = len({int(r) for r in ranks if r <= 6 or r == 12})  # the deuce to the eight, and the ace
    wanted = min(len(own), 5)
    low = 0 if lows >= wanted else 1 if lows >= wanted - 1 else 2
    flush = int(np.bincount(own & 3, minlength=4).max() >= 3)
    return (high * 3 + low) * 2 + flush


class ActionValues:
    """Monte Carlo control: the mean result of each action in each state, the best legal one
    played, a random legal one with probability ``epsilon`` (to keep trying the others)."""

    def __init__(self, states: int, actions: int, rng: np.random.Generator) -> None:
        self.q = np.zeros((states, actions))
        self.n = np.zeros((states, actions))
        self.rng = rng

    def choose(self, state: int, mask: np.ndarray, epsilon: float) -> int:
        legal = np.flatnonzero(mask)
        if self.rng.random() < epsilon:
            return int(self.rng.choice(legal))
        values = self.q[state, legal]
        return int(legal[self.rng.choice(np.flatnonzero(values == values.max()))])

    def learn(self, steps: list[tuple[int, int]], result: float) -> None:
        """Each decision of the hand moves its action's value toward the hand's result."""
        for state, action in steps:
            self.n[state, action] += 1
            rate = max(1.0 / self.n[state, action], 0.002)  # a mean, then a slow moving one
            self.q[state, action] += rate * (result - self.q[state, action])


Chooser = Callable[[np.ndarray, np.ndarray], int]


class Learner:
    """The learner's seat: its state from the observation, its action by the table of values,
    and the decisions of the hand being played (for the update)."""

    def __init__(self, model: ActionValues, layout: Layout) -> None:
        self.model, self.layout = model, layout
        self.epsilon = 0.3
        self.steps: list[tuple[int, int]] = []
        self.counting = False
        self.folds = 0
        """Folds while counting (the last quarter of the hands)."""
        self.may_fold = 0
        """Decisions where it might fold, while counting."""

    def __call__(self, x: np.ndarray, mask: np.ndarray) -> int:
        street = int(x[self.layout.street : self.layout.street + 5].argmax())  # one-hot, 3rd to 7th
        state = (street * CLASSES + hand_class(x, self.layout)) * 2 + int(mask[ActionIndex.CALL] > 0)
        action = self.model.choose(state, mask, self.epsilon)
        self.steps.append((state, action))
        if self.counting and mask[ActionIndex.FOLD]:
            self.folds += action == ActionIndex.FOLD
            self.may_fold += 1
        return action


def play(env: StudGymEnv, choose: Chooser, seed: int) -> float:
    """One hand by ``choose`` (observation, mask -> action): the learner seat's result."""
    obs, info = env.reset(seed=seed)
    total = float(info["carried_reward"])
    done = False
    while not done:
        obs, reward, done, _, _ = env.step(choose(obs["observation"], obs["action_mask"]))
        total += reward
    return total


def always_fold(_x: np.ndarray, mask: np.ndarray) -> int:
    """Fold where it may, else check, else bring in (the least a hand can cost)."""
    for action in (ActionIndex.FOLD, ActionIndex.CHECK, ActionIndex.BRING_IN):
        if mask[action]:
            return int(action)
    return int(np.flatnonzero(mask)[0])


def ci95(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    a = np.asarray(values)
    return float(a.mean()), 1.96 * float(a.std(ddof=1)) / math.sqrt(len(a))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--game", default="stud8", choices=["stud8", "stud", "razz"])
    parser.add_argument("--epsilon", type=float, default=0.3, help="exploration at the start")
    parser.add_argument("--window", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("train_vs_rule.png"))
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    envs = [StudGymEnv(game=args.game, players=2, opponents=("rule",), seat=s) for s in (0, 1)]
    layout = Layout(2)
    model = ActionValues(STATES, 11, rng)

    tail = args.hands - args.hands // 4  # the hands the verdict is measured on
    learner = Learner(model, layout)
    curves: dict[str, list[float]] = {"learner": [], "random": [], "always fold": [], "rule bot": []}
    for hand in range(args.hands):
        env, seed = envs[hand % 2], args.seed * 1_000_003 + hand
        learner.epsilon = max(args.epsilon * (1 - hand / (0.75 * args.hands)), 0.02)
        learner.counting = hand >= tail
        learner.steps = []
        result = play(env, learner, seed)
        model.learn(learner.steps, result)
        curves["learner"].append(result)
        # The same deal for the three references (the rule bot reads its seat's view, which the
        # environment's hand gives it; the learner sees only the observation).
        curves["random"].append(play(env, lambda _x, m: int(rng.choice(np.flatnonzero(m))), seed))
        curves["always fold"].append(play(env, always_fold, seed))
        curves["rule bot"].append(play(env, RuleSeat(env, RuleBot(seed=seed)), seed))

    w = args.window
    starts = range(0, args.hands - w + 1, w)
    rows = [[i + w] + [float(np.mean(c[i : i + w])) for c in curves.values()] for i in starts]
    for row in rows:
        figures = ", ".join(f"{k} {v:+.3f}" for k, v in zip(curves, row[1:], strict=True))
        print(f"hands {row[0]:>6}: {figures}")
    print(f"last {args.hands - tail} hands, big bets/hand ± 95% interval (the same deals):")
    for name, values in curves.items():
        mean, half = ci95(values[tail:])
        print(f"  {name:<12} {mean:+.3f} ± {half:.3f}")
    pairs = zip(curves["learner"][tail:], curves["always fold"][tail:], strict=True)
    diff, half = ci95([a - b for a, b in pairs])
    verdict = "beats" if diff - half > 0 else "does not beat"
    print(f"the learner {verdict} always folding: {diff:+.3f} ± {half:.3f} big bets/hand;")
    print(f"it folded at {learner.folds:,} of the {learner.may_fold:,} decisions where it might fold")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        path = args.out.with_suffix(".csv")
        with path.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["hands", *(k.replace(" ", "_") + "_bb_per_hand" for k in curves)])
            writer.writerows(rows)
        print(f"matplotlib is not installed (the rl-plot extra): the curve is in {path}")
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    styles = {"learner": "-", "random": ":", "always fold": "--", "rule bot": "-."}
    for k, name in enumerate(curves):
        ax.plot([r[0] for r in rows], [r[k + 1] for r in rows], styles[name], label=name)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("hands played")
    ax.set_ylabel(f"big bets per hand (mean of {w})")
    ax.set_title(f"{args.game}, heads-up against the rule bot")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"learning curve saved to {args.out}")


class RuleSeat:
    """The rule bot in the learner's seat, as a reference: it reads the seat's own view from the
    environment's hand (never more); the learner sees only the observation."""

    def __init__(self, env: StudGymEnv, bot: RuleBot) -> None:
        self.env, self.bot = env, bot

    def __call__(self, _x: np.ndarray, _mask: np.ndarray) -> int:
        hand = self.env._runner.hand
        action = self.bot.act(hand.view(self.env.seat))
        return next(int(i) for i, a in numbered(hand.legal_actions()).items() if a == action)


if __name__ == "__main__":
    main()
