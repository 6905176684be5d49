#!/bin/sh
# Installs PostgreSQL's server binaries (initdb, pg_ctl) where they are missing, so that the card
# room's tests can start a throwaway cluster of their own (tests/server/conftest.py). Debian's
# packages, through apt-get: run as root. Does nothing when the binaries are there already.
set -eu
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "tools/postgres.sh: PostgreSQL is missing and installing it needs root (apt-get)" >&2
    exit 1
fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
