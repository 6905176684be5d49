"""Stud for the reinforcement-learning libraries (docs/rl.md): a PettingZoo AEC environment
(:mod:`sevenstud.rl.aec`), a plain one-table environment (:mod:`sevenstud.rl.single`), a
Gymnasium single-agent environment with bots in the other seats (:mod:`sevenstud.rl.gym_env`),
a vectorised environment (:mod:`sevenstud.rl.vector`) and an OpenSpiel game
(:mod:`sevenstud.rl.openspiel_game`).

This package needs the ``rl`` extra (numpy, pettingzoo, gymnasium, open_spiel); the engine never
imports it. Each environment drives the engine's :class:`~sevenstud.hand.Hand` and builds every
observation from the seat's own redacted view (:mod:`sevenstud.rl.encoding`), except where
nobody can be all-in: there the vectorised environment's batched engine
(:mod:`sevenstud.rl.batched`) plays the rules as numpy array operations, and the PettingZoo and
plain environments' lean engine (:mod:`sevenstud.rl.lean`) plays them in plain Python, each
checked against ``Hand`` step by step (tests/rl/test_batched.py, tests/rl/test_lean.py).
"""
