#!/usr/bin/env bash
# Installs what CardTable needs to build and test, and only what is missing:
# Debian packages (C libraries, Chromium's headless shell, tmux, TypeScript's checker, valgrind
# for the counted benchmarks, binutils' readelf for the test of what the binary loads) and the
# Python test tools at the versions pinned in e2e/requirements.txt.
set -euo pipefail

APT_PACKAGES=(
  pkg-config
  libwebsockets-dev libuv1-dev zlib1g-dev
  libsqlite3-dev
  libpq-dev postgresql nginx
  libncurses-dev
  chromium-headless-shell tmux
  node-typescript
  valgrind
  binutils
)
REQUIREMENTS="$(dirname "$0")/../e2e/requirements.txt"
python=${PYTHON:-python3}
# NB: a fresh Debian has no pip for its Python (nor, in a minimal image, Python itself).
"$python" -m pip --version >/dev/null 2>&1 || APT_PACKAGES+=(python3-pip)

missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "install-deps: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# The pinned requirements that are not installed at their version.
pinned_missing=$("$python" - "$REQUIREMENTS" <<'EOF'
import sys
from importlib import metadata

for line in open(sys.argv[1], encoding="utf-8"):
    requirement = line.split("#")[0].strip()
    if not requirement:
        continue
    name, _, version = requirement.partition("==")
    try:
        if metadata.version(name) == version:
            continue
    except metadata.PackageNotFoundError:
        pass
    print(requirement)
EOF
)
py_missing=()
for requirement in $pinned_missing; do py_missing+=("$requirement"); done
if ((${#py_missing[@]})); then
  echo "install-deps: installing Python packages: ${py_missing[*]}"
  pip_flags=(--quiet --disable-pip-version-check)
  # NB: Debian's own Python refuses pip installs (PEP 668) unless told otherwise; these are
  # test tools for this machine, so they go next to the system's packages.
  if "$python" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then
    pip_flags+=(--break-system-packages)
  fi
  # NB: Playwright drives Debian's Chromium; its own browser download is never used.
  "$python" -m pip install "${pip_flags[@]}" "${py_missing[@]}"
fi
