"""Train a small policy against the rule bot and plot its learning curve (issue 17, point 4).

A linear softmax policy over the observation tensor (docs/rl.md), masked to the legal actions,
trained by REINFORCE with a running-mean baseline: plain numpy, no deep-learning library. It
plays heads-up Stud Hi/Lo (or ``--game``) in :class:`sevenstud.rl.gym_env.StudGymEnv`, the
rule bot in the other seat, and the learner's seat alternates hand by hand (the env is made
for seat 0 and seat 1). The curve is the learner's result in big bets a hand, averaged over
windows of hands, beside the same average for a uniform random policy against the same bot.

    .venv/bin/python examples/train_vs_rule.py [--hands 4000] [--game stud8] [--out curve.png]

The PNG needs matplotlib (``pip install -e '.[rl-plot]'``); without it the curve is written
as CSV beside where the PNG would go, and the script says so.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np

from sevenstud.rl.gym_env import StudGymEnv


class LinearPolicy:
    """Softmax over ``W @ x + b``, the illegal actions masked out."""

    def __init__(self, features: int, actions: int, rng: np.random.Generator) -> None:
        self.w = rng.normal(0.0, 0.01, (actions, features)).astype(np.float64)
        self.b = np.zeros(actions)
        self.rng = rng

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ x + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def sample(self, x: np.ndarray, mask: np.ndarray) -> tuple[int, np.ndarray]:
        p = self.probabilities(x, mask)
        return int(self.rng.choice(len(p), p=p)), p


def play(env: StudGymEnv, policy: LinearPolicy | None, rng: np.random.Generator, seed: int) -> tuple[
    float, list[tuple[np.ndarray, int, np.ndarray]]
]:
    """One hand: the learner's result and its decisions (observation, action, probabilities)."""
    obs, info = env.reset(seed=seed)
    total = float(info["carried_reward"])
    steps = []
    done = False
    while not done:
        x, mask = obs["observation"].astype(np.float64), obs["action_mask"]
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            action, p = policy.sample(x, mask)
            steps.append((x, action, p))
        obs, reward, done, _, _ = env.step(action)
        total += reward
    return total, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--game", default="stud8", choices=["stud8", "stud", "razz"])
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--window", type=int, default=250)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("train_vs_rule.png"))
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    envs = [StudGymEnv(game=args.game, players=2, opponents=("rule",), seat=s) for s in (0, 1)]
    policy = LinearPolicy(envs[0].observation_space["observation"].shape[0], 11, rng)
    baseline = 0.0
    learned, randoms = [], []
    for hand in range(args.hands):
        env = envs[hand % 2]
        result, steps = play(env, policy, rng, seed=args.seed * 1_000_003 + hand)
        advantage = result - baseline
        baseline += 0.01 * (result - baseline)
        for x, action, p in steps:  # the gradient of log p(action): onehot - p, times x
            grad = -p
            grad[action] += 1.0
            policy.w += args.lr * advantage * np.outer(grad, x)
            policy.b += args.lr * advantage * grad
        learned.append(result)
        # The same deal for a random policy, for a reference line.
        randoms.append(play(env, None, rng, seed=args.seed * 1_000_003 + hand)[0])

    w = args.window
    windows = range(0, args.hands - w + 1, w)
    curve = [(i + w, float(np.mean(learned[i : i + w])), float(np.mean(randoms[i : i + w]))) for i in windows]
    for hands, mine, rand in curve:
        print(f"hands {hands:>6}: learner {mine:+.3f} big bets/hand, random policy {rand:+.3f}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        path = args.out.with_suffix(".csv")
        with path.open("w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["hands", "learner_bb_per_hand", "random_bb_per_hand"])
            writer.writerows(curve)
        print(f"matplotlib is not installed (the rl-plot extra): the curve is in {path}")
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([c[0] for c in curve], [c[1] for c in curve], label="linear policy (REINFORCE)")
    ax.plot([c[0] for c in curve], [c[2] for c in curve], label="random policy", linestyle="--")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("hands played")
    ax.set_ylabel(f"big bets per hand (mean of {w})")
    ax.set_title(f"{args.game}, heads-up against the rule bot")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"learning curve saved to {args.out}")


if __name__ == "__main__":
    main()
