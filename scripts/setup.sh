#!/usr/bin/env bash
# Sets up webbot on a Debian machine: system packages (as root, or through sudo), then a
# virtual environment in .venv with the package and its test tools. Quick when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."

# chromium: the browser Playwright drives (never `playwright install`: it downloads one);
# chromium-headless-shell: Debian's build of it for headless runs (it starts on a third of
# the CPU; webbot.browser.find_chromium);
# tesseract-ocr: digit and text reading; fonts-dejavu-core and fonts-liberation: the replicas'
# sans-serif fonts (Liberation Sans has Arial's metrics, the font of the real Puzlogic);
# xvfb: a virtual display, for --headed on a machine without a screen (xvfb-run);
# nodejs: the tests run the replica's level generator (fixtures/puzlogic/generator.js) in node;
# npm: installs the consent engine (DuckDuckGo's autoconsent) from the npm registry.
apt_packages=(chromium chromium-headless-shell tesseract-ocr fonts-dejavu-core fonts-liberation xvfb)
command -v node >/dev/null || apt_packages+=(nodejs)
command -v npm >/dev/null || apt_packages+=(npm)
python3 -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null || apt_packages+=(python3)
python3 -c 'import ensurepip, venv' 2>/dev/null || apt_packages+=(python3-venv)

missing=()
for package in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

stamp=.venv/.webbot-installed
wanted=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "setup: installing webbot into .venv"
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[test,soak,gym]'
  echo "$wanted" > "$stamp"
fi

# Gymnasium 1.x loads no plugins: a .pth in the environment has webbot's environments registered
# when Gymnasium is imported (webbot/gym_hook.py), so gymnasium.make("webbot/Puzlogic-v0") works
# without importing webbot.gym first.
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
[ "$(cat "$site/webbot-gym.pth" 2>/dev/null)" = "import webbot.gym_hook" ] \
  || echo "import webbot.gym_hook" > "$site/webbot-gym.pth"

# The consent engine at the version pinned in webbot/consent/package-lock.json (npm ci: exactly
# the lock file's packages; never copied into the repository).
consent=webbot/consent
consent_wanted=$(sha256sum "$consent/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$consent/node_modules/.webbot-installed" 2>/dev/null)" != "$consent_wanted" ]; then
  echo "setup: installing the consent engine (npm ci in $consent)"
  npm ci --prefix "$consent" --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
  echo "$consent_wanted" > "$consent/node_modules/.webbot-installed"
fi
