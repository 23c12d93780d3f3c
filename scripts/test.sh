#!/usr/bin/env bash
# Sets up, then runs the linter and the whole test suite (headless, against local servers).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check --no-cache .
.venv/bin/python -m pytest -p no:cacheprovider "$@"
