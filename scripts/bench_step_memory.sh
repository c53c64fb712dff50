#!/usr/bin/env bash
# The app's peak resident memory with the Execution view open on each demo kernel: the window is
# built, the block recorded (with the memory view's timeline trace) and stepped to warp 0's
# instruction 10, and the memory view drawn (warpscope
# screenshot does all of it, offscreen). Prints one line per kernel and the largest; exits 1 when it
# passes the target (300 MB, issue 10). Usage: scripts/bench_step_memory.sh [build/warpscope]
set -euo pipefail
binary=${1:-build/warpscope}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
largest=0
for kernel in $("$binary" sim --list | awk '{print $1}'); do
    /usr/bin/time -f "%M" -o "$out/rss" env QT_QPA_PLATFORM=offscreen "$binary" screenshot --out "$out/shot.png" \
        --view memory --link "warpscope:memory?kernel=$kernel&warp=0&at=10" >/dev/null 2>"$out/err" || { cat "$out/err"; exit 1; }
    kb=$(tail -1 "$out/rss")
    printf '%-36s %6d MB\n' "$kernel" $((kb / 1024))
    (( kb > largest )) && largest=$kb
done
printf 'largest                              %6d MB (target 300 MB)\n' $((largest / 1024))
(( largest <= 300 * 1024 ))
