#!/usr/bin/env bash
# Installs powts in .venv, loads a demo Dane County on the embedded SQLite database and serves it
# at http://127.0.0.1:8000 (sign in as "staff", password "powts-demo-county").
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e .
if command -v npm >/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error   # USWDS, htmx, Chart.js (package-lock.json)
else
  echo "npm not found: pages will work but without the USWDS look (apt-get install npm)" >&2
fi
.venv/bin/powts demo --jurisdiction dane --systems "${POWTS_DEMO_SYSTEMS:-5000}"
exec .venv/bin/powts serve --host 127.0.0.1 --port "${POWTS_PORT:-8000}"
