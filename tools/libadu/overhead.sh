#!/usr/bin/env bash
# The overhead of libadu on an application's writes: adu-overhead (overhead.c) RUNS times in each
# mode, without and with the shim, and the median ns/write of each. With the shim, reports go to
# ADU_URL (default: a closed port, so the reporting thread's batches are dropped: the application's
# path is the same whatever the controller does).
#   tools/libadu/overhead.sh [RUNS] [WRITES] [SIZE]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$HERE}
RUNS=${1:-5}
WRITES=${2:-1000000}
SIZE=${3:-64}
make -s -C "$HERE" OUT="$OUT" all overhead
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
nsPerWrite() { sed -n 's/.* \([0-9.]*\) ns\/write$/\1/p'; }
echo "median of $RUNS runs, $WRITES writes of $SIZE bytes each"
for mode in tcp unix file; do
    plain=$(for _ in $(seq "$RUNS"); do "$OUT/adu-overhead" "$mode" "$WRITES" "$SIZE" | nsPerWrite; done | median)
    shim=$(for _ in $(seq "$RUNS"); do
        ADU_URL=${ADU_URL:-http://127.0.0.1:9/api/v1/circuit/adus} LD_PRELOAD="$OUT/libadu.so" \
            "$OUT/adu-overhead" "$mode" "$WRITES" "$SIZE" | nsPerWrite
    done | median)
    printf '%-5s without %6s ns/write, with libadu %6s ns/write\n' "$mode" "$plain" "$shim"
done
