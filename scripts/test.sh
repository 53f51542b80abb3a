#!/usr/bin/env bash
# Installs powts with its test dependencies in .venv and runs the whole suite.
# On SQLite by default; set DATABASE_URL=postgres://... to run it against PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[test]'
# npm ci when node_modules is missing or older than the lock file (a new package such as Leaflet or axe-core)
if command -v npm >/dev/null && { [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  npm ci --no-audit --no-fund --loglevel=error
fi
export POWTS_DATA_DIR="${POWTS_DATA_DIR:-$(mktemp -d)}"
exec .venv/bin/pytest "$@"
