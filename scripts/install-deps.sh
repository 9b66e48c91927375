#!/usr/bin/env bash
# Installs sbcc's build and test dependencies from Debian's archive.
# Idempotent; run as root (or with sudo) on Debian 12.
set -euo pipefail

packages=(
  meson ninja-build g++ pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-mako
  libdrm-dev zlib1g-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
