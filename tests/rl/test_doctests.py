"""The examples in the rl modules' documentation run and give what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
pytest.importorskip("pyspiel", reason="the rl extra (open_spiel) is not installed")


@pytest.mark.parametrize("name", ["aec", "gym_env", "vector", "openspiel_game", "single"])
def test_the_modules_examples_pass(name: str) -> None:
    module = importlib.import_module(f"sevenstud.rl.{name}")
    result = doctest.testmod(module, verbose=False, report=True)
    assert result.attempted > 0 and result.failed == 0
