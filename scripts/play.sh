#!/usr/bin/env bash
# Sets up, then runs the main job on the bundled games (served on 127.0.0.1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# A self-check of the whole chain (server, Chromium, screenshots, Tesseract), then each game.
.venv/bin/webbot check "$@"
for game in $(.venv/bin/webbot games); do
  .venv/bin/webbot "$game" "$@"
done
