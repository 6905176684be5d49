#!/bin/sh
# Installs Debian's caddy where it is missing, for the deployment test
# (tests/server/test_deploy_caddy.py): the card room behind Caddy on loopback with `tls internal`,
# as docs/deploy.md sets it up. apt-get: run as root. Does nothing when a caddy is there already.
# The package's own service is not started here (the test runs `caddy run` on free ports).
set -eu
if command -v caddy >/dev/null 2>&1 || [ -x /usr/bin/caddy ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "tools/caddy.sh: caddy is missing and installing it needs root (apt-get)" >&2
    exit 1
fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y caddy
