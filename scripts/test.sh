#!/usr/bin/env bash
# The whole test suite, from a fresh machine: set up (scripts/setup.sh, the locked versions), then
# pytest in the project's .venv, spread over the cores (pytest-xdist; UI tests start their own
# Xvfb, one per worker). With arguments, one pytest run with them.
#
# Without arguments: ruff and mypy, then the suite in two parts, each in pytest processes of its
# own: the Kivy app changes process-wide state (signal dispositions, GL threads) that the print tests' forked render
# workers should not inherit. Every part runs even when an earlier one failed; each prints one
# summary line, then a total, and the exit code is non-zero if any part failed or ran no test.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit $?
PY=.venv/bin/python
WORKERS="${LUDOTECA_TEST_WORKERS:-$(nproc)}"
if (($#)); then
    exec "$PY" -m pytest -q -n "$WORKERS" --dist worksteal "$@"
fi

parts=("print kit, data, engine and scan" "companion app")
args=("--ignore-glob=tests/test_app_*" "tests/test_app_*.py")
summary=()
status=0
start=$SECONDS
# Lint and types first, under the rules pyproject.toml chooses ([tool.ruff], [tool.mypy]): a new
# finding fails the run as a failed test does.
if .venv/bin/ruff check --quiet . && .venv/bin/mypy; then
    summary+=("lint and types: ruff and mypy clean ($((SECONDS - start)) s)")
else
    status=1
    summary+=("lint and types: findings above (ruff check, mypy)")
fi
for i in "${!parts[@]}"; do
    log="$(mktemp)"
    part_start=$SECONDS
    # shellcheck disable=SC2086  # the app part's glob is expanded here on purpose
    "$PY" -m pytest -q -n "$WORKERS" --dist worksteal ${args[$i]} 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    line="$(grep -E '^[0-9]+ [a-z]+.* in [0-9.]+s' "$log" | tail -n 1)"
    rm -f "$log"
    if ((rc != 0)); then
        status=1
    fi
    summary+=("${parts[$i]}: ${line:-no summary line} (exit $rc, $((SECONDS - part_start)) s)")
done

echo
printf '%s\n' "${summary[@]}"
total() { printf '%s\n' "${summary[@]}" | grep -oE "[0-9]+ $1" | awk '{n += $1} END {print n + 0}'; }
echo "suite time: $((SECONDS - start)) s"
echo "total: $(total passed) passed, $(($(total failed) + $(total error))) failed, $(total skipped) skipped"
exit "$status"
