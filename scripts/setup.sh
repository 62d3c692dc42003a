#!/usr/bin/env bash
# Install what Ludoteca needs on a fresh Debian machine: system libraries (as root, only when
# missing), then the package itself, editable, with the app and test extras.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pkg in libcairo2 xvfb poppler-utils xdotool libgl1-mesa-dri libmtdev1 xsel; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if ((${#need[@]})); then
    if [ "$(id -u)" = 0 ]; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    else
        echo "setup: please install these Debian packages first: ${need[*]}" >&2
        exit 1
    fi
fi
python3 -m pip install -q --disable-pip-version-check -e ".[app,test]"
