#!/usr/bin/env bash
# The whole test suite, from a fresh machine: set up, then pytest (UI tests start their own Xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec python3 -m pytest -q "$@"
