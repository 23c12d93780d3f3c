#!/usr/bin/env bash
# Sets up, then runs the linter and the whole test suite (headless, against local servers).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check --no-cache .
# The scripts the bot runs in pages parse, each file on its own.
for script in webbot/page_scripts/*.js; do node --check "$script"; done
# The docs build with no warning (a broken link, a page out of the navigation), into a
# temporary folder; its log is shown only when it fails (--quiet would hide the warnings from
# --strict too).
site=$(mktemp -d)
trap 'rm -rf "$site"' EXIT
if ! .venv/bin/mkdocs build --strict --site-dir "$site/html" \
    > "$site/log" 2>&1; then
  grep -v "^INFO" "$site/log" >&2
  exit 1
fi
# One test process more than the machine has cores: many tests wait on a page or a deadline
# with a core idle, which the third process fills (measured on 2 cores, one commit, one run
# after the other: 660.55 s of pytest against 710.52 s with one process per core). No pytest
# cache, ruff cache or Hypothesis database is left in the checkout.
# --durations: the slowest tests in the log. (Handing tests out by work stealing, --dist
# worksteal, measured slower: 72% done at 13.5 minutes.)
.venv/bin/python -m pytest -p no:cacheprovider -n "$(( $(nproc) + 1 ))" --durations=15 "$@"
