#!/bin/sh
# Installs Debian's chromium where it is missing, for the browser tests (tests/web/): Playwright
# drives it through its executable path and never downloads a browser of its own. apt-get: run
# as root. Does nothing when a chromium is there already.
set -eu
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "tools/chromium.sh: chromium is missing and installing it needs root (apt-get)" >&2
    exit 1
fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
