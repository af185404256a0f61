#!/usr/bin/env bash
# Fails when package-lock.json is not the complete lock: a resolution of package.json (as `npm install` would write
# it, every platform's optional packages included) must leave the committed lock unchanged, so that `npm ci` on a
# fresh clone installs exactly what was tested and the work tree stays clean.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(git hash-object package-lock.json)
npm install --package-lock-only --ignore-scripts --no-audit --no-fund >/dev/null
if [ "$(git hash-object package-lock.json)" != "$before" ]; then
  echo "package-lock.json is incomplete or out of date: an install rewrote it. Run 'npm install' and commit package-lock.json." >&2
  git --no-pager diff --stat -- package-lock.json >&2 || true
  exit 1
fi
echo "package-lock.json is complete: an install leaves it unchanged."
