#!/usr/bin/env bash
# The system packages ModelLoop needs, installed from Debian's packages only when missing:
#   Java 17 (DynamoDB Local), ffmpeg/ffprobe (the local studio engine's video); for `test` also Chromium (browser tests)
#   and Info-ZIP unzip (the zip writer's tests check archives with a reader other than their own).
# Usage: scripts/system-deps.sh start|test
set -euo pipefail
missing=()
command -v java >/dev/null 2>&1 || missing+=(openjdk-17-jre-headless)
command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 || missing+=(ffmpeg)
if [ "${1:-start}" = "test" ]; then
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v unzip >/dev/null 2>&1 || missing+=(unzip)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ModelLoop needs these system packages: ${missing[*]}. Install them with your package manager and run the command again." >&2
  exit 1
fi
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
echo "Installing system packages from Debian: ${missing[*]}"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
