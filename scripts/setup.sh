#!/usr/bin/env bash
# Installs what Warpscope needs from Debian's packages. Idempotent: when everything is already
# installed it only checks (dpkg-query) and returns within a second; `apt-get update` runs only
# when something is missing. The CUDA toolkit is not a Debian package here: it is expected at
# /usr/local/cuda (or CUDA_HOME), and the build needs its host-only header cuda_occupancy.h (no GPU).
# clang, libclang-rt-dev (libFuzzer's runtime) and llvm (llvm-symbolizer) are for scripts/fuzz.sh.
set -euo pipefail

cuda_root="${CUDA_HOME:-/usr/local/cuda}"
if [[ ! -f "$cuda_root/include/cuda_occupancy.h" ]]; then
  echo "setup: $cuda_root/include/cuda_occupancy.h not found: install the CUDA toolkit there" \
       "(or set CUDA_HOME); Warpscope builds its occupancy calculator on that header" >&2
  exit 1
fi

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-svg-dev qt6-base-dev-tools
  libqcustomplot-dev libimgui-dev
  nlohmann-json3-dev libcli11-dev
  libgtest-dev libbenchmark-dev iwyu
  libgl-dev libgl1-mesa-dri libegl-mesa0 mesa-utils-bin
  xvfb xauth fonts-dejavu-core
  desktop-file-utils
  clang libclang-rt-dev llvm
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
