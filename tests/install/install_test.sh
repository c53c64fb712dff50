#!/usr/bin/env bash
# Installs the build into a temporary prefix and runs the installed warpscope from a folder outside
# the source and build trees, as a desktop launcher would (Exec=warpscope on PATH):
#   the FHS layout, the menu entry and its icon, the lessons and recorded sessions as the installed
#   binary reads them, the RPATHs to the CUDA toolkit's libraries, the probe found beside warpscope,
#   a kernel that includes <cstdio>, <cmath> and <cstdint> simulated, and the window rendered
#   offscreen to a PNG.
# install_test.sh CMAKE BUILD_DIR SOURCE_DIR VERSION PROBE_BUILT(ON|OFF) CUPTI_LIBRARY_DIR NVRTC_LIBRARY_DIR PNG_ICONS(ON|OFF)
# (a library folder is "none" when there is no RPATH to check: no probe, or NVRTC in a system folder)
set -euo pipefail

if (($# != 8)); then
  echo "usage: install_test.sh CMAKE BUILD_DIR SOURCE_DIR VERSION PROBE_BUILT CUPTI_LIBRARY_DIR NVRTC_LIBRARY_DIR PNG_ICONS" >&2
  exit 2
fi
cmake_command=$1 build_dir=$(realpath "$2") source_dir=$(realpath "$3") version=$4
probe_built=$5 cupti_dir=$6 nvrtc_dir=$7 png_icons=$8

work=$(mktemp -d "${TMPDIR:-/tmp}/warpscope-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

case "$work/" in
  "$source_dir"/* | "$build_dir"/*) echo "the temporary folder $work is inside the source or build tree" >&2; exit 1 ;;
esac

# 1. cmake --install into the prefix.
if ! "$cmake_command" --install "$build_dir" --prefix "$prefix" >"$work/install.log" 2>&1; then
  cat "$work/install.log" >&2
  echo "FAIL: cmake --install $build_dir --prefix $prefix" >&2
  exit 1
fi
pass "cmake --install into $prefix ($(grep -c '^-- Installing' "$work/install.log") files)"

# 2. The files, where GNUInstallDirs puts them.
expect_executable() { if [[ -f "$prefix/$1" && -x "$prefix/$1" ]]; then pass "$1"; else fail "$1 is missing or not executable"; fi; }
expect_same() { # installed path, source file
  if [[ ! -f "$prefix/$1" ]]; then fail "$1 is missing"
  elif ! cmp -s "$prefix/$1" "$2"; then fail "$1 differs from ${2#"$source_dir"/}"
  else pass "$1"; fi
}
expect_executable bin/warpscope
if [[ $probe_built == ON ]]; then expect_executable bin/warpscope-probe; fi
expect_same share/applications/warpscope.desktop "$source_dir/assets/desktop/warpscope.desktop"
expect_same share/mime/packages/warpscope.xml "$source_dir/assets/desktop/warpscope-mime.xml"
# The menu entry opens links and sessions: it takes a URL and claims the scheme and the file type.
desktop=$prefix/share/applications/warpscope.desktop
if grep -qx 'Exec=warpscope %u' "$desktop" && grep -q '^MimeType=.*x-scheme-handler/warpscope;' "$desktop" &&
   grep -q '^MimeType=.*application/x-warpscope-session;' "$desktop"; then
  pass "warpscope.desktop opens warpscope: links and .wsprof sessions"
else
  fail "warpscope.desktop does not register the warpscope: scheme and the session type with Exec=warpscope %u"
fi
if grep -q 'mime-type type="application/x-warpscope-session"' "$prefix/share/mime/packages/warpscope.xml" &&
   grep -q 'glob pattern="\*.wsprof"' "$prefix/share/mime/packages/warpscope.xml"; then
  pass "warpscope.xml defines application/x-warpscope-session for *.wsprof"
else
  fail "share/mime/packages/warpscope.xml does not define the session type"
fi
expect_same share/icons/hicolor/scalable/apps/warpscope.svg "$source_dir/assets/icons/warpscope.svg"
expect_same share/doc/warpscope/README.md "$source_dir/README.md"

png_size() { # prints WIDTHxHEIGHT from a PNG's IHDR, or nothing when it is not a PNG
  [[ $(head -c 8 "$1" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || return 0
  local header
  header=$(od -An -tu1 -j16 -N8 "$1")
  read -r w1 w2 w3 w4 h1 h2 h3 h4 <<<"$header"
  echo "$(((w1 << 24) | (w2 << 16) | (w3 << 8) | w4))x$(((h1 << 24) | (h2 << 16) | (h3 << 8) | h4))"
}
if [[ $png_icons == ON ]]; then
  for size in 16 24 32 48 64 128 256; do
    icon=share/icons/hicolor/${size}x${size}/apps/warpscope.png
    if [[ ! -f "$prefix/$icon" ]]; then fail "$icon is missing"
    elif [[ $(png_size "$prefix/$icon") != "${size}x${size}" ]]; then fail "$icon is not a ${size}x${size} PNG ($(png_size "$prefix/$icon"))"
    else pass "$icon"; fi
  done
fi

# Every lesson and every recorded session, byte for byte.
lesson_count=0
for lesson in "$source_dir"/assets/lessons/*.md; do
  expect_same "share/warpscope/lessons/$(basename "$lesson")" "$lesson" >/dev/null
  lesson_count=$((lesson_count + 1))
done
recorded_count=0
while IFS= read -r -d '' recorded; do
  expect_same "share/warpscope/recorded/${recorded#"$source_dir/assets/recorded/"}" "$recorded" >/dev/null
  recorded_count=$((recorded_count + 1))
done < <(find "$source_dir/assets/recorded" -type f -print0)
pass "share/warpscope/lessons ($lesson_count files) and share/warpscope/recorded ($recorded_count files) checked"

# 3. The menu entry: what it runs and shows is what was installed.
desktop=$prefix/share/applications/warpscope.desktop
desktop_value() { sed -n "s/^$1=//p" "$desktop" | head -n 1; }
exec_name=$(desktop_value Exec | awk '{print $1}')
if [[ $exec_name == warpscope && -x $prefix/bin/$exec_name ]]; then pass "Exec=$exec_name is bin/$exec_name"
else fail "the desktop file's Exec runs '$exec_name', not the installed bin/warpscope"; fi
icon_name=$(desktop_value Icon)
if [[ -f $prefix/share/icons/hicolor/scalable/apps/$icon_name.svg ]]; then pass "Icon=$icon_name is installed"
else fail "the desktop file's Icon '$icon_name' is not in share/icons/hicolor/scalable/apps"; fi
[[ $(desktop_value Terminal) == false ]] || fail "the desktop file should say Terminal=false"
[[ $(desktop_value Categories) == *Education\;* && $(desktop_value Categories) == *Development\;* ]] ||
  fail "the desktop file's Categories should hold Education and Development"
if command -v desktop-file-validate >/dev/null; then
  if desktop-file-validate "$desktop" >"$work/validate.log" 2>&1; then pass "desktop-file-validate"
  else cat "$work/validate.log" >&2; fail "desktop-file-validate refused the desktop file"; fi
else
  echo "note: desktop-file-validate not found (desktop-file-utils, scripts/setup.sh installs it): not validated"
fi

# 4. The toolkit's libraries stay reachable from the installed binaries: the RPATHs name the CUDA
# library folders and nothing of the build tree.
if ! command -v readelf >/dev/null; then
  echo "note: readelf not found (binutils): RPATHs not checked"
else
  check_rpath() { # binary, tag (RPATH or RUNPATH), folder it must hold
    local line
    line=$(readelf -d "$prefix/bin/$1" | grep "($2)" || true)
    if [[ $line != *"$3"* ]]; then fail "bin/$1's $2 does not hold $3: ${line:-none}"
    elif [[ $line == *"$build_dir"* || $line == *"$source_dir"* ]]; then fail "bin/$1's $2 points into the build: $line"
    else pass "bin/$1 $2 ${line##*: }"; fi
  }
  if [[ $nvrtc_dir != none ]]; then check_rpath warpscope RUNPATH "$nvrtc_dir"; fi
  # RPATH, not RUNPATH: CUPTI's own dlopen of libnvperf_host/target must see it too.
  if [[ $probe_built == ON ]]; then check_rpath warpscope-probe RPATH "$cupti_dir"; fi
fi

# 5. Run it as the launcher does, away from both trees, with a fresh home and no overrides.
mkdir -p "$work/run" "$work/home"
cd "$work/run"
unset WARPSCOPE_LESSONS_DIR WARPSCOPE_RECORDED_DIR WARPSCOPE_PROBE LD_LIBRARY_PATH
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_CACHE_HOME=$work/home/.cache
export XDG_DATA_HOME=$work/home/.local/share XDG_RUNTIME_DIR=$work/home/runtime QT_QPA_PLATFORM=offscreen
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
export PATH="$prefix/bin:$PATH"
[[ $(command -v warpscope) == "$prefix/bin/warpscope" ]] || fail "warpscope on PATH is $(command -v warpscope)"

reported=$(warpscope --version 2>&1) || fail "warpscope --version exited $?"
if [[ $reported == "$version" ]]; then pass "warpscope --version: $reported"; else fail "warpscope --version printed '$reported', expected $version"; fi

if warpscope screenshot --out shot.png --size 1280x800 >"$work/shot.log" 2>&1; then
  dimensions=$(png_size shot.png)
  bytes=$(stat -c %s shot.png)
  # A window with text and figures compresses to well over 20 kB; an empty 1280x800 frame to ~4 kB.
  if [[ $dimensions != 1280x800 ]]; then fail "the screenshot is '$dimensions', not a 1280x800 PNG"
  elif ((bytes < 20000)); then fail "the screenshot holds only $bytes bytes: a blank window?"
  else pass "warpscope screenshot from $PWD: $dimensions, $bytes bytes"; fi
else
  cat "$work/shot.log" >&2
  fail "warpscope screenshot exited non-zero"
fi

# The installed lessons folder is one the app reads (WARPSCOPE_LESSONS_DIR for edited lessons): an
# unknown lesson is refused naming every lesson found there, which must be every lesson shipped.
expected_ids=$(for lesson in "$source_dir"/assets/lessons/[0-9]*-*.md; do basename "$lesson" .md | sed 's/^[0-9]*-//'; done | sort | paste -sd' ')
refusal=$(WARPSCOPE_LESSONS_DIR=$prefix/share/warpscope/lessons warpscope screenshot --out unused.png --lesson no-such-lesson 2>&1 || true)
listed_ids=$(sed -n 's/.*(allowed: \(.*\))$/\1/p' <<<"$refusal" | tr -d ',' | tr ' ' '\n' | sed '/^$/d' | sort | paste -sd' ')
if [[ -n $expected_ids && $listed_ids == "$expected_ids" ]]; then pass "the installed lessons load: $listed_ids"
else fail "the installed lessons folder gave '$listed_ids', expected '$expected_ids' ($refusal)"; fi

# The installed recorded sessions open.
while IFS= read -r -d '' session; do
  if ! warpscope session show "$session" >"$work/show.log" 2>&1; then
    cat "$work/show.log" >&2
    fail "warpscope session show ${session#"$prefix"/} exited non-zero"
  fi
done < <(find "$prefix/share/warpscope/recorded" -name '*.wsprof' -print0)
pass "warpscope session show opens every installed recorded session"

# A kernel that starts as nvcc kernels do compiles and runs: the library headers NVRTC lacks are
# built into the binary (core/ptx/nvrtc_std_headers.h), with no file to find at run time.
cat >library.cu <<'EOF'
#include <cstdio>
#include <cmath>
#include <cstdint>
extern "C" __global__ void root(float* out)
{
    std::uint64_t wide = 1ull << 40;
    out[0] = std::sqrt(2.25f) + (float)(wide >> 40);
    printf("root %.1f\n", out[0]);
}
EOF
if sim_output=$(warpscope sim library.cu --grid 1 --block 1 --arg 'out=f32[1]' 2>&1) &&
   [[ $sim_output == *"thread 0,0,0: root 2.5"* ]]; then
  pass "warpscope sim compiles a kernel that includes <cstdio>, <cmath> and <cstdint>"
else
  fail "warpscope sim of a kernel including <cstdio>, <cmath>, <cstdint>: $sim_output"
fi

# The probe is looked for beside the executable: the installed warpscope runs the installed probe,
# which answers an unknown kernel itself (exit 2) before touching any GPU.
answer=$(warpscope profile no_such_kernel 2>&1) && status=0 || status=$?
if [[ $probe_built == ON ]]; then
  if [[ $status == 2 && $answer == warpscope-probe:*no_such_kernel* ]]; then pass "warpscope profile ran the installed probe"
  else fail "warpscope profile did not reach the installed probe (exit $status): $answer"; fi
  probe_version=$(warpscope-probe --version 2>&1) || fail "warpscope-probe --version exited non-zero: $probe_version"
  [[ $probe_version == "warpscope-probe $version"* ]] && pass "$probe_version" || fail "warpscope-probe --version printed '$probe_version'"
else
  [[ $answer == *"$prefix/bin/warpscope-probe"* ]] && pass "warpscope profile looks for the probe in $prefix/bin" ||
    fail "warpscope profile without a probe: $answer"
fi

if ((failures > 0)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all install checks passed"
