#!/usr/bin/env bash
# Sets up, then runs the linter and the whole test suite (headless, against local servers).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check --no-cache .
# -n auto: one test process per core (the tests mostly wait on browsers and games); no
# pytest cache, ruff cache or Hypothesis database is left in the checkout.
# --durations: the slowest tests in the log, to keep the run well under 15 minutes.
.venv/bin/python -m pytest -p no:cacheprovider -n auto --durations=15 "$@"
