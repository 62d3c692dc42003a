#!/usr/bin/env bash
# The whole test suite, from a fresh machine: set up (scripts/setup.sh), then pytest in the
# project's .venv (UI tests start their own Xvfb). With arguments, one pytest run with them.
# Without, the Kivy app tests run in a pytest process of their own: SDL changes process-wide
# state (signal dispositions, GL threads) that the print tests' forked render workers should
# not inherit.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
PY=.venv/bin/python
if (($#)); then
    exec "$PY" -m pytest -q "$@"
fi
"$PY" -m pytest -q --ignore-glob='tests/test_app_*'
exec "$PY" -m pytest -q tests/test_app_*.py
