#!/usr/bin/env bash
# Installs what CardTable needs to build and test, and only what is missing:
# Debian packages (C libraries, Chromium, tmux) and the Python test tools.
set -euo pipefail

APT_PACKAGES=(
  pkg-config
  libwebsockets-dev libuv1-dev
  libsqlite3-dev
  libncurses-dev
  chromium tmux
)
PY_PACKAGES=(pytest playwright websockets)

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

python=${PYTHON:-python3}
py_missing=()
for package in "${PY_PACKAGES[@]}"; do
  "$python" -c "import ${package}" 2>/dev/null || py_missing+=("$package")
done
if ((${#py_missing[@]})); then
  echo "install-deps: installing Python packages: ${py_missing[*]}"
  # NB: Playwright drives Debian's Chromium; its own browser download is never used.
  "$python" -m pip install --quiet --disable-pip-version-check "${py_missing[@]}"
fi
