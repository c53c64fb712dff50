#!/usr/bin/env bash
# Builds the fuzz preset (clang, libFuzzer, ASan, UBSan) and runs each fuzz target for SECONDS on a
# copy of its committed corpus (fuzz/corpus/<target>/). Prints one line per target: executions and
# coverage (cov: edges, ft: features). Fails (exit 1) on any crash, leak, timeout (one input running
# 25 s), out-of-memory or sanitizer report, and keeps the input that caused it under build-fuzz/fuzz-runs/<target>/.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]      (default: 30 seconds, every target)
# Environment: FUZZ_RUNS=N stops each target after N executions (or SECONDS, whichever comes first)
# and runs it as one libFuzzer job (-jobs=1 -workers=1), for the long runs in RELIABILITY.md;
# FUZZ_JOBS=N runs N targets at a time (one core each; default 1); FUZZ_BUILD=0 uses build-fuzz as it
# is; FUZZ_CXX_FLAGS replaces the preset's "-O1 -gline-tables-only" (CI builds with -O0: half the
# build time, a tenth of the executions); FUZZ_RUN_DIR puts the runs elsewhere than build-fuzz/fuzz-runs.
# How the corpora and dictionaries were made: fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-30}"
shift || true
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: SECONDS_PER_TARGET must be a positive whole number of seconds, not '$seconds'" >&2
  exit 2
fi
all_targets=(ptx_parse ptx_sim session_read arg_spec view_link lesson quiz_answer)
targets=("$@")
if ((${#targets[@]} == 0)); then targets=("${all_targets[@]}"); fi

if [[ "${FUZZ_BUILD:-1}" != 0 ]]; then
  flags=()
  if [[ -n "${FUZZ_CXX_FLAGS:-}" ]]; then flags=(-DCMAKE_CXX_FLAGS="$FUZZ_CXX_FLAGS"); fi
  cmake --preset fuzz "${flags[@]}" >/dev/null
  cmake --build --preset fuzz
fi
runs_limit=()
if [[ -n "${FUZZ_RUNS:-}" ]]; then
  if ! [[ "$FUZZ_RUNS" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz.sh: FUZZ_RUNS must be a positive whole number of executions, not '$FUZZ_RUNS'" >&2
    exit 2
  fi
  runs_limit=(-runs="$FUZZ_RUNS" -jobs=1 -workers=1)
fi
run_root="${FUZZ_RUN_DIR:-build-fuzz/fuzz-runs}"
mkdir -p "$run_root"
run_root="$(cd "$run_root" && pwd)"

# Per target: the dictionary and the longest input (the seeds' sizes, with room to grow).
declare -A dict=([ptx_parse]=ptx [ptx_sim]=ptx [session_read]=session_read [arg_spec]=arg_spec
                 [view_link]=view_link [lesson]=lesson [quiz_answer]=quiz_answer)
declare -A max_len=([ptx_parse]=65536 [ptx_sim]=65536 [session_read]=16384 [arg_spec]=1024
                    [view_link]=1024 [lesson]=32768 [quiz_answer]=256)
# A launch that never ends must stop at its step budget without growing: 1 GB of resident memory or
# one 256 MB allocation is a failure for the simulator target.
declare -A memory=([ptx_sim]="-rss_limit_mb=1024 -malloc_limit_mb=256")

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0}"

# Runs one target; its summary line goes to $run/summary. Exit 1 when it found something.
run_target() {
  local target="$1" binary="$PWD/build-fuzz/fuzz/fuzz_$1" run="$run_root/$1"
  rm -rf "$run"
  mkdir -p "$run/corpus"
  if [[ ! -x "$binary" ]]; then
    echo "fuzz $target: no such target (targets: ${all_targets[*]})" >"$run/summary"
    return 1
  fi
  cp -R "fuzz/corpus/$target/." "$run/corpus/"
  local options=(-max_total_time="$seconds" -timeout=25 -max_len="${max_len[$target]}" -print_final_stats=1
                 -artifact_prefix="$run/" ${memory[$target]:-})
  if [[ -f "fuzz/dict/${dict[$target]}.dict" ]]; then options+=(-dict="$PWD/fuzz/dict/${dict[$target]}.dict"); fi
  local status=0 started=$SECONDS
  # Run from the run's folder: a libFuzzer job writes its output to fuzz-0.log there.
  (cd "$run" && exec "$binary" "${options[@]}" "${runs_limit[@]}" "$run/corpus") >"$run/log" 2>&1 || status=$?
  if [[ -f "$run/fuzz-0.log" ]]; then cat "$run/fuzz-0.log" >>"$run/log"; fi
  local elapsed=$((SECONDS - started)) runs coverage inputs artifacts
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/log" | tail -n 1)
  coverage=$(grep -aoE 'cov: [0-9]+ ft: [0-9]+' "$run/log" | tail -n 1 || true)
  inputs=$(find "$run/corpus" -type f | wc -l)
  artifacts=$(find "$run" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
  if ((status != 0)) || [[ -n "$artifacts" ]] ||
     grep -aqE '^(==[0-9]+==ERROR|SUMMARY: (Address|Leak|UndefinedBehavior)Sanitizer)|runtime error:' "$run/log"; then
    {
      echo "fuzz $target: FAILED (exit $status) after ${runs:-?} runs, ${coverage:-no coverage line}; log: $run/log"
      if [[ -n "$artifacts" ]]; then echo "  input: $artifacts"; fi
      grep -aE 'ERROR|runtime error|SUMMARY|Assertion|terminate|deadly signal|Timeout|out-of-memory' "$run/log" | head -n 8 | sed 's/^/  /'
    } >"$run/summary"
    return 1
  fi
  echo "fuzz $target: ${runs:-?} runs in ${elapsed} s, ${coverage:-no coverage line}, corpus $inputs inputs, no findings" >"$run/summary"
}

# FUZZ_JOBS targets at a time (default 1); each is one process on one core.
parallel="${FUZZ_JOBS:-1}"
if ! [[ "$parallel" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: FUZZ_JOBS must be a positive whole number, not '$parallel'" >&2
  exit 2
fi
declare -A pid_of
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= parallel)); do wait -n || true; done
  run_target "$target" &
  pid_of[$target]=$!
done
failed=()
for target in "${targets[@]}"; do
  wait "${pid_of[$target]}" || failed+=("$target")
  cat "$run_root/$target/summary" 2>/dev/null || echo "fuzz $target: FAILED before it ran (see $run_root/$target)"
done

if ((${#failed[@]} > 0)); then
  echo "fuzz.sh: ${#failed[@]} of ${#targets[@]} targets failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, ${seconds} s each, no crash, leak, timeout or sanitizer report"
