"""Ray for ``simulate --ray`` and ``train --ray`` (:mod:`sevenstud.sim.cluster`): a local
instance started and stopped, a cluster joined, and what cannot be done told in one line. A
stand-in for Ray here, but for the addresses Ray itself refuses (no Ray started)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from sevenstud.cli import main
from sevenstud.sim.cluster import RayError, ray_address, ray_session


class FakeRay(SimpleNamespace):
    """Ray's few calls, noted."""

    def __init__(self, joined: bool = False, refuse: Exception | None = None) -> None:
        super().__init__(calls=[], joined=joined, refuse=refuse)

    def is_initialized(self) -> bool:
        return bool(self.joined)

    def init(self, **options: Any) -> None:
        self.calls.append(("init", options))
        if self.refuse is not None:
            raise self.refuse
        self.joined = True

    def shutdown(self) -> None:
        self.calls.append(("shutdown", {}))
        self.joined = False


def test_a_local_instance_is_started_with_the_cpus_asked_and_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    with ray_session(ray_address(True), 3) as ray:
        assert ray is fake and fake.calls == [
            ("init", {"num_cpus": 3, "include_dashboard": False, "log_to_driver": False})
        ]
    assert fake.calls[-1] == ("shutdown", {})


def test_a_cluster_is_joined_and_a_joined_ray_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    with ray_session(ray_address("auto")):
        assert fake.calls == [("init", {"address": "auto", "log_to_driver": False})]
    joined = FakeRay(joined=True)
    monkeypatch.setitem(sys.modules, "ray", joined)
    with ray_session(None, 2):
        pass
    assert joined.calls == []  # neither started nor stopped: the caller's


def test_ray_s_refusal_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        sys.modules, "ray", FakeRay(refuse=ConnectionError("Could not find any running Ray\nmore"))
    )
    with (
        pytest.raises(
            RayError, match=r"^--ray auto: cannot start or join Ray: Could not find any running Ray$"
        ),
        ray_session("auto"),
    ):
        pass


def commands(tmp_path: Path) -> list[list[str]]:
    """A short run of each command that takes ``--ray`` (writing only under ``tmp_path``)."""
    out = str(tmp_path / "p.json.gz")
    return [
        ["train", "--game", "kuhn", "--iterations", "2", "--out", out],
        ["simulate", "tight", "rule", "--no-luck", "--deals", "2", "--quiet"],
    ]


def test_a_missing_ray_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what an import of a package not installed finds
    for command in commands(tmp_path):
        assert main([*command, "--ray"]) != 0
        err = capsys.readouterr().err
        assert err == f"sevenstud {command[0]}: --ray needs Ray (pip install 'sevenstud[sim]')\n"


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("127.0.0.1:1", "--ray 127.0.0.1:1: no Ray cluster answers there (connection refused)"),
        ("nonsense", "--ray nonsense: cannot start or join Ray: Invalid address format: nonsense"),
    ],
)
def test_a_bad_address_is_one_line(
    address: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("this process has joined Ray already (the address would not be used)")
    for command in commands(tmp_path):
        assert main([*command, "--ray", address]) != 0
        err = capsys.readouterr().err
        assert err == f"sevenstud {command[0]}: {message}\n"
