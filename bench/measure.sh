#!/usr/bin/env bash
# bench/measure.sh: the figures of docs/performance.md. Runs the load generator pinned to one core
# against (a) the trivial responder and (b) the controller's bench profile with 1 and 2 I/O threads,
# all pinned to the other core, in throughput mode (-t -s 16 -M 100000) and latency mode (-s 1), on
# OpenFlow 1.0 and 1.3, and prints the median of RUNS runs' RESULT averages for each.
#
# The machine is shared, so its load drifts: the targets are started once and stay up (each idle
# while another is measured), and every round runs every configuration once, so a quiet or a busy
# minute falls on all of them alike. A first, shorter round warms them up and is not counted.
# Needs a built distribution (deploy/heliograph build), taskset and curl. Settings: see below.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIST="$ROOT/deploy/target/heliograph"
BENCH_JAR="$DIST/tools/heliograph-bench.jar"

RUNS=${RUNS:-5}
LOOPS=${LOOPS:-10}          # tests per run (-l)
WARMUP=${WARMUP:-2}         # of which left out (-w)
MS=${MS:-1000}              # ms per test (-m)
DELAY=${DELAY:-1000}        # ms after FEATURES_REPLY before testing (-D): lets the handshake finish
GEN_CORE=${GEN_CORE:-0}
CTL_CORE=${CTL_CORE:-1}
BASE_PORT=${BASE_PORT:-26650}   # responder on BASE_PORT, heliograph:N on BASE_PORT+N (HTTP +100)
TARGETS=${TARGETS:-"responder heliograph:1 heliograph:2"}
VERSIONS=${VERSIONS:-"1.0 1.3"}
MODES=${MODES:-"throughput latency"}
OUT=${OUT:-$(mktemp -d /tmp/heliograph-bench-XXXXXX)}

[[ -f "$BENCH_JAR" && -f "$DIST/heliograph.jar" ]] || { echo "measure: build first (deploy/heliograph build)" >&2; exit 1; }
for tool in taskset curl; do
    command -v "$tool" >/dev/null || { echo "measure: $tool is missing" >&2; exit 1; }
done
mkdir -p "$OUT"

declare -A PID PORT
stop_targets() {
    local t
    for t in "${!PID[@]}"; do
        kill "${PID[$t]}" 2>/dev/null || true
        wait "${PID[$t]}" 2>/dev/null || true
    done
}
trap stop_targets EXIT

# CPU seconds (user + system) a process has used so far.
cpu_seconds() {
    awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"
}

start_target() {   # $1 = responder | heliograph:THREADS
    local target=$1 log="$OUT/${1/:/-io}.log"
    if [[ $target == responder ]]; then
        PORT[$target]=$BASE_PORT
        taskset -c "$CTL_CORE" java -jar "$BENCH_JAR" --responder -p "${PORT[$target]}" >"$log" 2>&1 &
        PID[$target]=$!
    else
        local threads=${target#heliograph:}
        PORT[$target]=$((BASE_PORT + threads))
        local http=$((BASE_PORT + 100 + threads))
        taskset -c "$CTL_CORE" java -jar "$DIST/heliograph.jar" --profile bench --io-threads "$threads" \
            --openflow-port "${PORT[$target]}" --http-port "$http" --data-dir "$OUT/data-$threads" \
            --log-level warn >"$log" 2>&1 &
        PID[$target]=$!
        until curl -sf "http://127.0.0.1:$http/api/v1/health" >/dev/null; do
            kill -0 "${PID[$target]}" 2>/dev/null || { echo "measure: $target died, see $log" >&2; exit 1; }
            sleep 0.2
        done
    fi
    # Ready when it answers: for the controller, once the learning switch (started after the
    # platform, at start level 2) is in the packet-in pipeline.
    local tries=0
    until taskset -c "$GEN_CORE" java -jar "$BENCH_JAR" -p "${PORT[$target]}" -s 1 -l 2 -m 300 2>/dev/null \
            | grep -q '^RESULT: .* = [1-9]'; do
        (( ++tries < 60 )) || { echo "measure: $target never answered, see $log" >&2; exit 1; }
        sleep 0.5
    done
}

flags_of() {   # $1 = mode
    if [[ $1 == throughput ]]; then echo "-t -s 16 -M 100000"; else echo "-s 1"; fi
}

# One generator run; appends "average cpu% busy%" to $OUT/NAME.runs.
run_once() {   # $1 = target, $2 = version, $3 = mode, $4 = run label, $5 = loops, $6 = warmup
    local target=$1 version=$2 mode=$3 label=$4 loops=$5 warmup=$6
    local name="${target/:/-io}-of$version-$mode" pid=${PID[$target]}
    local before started after ended
    before=$(cpu_seconds "$pid"); started=$(date +%s.%N)
    # shellcheck disable=SC2046
    taskset -c "$GEN_CORE" java -jar "$BENCH_JAR" -p "${PORT[$target]}" -V "$version" -l "$loops" -w "$warmup" \
        -m "$MS" -D "$DELAY" $(flags_of "$mode") >"$OUT/$name.$label.txt" 2>"$OUT/$name.$label.err"
    after=$(cpu_seconds "$pid"); ended=$(date +%s.%N)
    [[ $label == warmup ]] && return
    local avg busy cpu
    avg=$(sed -n 's|^RESULT: .* = [0-9.]*/[0-9.]*/\([0-9.]*\)/.*|\1|p' "$OUT/$name.$label.txt")
    busy=$(sed -n 's|^generator: event loop busy \([0-9]*\)%.*|\1|p' "$OUT/$name.$label.err")
    cpu=$(awk -v a="$after" -v b="$before" -v s="$started" -v e="$ended" 'BEGIN { printf "%.0f", 100 * (a - b) / (e - s) }')
    echo "${avg:-0} $cpu ${busy:-?}" >>"$OUT/$name.runs"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for target in $TARGETS; do
    start_target "$target"
done
echo "measure: targets up ($TARGETS); warmup round, then $RUNS rounds; output in $OUT" >&2
for round in warmup $(seq 1 "$RUNS"); do
    for version in $VERSIONS; do
        for mode in $MODES; do
            for target in $TARGETS; do
                if [[ $round == warmup ]]; then
                    run_once "$target" "$version" "$mode" warmup 3 1
                else
                    run_once "$target" "$version" "$mode" "run$round" "$LOOPS" "$WARMUP"
                fi
            done
        done
    done
    echo "measure: round $round done, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done

printf '%-14s %-4s %-11s %12s\n' target OF mode median/s | tee "$OUT/summary.txt"
for version in $VERSIONS; do
    for mode in $MODES; do
        for target in $TARGETS; do
            runs="$OUT/${target/:/-io}-of$version-$mode.runs"
            med=$(cut -d' ' -f1 "$runs" | median)
            printf '%-14s %-4s %-11s %12.0f   runs: %s   target CPU %%: %s   generator busy %%: %s\n' \
                "$target" "$version" "$mode" "$med" "$(cut -d' ' -f1 "$runs" | xargs)" \
                "$(cut -d' ' -f2 "$runs" | xargs)" "$(cut -d' ' -f3 "$runs" | xargs)" | tee -a "$OUT/summary.txt"
        done
    done
done
