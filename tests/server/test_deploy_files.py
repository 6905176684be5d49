"""The files docs/deploy.md installs (deploy/): the systemd unit passes ``systemd-analyze
verify`` and its command line is one ``sevenstud serve`` accepts with the settings of
deploy/sevenstud.env; the nginx site passes ``nginx -t``; the Caddyfile passes ``caddy
validate``. Each check that needs a tool skips, naming it, where the tool is missing (the Caddy
file is also run for real by test_deploy_caddy.py)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sevenstud.cli import build_parser

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNIT = DEPLOY / "sevenstud.service"
INSTALLED = "/opt/sevenstud/venv/bin/sevenstud"
"""Where docs/deploy.md installs the command (the unit's ExecStart)."""


def _tool(name: str) -> str:
    found = shutil.which(name) or next(
        (p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.path.exists(p)), None
    )
    if found is None:
        pytest.skip(f"{name} is not installed here: the check of deploy/ that needs it is skipped")
    return found


def _exec_start() -> str:
    """The unit's ExecStart, its continued lines joined."""
    text = UNIT.read_text().replace("\\\n", " ")
    found = re.search(r"^ExecStart=(.*)$", text, re.MULTILINE)
    assert found, "deploy/sevenstud.service has no ExecStart"
    return found.group(1)


def _settings() -> dict[str, str]:
    lines = (DEPLOY / "sevenstud.env").read_text().splitlines()
    pairs = (line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))
    return {name.strip(): value.strip() for name, value in pairs}


def test_the_units_command_is_one_sevenstud_serve_accepts() -> None:
    settings = _settings()
    words = shlex.split(_exec_start())
    assert words[0] == INSTALLED
    given: list[str] = []
    for word in words[1:]:
        if word.startswith("$") and not word.startswith("${"):
            given += settings[word[1:]].split()  # systemd splits an unbraced $NAME at spaces
        else:
            given.append(re.sub(r"\$\{(\w+)\}", lambda m: settings[m.group(1)], word))
    options = build_parser().parse_args(given)
    assert options.command == "serve"
    assert options.host == "127.0.0.1"  # only the proxy reaches it
    assert options.trusted_proxy == ["127.0.0.1"]
    assert options.public_url.startswith("https://")


def test_the_systemd_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = _tool("systemd-analyze")
    # verify checks that ExecStart's program exists: this machine's sevenstud stands in for
    # the one docs/deploy.md installs under /opt.
    here = shutil.which("sevenstud") or str(Path(sys.executable).with_name("sevenstud"))
    assert os.access(here, os.X_OK), f"no sevenstud command to stand in for {INSTALLED}"
    unit = tmp_path / "sevenstud.service"
    unit.write_text(UNIT.read_text().replace(INSTALLED, here))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "sevenstud.service" not in done.stderr, done.stderr  # no warning about the unit either


def test_the_nginx_site_passes_nginx_t(tmp_path: Path) -> None:
    nginx = _tool("nginx")
    openssl = _tool("openssl")
    # A throwaway certificate where the site names certbot's (nginx -t loads them).
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=cards.example.org", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    site = (DEPLOY / "nginx.conf").read_text()
    live = "/etc/letsencrypt/live/cards.example.org/"
    assert f"{live}fullchain.pem" in site and f"{live}privkey.pem" in site
    site = site.replace(f"{live}fullchain.pem", str(cert)).replace(f"{live}privkey.pem", str(key))
    (tmp_path / "site.conf").write_text(site)
    main = tmp_path / "nginx.conf"
    main.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
        f"http {{\n\taccess_log off;\n\tinclude {tmp_path}/site.conf;\n}}\n"
    )
    done = subprocess.run(
        [nginx, "-t", "-e", "stderr", "-p", str(tmp_path), "-c", str(main)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[warn]" not in done.stderr, done.stderr


def test_the_caddyfile_passes_caddy_validate(tmp_path: Path) -> None:
    caddy = _tool("caddy")
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}  # fmt: skip
    done = subprocess.run(
        [caddy, "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"level":"warn"' not in done.stderr, done.stderr  # e.g. a file caddy fmt would change


@pytest.mark.parametrize("name", ["sevenstud.service", "sevenstud.env", "Caddyfile", "nginx.conf"])
def test_the_deployment_page_shows_each_file_as_shipped(name: str) -> None:
    """docs/deploy.md prints each file whole, so a reader copying from the page installs what
    the tests check."""
    page = (DEPLOY.parent / "docs" / "deploy.md").read_text()
    assert (DEPLOY / name).read_text().rstrip("\n") in page, f"docs/deploy.md no longer shows deploy/{name}"
