#!/usr/bin/env bash
# ctest gpu.probe: runs warpscope-probe on every demo kernel and checks the session it writes:
# each kernel has timings, counters and a matching output check; then one kernel under ncu. Skips (exit 77) without a GPU,
# saying why. Usage: probe_on_gpu.sh PATH/TO/warpscope-probe
set -uo pipefail
probe="$1"
devices=$("$probe" --devices 2>&1)
rc=$?
if [[ $rc -eq 3 ]]; then
  echo "skipped: no usable GPU: $devices"
  exit 77
fi
if [[ $rc -ne 0 ]]; then
  echo "warpscope-probe --devices failed with exit code $rc: $devices"
  exit 1
fi
echo "$devices"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
kernels=$(for k in vector_add copy_coalesced copy_strided copy_offset reduce_interleaved_divergent \
  reduce_interleaved_bank_conflicts reduce_sequential reduce_first_add_during_load reduce_unroll_last_warp \
  reduce_warp_shuffle transpose_naive transpose_tiled transpose_padded matmul_naive matmul_tiled \
  divergence_odd_even divergence_data_loop histogram_shared_atomics stencil_1d; do echo "$k"; done)
count=$(echo "$kernels" | wc -l)
"$probe" $kernels --out "$out/all.wsprof"
rc=$?
if [[ $rc -ne 0 ]]; then
  echo "warpscope-probe exited $rc"; grep '"type":"error"' "$out/all.wsprof"; exit 1
fi
for type in kernel activity check; do
  n=$(grep -c "\"type\":\"$type\"" "$out/all.wsprof")
  [[ $n -eq $count ]] || { echo "expected $count $type records, found $n"; exit 1; }
done
if grep -q '"counters_allowed":true' "$out/all.wsprof"; then
  n=$(grep -c '"type":"metrics"' "$out/all.wsprof")
  [[ $n -eq $count ]] || { echo "expected $count metrics records, found $n"; exit 1; }
fi
if grep -q '"matches":false' "$out/all.wsprof"; then
  echo "a GPU output differs from its reference:"; grep '"matches":false' "$out/all.wsprof"; exit 1
fi
grep -q '"type":"end","status":"ok"' "$out/all.wsprof" || { echo "no end record with status ok"; exit 1; }
grep -q '"type":"hierarchy"' "$out/all.wsprof" || { echo "no hierarchy record (the memory ladder)"; exit 1; }
grep -q '"launch_size":"gpu"' "$out/all.wsprof" || { echo "no kernel ran at its GPU size"; exit 1; }
grep -q '"compute":"compute_75"' "$out/all.wsprof" || { echo "no kernel record says its PTX is compute_75 (the demos' build)"; exit 1; }
# Under a profiler (issue 11): ncu holds CUPTI, so the probe must time with CUDA events, say why in
# one warning, and exit 0. Skipped, saying so, where ncu is not installed.
ncu_bin=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || true)
if [[ -n "$ncu_bin" ]]; then
  "$ncu_bin" --metrics gpu__time_duration.sum --launch-count 1 "$probe" vector_add --size sim --no-hierarchy \
    --out "$out/under-ncu.wsprof" > "$out/ncu.log" 2>&1
  rc=$?
  [[ $rc -eq 0 ]] || { echo "warpscope-probe under ncu exited $rc"; tail -20 "$out/ncu.log"; exit 1; }
  grep -q 'another tool holds CUPTI' "$out/under-ncu.wsprof" || { echo "under ncu: no warning that CUPTI is held"; exit 1; }
  grep -q '"type":"activity"' "$out/under-ncu.wsprof" || { echo "under ncu: no timing (CUDA events)"; exit 1; }
  grep -q '"type":"end","status":"ok"' "$out/under-ncu.wsprof" || { echo "under ncu: no end record with status ok"; exit 1; }
  echo "gpu.probe: under ncu the probe timed with CUDA events and exited 0"
else
  echo "gpu.probe: ncu not found; the run under a profiler was not checked"
fi
echo "gpu.probe: $count kernels measured and checked"
