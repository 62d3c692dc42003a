#!/usr/bin/env bash
# Set Ludoteca up in this checkout on a fresh Debian/Ubuntu machine: the system libraries it needs
# (as root, only when missing), then a project virtual environment in .venv with Ludoteca installed
# (editable, with the app and test extras, at the versions uv.lock holds). Works with a stock
# /usr/bin/python3 under PEP 668 as well as with pyenv or conda pythons: nothing is installed into
# the Python that runs this.
# Afterwards: .venv/bin/ludoteca ... (or `source .venv/bin/activate`, then ludoteca ...).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"

# cairo for the PDFs, poppler for the tests that read them back, Xvfb/Mesa/xdotool/xsel/mtdev for
# the Kivy app under a virtual screen, espeak-ng and sox for the caller's voice and its test.
need=()
for pkg in libcairo2 xvfb poppler-utils xdotool libgl1-mesa-dri libmtdev1 xsel espeak-ng sox; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
# A virtual environment needs venv and ensurepip, which Debian/Ubuntu package apart.
if [ ! -x .venv/bin/python ] && ! "$PYTHON" -c "import ensurepip, venv" 2>/dev/null; then
    version="$("$PYTHON" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    need+=(python3-venv "python${version}-venv")
fi
if ((${#need[@]})); then
    if [ "$(id -u)" = 0 ]; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    else
        echo "setup: please install these Debian packages first (sudo apt-get install ${need[*]})" >&2
        exit 1
    fi
fi

if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import sys" 2>/dev/null; then
    rm -rf .venv
    "$PYTHON" -m venv .venv
fi
# Every package at the exact version uv.lock holds (the versions the tests passed with): uv itself,
# at the version the lock names, is the one package pip installs; uv then syncs the environment
# from the lock without resolving anything anew (--frozen), and never downloads a Python.
export PIP_DISABLE_PIP_VERSION_CHECK=1 UV_PYTHON_DOWNLOADS=never UV_PROJECT_ENVIRONMENT=.venv
uv_version="$(sed -n '/^name = "uv"$/{n;s/^version = "\(.*\)"$/\1/p;}' uv.lock)"
if [ "$(.venv/bin/uv --version 2>/dev/null)" != "uv $uv_version" ]; then
    .venv/bin/python -m pip install -q "uv==$uv_version"
fi
# --compile-bytecode: the packages' modules compiled once here, as pip does on install; without it
# a process run under PYTHONDONTWRITEBYTECODE=1 compiles NumPy, OpenCV's and YAML's Python at every
# start (about 40 % of a `ludoteca scan`'s CPU, and of every test that starts a process).
.venv/bin/uv sync -q --frozen --inexact --extra app --extra test --compile-bytecode
# What a first build on a new machine would otherwise make (every template compiled, cairo's headers
# parsed), written into the checkout as the wheel's build writes it into the wheel: the folder
# generator/_prebuilt/ (gitignored; generator/prebuild.py), byte-compiled as an installer does.
.venv/bin/python -m ludoteca.generator.prebuild
.venv/bin/python -m compileall -q generator/_prebuilt
echo "setup: Ludoteca is installed in .venv; run it as .venv/bin/ludoteca (or activate .venv first)"
