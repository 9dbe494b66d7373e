#!/usr/bin/env bash
# Installs the Debian packages parscope needs to build, test and run. Idempotent.
# Usage: scripts/install-deps.sh [--with-peers]
#   --with-peers  also install the peers used by benchmarks (NetPIPE, SimGrid), headless Chromium
#                 (the report's layout test, skipped without it) and gdb (a test that finds an MPI job
#                 stalled prints its processes' stacks)
set -euo pipefail

pkgs=(
  build-essential cmake pkg-config
  openmpi-bin libopenmpi-dev
  libhwloc-dev hwloc
  libjansson-dev libinih-dev
  libotf2-trace-dev otf2-tools
  help2man
  libcmocka-dev
  python3 jq bc iproute2 util-linux procps
)
if [ "${1:-}" = "--with-peers" ]; then
  pkgs+=(netpipe-openmpi libsimgrid-dev simgrid clang libclang-rt-14-dev valgrind afl++ mpich libmpich-dev chromium gdb)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
