#!/usr/bin/env bash
# Installs what Warpscope needs from Debian's packages. Idempotent: when everything is already
# installed it only checks (dpkg-query) and returns within a second; `apt-get update` runs only
# when something is missing. The CUDA toolkit is not a Debian package here: it is expected at
# /usr/local/cuda (or CUDA_HOME), and the build needs its host-only header cuda_occupancy.h (no GPU).
# clang, libclang-rt-dev (libFuzzer's runtime) and llvm (llvm-symbolizer) are for scripts/fuzz.sh.
# nvdisasm (the SASS beside the PTX) is the toolkit's own where it has one, else NVIDIA's PyPI package
# of it, unpacked into a folder of Warpscope's own (see ensure_nvdisasm below).
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

# nvdisasm, for the SASS view (issue 29): the toolkit's, one on PATH, or the one this script put in
# Warpscope's own folder, where the app looks for it after CUDA_HOME/bin and PATH. Otherwise NVIDIA's
# PyPI package nvidia-cuda-nvdisasm (the toolkit's own build, of the toolkit's major version) is
# downloaded with pip and unpacked there: no Python environment is changed, and nothing else comes
# with it (--no-deps). Without network it warns and goes on: everything but the SASS works,
# and the SASS tests skip saying why.
nvdisasm_home="${XDG_DATA_HOME:-$HOME/.local/share}/warpscope/nvdisasm"
nvdisasm_found() {
  [[ -x "$cuda_root/bin/nvdisasm" ]] || command -v nvdisasm >/dev/null 2>&1 ||
    "$nvdisasm_home/bin/nvdisasm" --version >/dev/null 2>&1
}

ensure_nvdisasm() {
  if nvdisasm_found; then
    echo "setup: nvdisasm present"
    return 0
  fi
  local major staging binary
  major=$("$cuda_root/bin/ptxas" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9]*\)\..*/\1/p' | head -n 1 || true)
  major="${major:-13}"
  staging="$nvdisasm_home.partial.$$"
  rm -rf "$staging"
  echo "setup: installing nvdisasm (nvidia-cuda-nvdisasm==$major.* from PyPI) into $nvdisasm_home"
  # pip only downloads the wheel (no environment is touched, so no PEP 668 refusal); Python's own
  # zipfile unpacks it, and the executable bit a zip does not keep is set again.
  if python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
       --timeout 30 --retries 2 --dest "$staging/wheel" "nvidia-cuda-nvdisasm==$major.*" &&
     python3 -m zipfile -e "$(find "$staging/wheel" -name '*.whl' | head -n 1)" "$staging" &&
     binary=$(find "$staging" -path '*/bin/nvdisasm' -type f | head -n 1) && [[ -n "$binary" ]] &&
     chmod +x "$binary" && "$binary" --version >/dev/null; then
    rm -rf "$staging/wheel"
    mkdir -p "$staging/bin"
    ln -sf "../${binary#"$staging"/}" "$staging/bin/nvdisasm"
    rm -rf "$nvdisasm_home"
    mv "$staging" "$nvdisasm_home"
    echo "setup: nvdisasm: $nvdisasm_home/bin/nvdisasm ($("$nvdisasm_home/bin/nvdisasm" --version | grep -o "release.*" || true))"
  else
    rm -rf "$staging"
    echo "setup: warning: could not install nvdisasm from PyPI (no network, or no pip): the SASS view says" \
         "how to get it, and its tests skip; run scripts/setup.sh again with network" >&2
  fi
}

# pip unpacks the nvdisasm package; Debian's python3-pip where there is no pip yet.
if ! nvdisasm_found && ! python3 -m pip --version >/dev/null 2>&1; then
  PACKAGES+=(python3-pip)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  echo "setup: done"
fi
ensure_nvdisasm
