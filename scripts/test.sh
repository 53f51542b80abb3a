#!/usr/bin/env bash
# Installs powts with its test dependencies in .venv and runs the whole suite, one test worker per core
# (pytest-xdist, each worker on its own database), then the tests marked `serial` alone.
# On SQLite by default; set DATABASE_URL=postgres://... to run it against PostgreSQL.
# POWTS_TEST_MARKS="not browser" (a pytest -m expression) narrows both passes; other arguments go to pytest.
# --install-only: install, and run nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[test]'
# npm ci when node_modules is missing or older than the lock file (a new package such as Leaflet or axe-core)
if command -v npm >/dev/null && { [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  npm ci --no-audit --no-fund --loglevel=error
fi
if [ "${1:-}" = "--install-only" ]; then exit 0; fi
export POWTS_DATA_DIR="${POWTS_DATA_DIR:-$(mktemp -d)}"
# pytest keeps its rewritten test modules as bytecode: a second run (or the PostgreSQL pass after SQLite's, or the
# second test worker) collects in half the time. Some shells set this off for every program.
unset PYTHONDONTWRITEBYTECODE
marks() { if [ -n "${POWTS_TEST_MARKS:-}" ]; then echo "($POWTS_TEST_MARKS) and $1"; else echo "$1"; fi; }
status=0
.venv/bin/pytest -n "${POWTS_TEST_WORKERS:-$(nproc)}" --dist load -m "$(marks 'not serial')" "$@" || status=$?
# The tests marked serial (none today; the mark says why each needs the machine to itself), alone. Exit code 5 is
# "no test selected": a narrowed run may hold none of them, and that is not a failure.
if grep -rqE "mark\.serial\b" --include='*.py' powts tests; then
  .venv/bin/pytest -p no:xdist -m "$(marks serial)" "$@" || { code=$?; [ "$code" -eq 5 ] || status=$code; }
fi
exit "$status"
