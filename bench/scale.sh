#!/usr/bin/env bash
# bench/scale.sh: the Scale figures of docs/performance.md. Against one controller of the full profile
# (deploy/heliograph run: topology, devices, forwarding, stats... all running), measures
#   (a) handshake time: from the moment an emulated fat tree of about SWITCHES switches starts to
#       connect, all at once, until the controller's health resource counts them all;
#   (b) topology convergence: until the controller's console `links` summary lists every directed
#       link of the fat tree, none one-way (polled every POLL seconds);
#   (c) memory per switch: the controller's heap used after a full GC (jcmd GC.run, GC.heap_info)
#       and its resident set, with no switch and with the fabric converged, divided by the switches;
#   (d) packet-in throughput with SWITCHES cbench switches connected (throughput mode, all of them
#       sending), and with 16 for comparison, RUNS runs each, alternating; on the full profile and
#       then on a controller of the bench profile (the learning switch alone).
# The fabric is `heliograph bench --topology fattree -s SWITCHES`: the largest fat tree with at most
# SWITCHES switches (1000 -> k=28, 980 switches; 320 -> k=16). Needs a built distribution
# (deploy/heliograph build), taskset, curl and jcmd. Settings by environment variable, see below;
# every output stays in OUT.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIST=${DIST:-"$ROOT/deploy/target/heliograph"}   # another built distribution to measure, e.g. an older build
BENCH_JAR="$DIST/tools/heliograph-bench.jar"

SWITCHES=${SWITCHES:-1000}      # the fat tree is the largest with at most this many; cbench runs exactly this many
VERSION=${VERSION:-1.3}         # OpenFlow version of every emulated switch
IO_THREADS=${IO_THREADS:-}      # the controller's --io-threads; empty: its default (one per core)
CTL_CORE=${CTL_CORE-1}          # core the controller is pinned to; empty: not pinned
GEN_CORE=${GEN_CORE-0}          # core the generators are pinned to; empty: not pinned
OF_PORT=${OF_PORT:-26753}
HTTP_PORT=${HTTP_PORT:-26853}
POLL=${POLL:-1}                 # seconds between two `links` summaries while converging
CONVERGE_TIMEOUT=${CONVERGE_TIMEOUT:-1800}  # seconds the fabric gets to converge
THREAD_DUMPS=${THREAD_DUMPS:-}  # non-empty: a stack of the topology thread at every poll (OUT/topology-thread.txt)
SETTLE=${SETTLE:-15}            # seconds the converged fabric runs (three LLDP rounds) before the memory reading
RUNS=${RUNS:-5}                 # throughput runs per switch count and profile
MACS=${MACS:-100000}            # -M of the throughput runs
DELAY=${DELAY:-10000}           # -D of the throughput runs: time for every switch's handshake before the flood
THROUGHPUT_SWITCHES=${THROUGHPUT_SWITCHES-"16 $SWITCHES"}   # empty: no throughput runs
THROUGHPUT_PROFILES=${THROUGHPUT_PROFILES-"full bench"}     # the full profile first: it is the one already running
OUT=${OUT:-$(mktemp -d /tmp/heliograph-scale-XXXXXX)}
# JAVA_OPTS goes to the controller (deploy/heliograph run passes it on), GEN_JAVA_OPTS to the generators.

die() { echo "scale: $*" >&2; exit 1; }

[[ -f "$BENCH_JAR" && -f "$DIST/heliograph.jar" ]] || die "build first (deploy/heliograph build)"
for tool in taskset curl jcmd; do
    command -v "$tool" >/dev/null || die "$tool is missing"
done
# One socket per switch in the controller and in the generator, plus the JVMs' own files.
need=$((SWITCHES + 1024))
if (( $(ulimit -n) < need )); then
    ulimit -n "$need" 2>/dev/null || die "$SWITCHES switches need 'ulimit -n $need'; the hard limit is $(ulimit -Hn)"
fi
mkdir -p "$OUT"

# Commands that pin to a core (empty: not pinned). Not a function: a background job must exec the
# JVM itself, so that $! is the JVM's pid (taskset and deploy/heliograph exec).
PIN_CTL=()
[[ -n $CTL_CORE ]] && PIN_CTL=(taskset -c "$CTL_CORE")
PIN_GEN=()
[[ -n $GEN_CORE ]] && PIN_GEN=(taskset -c "$GEN_CORE")
now_ms() { date +%s%3N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / hz }' "/proc/$1/stat"; }
report() { echo "$*" | tee -a "$OUT/summary.txt"; }

CTL_PID=
GEN_PID=
cleanup() {
    [[ -n $GEN_PID ]] && kill "$GEN_PID" 2>/dev/null && wait "$GEN_PID" 2>/dev/null
    [[ -n $CTL_PID ]] && kill "$CTL_PID" 2>/dev/null && wait "$CTL_PID" 2>/dev/null
    exec 3>&- 2>/dev/null || true
    rm -f "$OUT/console"
}
trap cleanup EXIT

# --- the controller, its Gogo console on a FIFO we keep open (fd 3), its console output in a file
mkfifo "$OUT/console"
exec 3<>"$OUT/console"
report "scale: $(date -u +%FT%TZ), $SWITCHES switches, OpenFlow $VERSION, controller on core ${CTL_CORE:-any}," \
    "generators on core ${GEN_CORE:-any}, --io-threads ${IO_THREADS:-default}, JAVA_OPTS='${JAVA_OPTS:-}'," \
    "load average $(load); output in $OUT"
health() { curl -sf "http://127.0.0.1:$HTTP_PORT/api/v1/health" | sed -n 's/.*"switches":\([0-9]*\).*/\1/p'; }
LOG="$OUT/controller.log"
start_controller() {   # $1 = profile; the console on fd 3, the log in $LOG
    if [[ $1 == full ]]; then LOG="$OUT/controller.log"; else LOG="$OUT/controller-$1.log"; fi
    # shellcheck disable=SC2086
    "${PIN_CTL[@]}" "$ROOT/deploy/heliograph" run --profile "$1" --console --openflow-port "$OF_PORT" \
        --http-port "$HTTP_PORT" --data-dir "$OUT/data-$1" --log-level warn ${IO_THREADS:+--io-threads "$IO_THREADS"} \
        <&3 >>"$OUT/console.out" 2>"$LOG" &
    CTL_PID=$!
    local deadline=$((SECONDS + 120))
    until [[ -n $(health) ]]; do
        kill -0 "$CTL_PID" 2>/dev/null || die "the controller died, see $LOG"
        (( SECONDS < deadline )) || die "the controller was not healthy within 120 s, see $LOG"
        sleep 0.2
    done
}
stop_controller() {
    kill "$CTL_PID"
    wait "$CTL_PID" 2>/dev/null || true
    CTL_PID=
    report "    controller log ($(basename "$LOG")): $(grep -c . "$LOG" || true) lines, $(grep -c WARN "$LOG" || true)" \
        "warnings$(grep WARN "$LOG" | sed 's/^[-0-9]* [0-9:.]* //; s/[0-9a-f][0-9a-f]\(:[0-9a-f][0-9a-f]\)\{7\}/DPID/g;
            s/[0-9][0-9]*/N/g' | sort | uniq -c | sort -rn | head -8 | awk '{ printf "\n      %s", $0 }')"
}
start_controller full

# The `links` summary: "S switches, L links (O one-way), I islands, topology version V; LLDP
# accepted A, refused: ..."; or the console's error, which Gogo writes to stderr (e.g. the topology
# thread did not answer within its 2 s: it is busy), prefixed "error: "; or nothing if the console
# said nothing within 60 s.
links_summary() {
    local mark errors text summary waited=0
    mark=$(wc -l <"$OUT/console.out")
    errors=$(wc -l <"$LOG")
    echo "links | grep 'switches, |LLDP accepted'" >&3
    while (( waited < 600 )); do
        text=$(tail -n +"$((mark + 1))" "$OUT/console.out"; tail -n +"$((errors + 1))" "$LOG")
        if [[ $text == *"LLDP accepted"* ]]; then
            summary=$(grep -aoE '[0-9]+ switches, [0-9]+ links \([0-9]+ one-way\).*' <<<"$text" | head -1 || true)
            echo "$summary; $(grep -ao 'LLDP accepted.*' <<<"$text" | head -1)"
            return
        fi
        if [[ $text == *"gogo: "* ]]; then echo "error: $(grep -ao 'gogo: .*' <<<"$text" | head -1)"; return; fi
        sleep 0.1
        waited=$((waited + 1))
    done
}
[[ $(cat "/proc/$CTL_PID/comm") == java ]] || die "process $CTL_PID is $(cat "/proc/$CTL_PID/comm"), not the controller's JVM"
deadline=$((SECONDS + 120))
until [[ $(links_summary) == *switches,* ]]; do
    (( SECONDS < deadline )) || die "the console never answered 'links' (is the topology app running?), see $OUT/"
done

# Heap used after a full GC (KiB: the sum over the collector's spaces, whichever collector the JVM
# chose; pinned to one core it picks Serial, not G1) and the resident set (KiB).
memory() {
    jcmd "$CTL_PID" GC.run >/dev/null
    local used rss
    used=$(jcmd "$CTL_PID" GC.heap_info | awk '/total [0-9]+K, used [0-9]+K/ {
        for (i = 1; i < NF; i++) if ($i == "used") { sub(/K.*/, "", $(i + 1)); sum += $(i + 1) } } END { print sum + 0 }')
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$CTL_PID/status")
    echo "${used:-0} ${rss:-0}"
}
collector=$(jcmd "$CTL_PID" GC.heap_info | awk 'NR == 2 {
    if (/garbage-first/) print "G1"; else if (/def new generation/) print "Serial"; else if (/PSYoungGen/) print "Parallel";
    else print "another collector" }')
read -r heap0 rss0 < <(memory)
report "memory with no switch: heap used after GC $((heap0 / 1024)) MiB ($collector), resident $((rss0 / 1024)) MiB"

# --- the fabric: handshake and convergence
cpu_before=$(cpu_seconds "$CTL_PID")
# shellcheck disable=SC2086
"${PIN_GEN[@]}" java ${GEN_JAVA_OPTS:-} -jar "$BENCH_JAR" --topology fattree -s "$SWITCHES" -p "$OF_PORT" \
    -V "$VERSION" --health "http://127.0.0.1:$HTTP_PORT/api/v1/health" >"$OUT/fabric.out" 2>&1 &
GEN_PID=$!
until grep -qs 'ms since the epoch' "$OUT/fabric.out"; do
    kill -0 "$GEN_PID" 2>/dev/null || die "the fabric generator stopped: $(cat "$OUT/fabric.out")"
    sleep 0.05
done
t0=$(sed -n 's/.* at \([0-9]*\) ms since the epoch/\1/p' "$OUT/fabric.out")
fabric=$(sed -n 's/^fabric: \(fat tree.*\)/\1/p' "$OUT/fabric.out")
n=$(sed -n 's/^fabric: fat tree k=[0-9]*: \([0-9]*\) switches.*/\1/p' "$OUT/fabric.out")
expected=$(sed -n 's/.*cables (\([0-9]*\) directed links).*/\1/p' "$OUT/fabric.out")
report "fabric: $fabric"

converged=
busy=0
all_links=
last=
while :; do
    asked=$(now_ms)
    last=$(links_summary)
    if [[ $last =~ ^([0-9]+)\ switches,\ ([0-9]+)\ links\ \(([0-9]+)\ one-way\) ]]; then
        s=${BASH_REMATCH[1]} l=${BASH_REMATCH[2]} o=${BASH_REMATCH[3]}
        echo "$(( (asked - t0) )) ms: $last" >>"$OUT/convergence.txt"
        if [[ -z $all_links && $l -ge $expected ]]; then all_links=$((asked - t0)); fi
        if [[ $s -eq $n && $l -eq $expected && $o -eq 0 ]]; then converged=$((asked - t0)); break; fi
    else
        echo "$(( (asked - t0) )) ms: ${last:-no answer within 60 s}" >>"$OUT/convergence.txt"
        busy=$((busy + 1))
    fi
    if [[ -n $THREAD_DUMPS ]]; then   # what the topology thread is doing, for the findings
        { echo "--- $(( $(now_ms) - t0 )) ms"; jcmd "$CTL_PID" Thread.print 2>/dev/null \
            | awk '/^"heliograph-topology"/ { p = 1 } p && /^$/ { exit } p' | head -25; } >>"$OUT/topology-thread.txt"
    fi
    kill -0 "$GEN_PID" 2>/dev/null || die "the fabric generator stopped: $(tail -5 "$OUT/fabric.out")"
    (( ($(now_ms) - t0) / 1000 < CONVERGE_TIMEOUT )) || break
    sleep "$POLL"
done
cpu_converged=$(cpu_seconds "$CTL_PID")
handshake=$(sed -n "s/^milestone \([0-9.]*\) s: the controller's health counts.*/\1/p" "$OUT/fabric.out")
probed=$(sed -n 's/^milestone \([0-9.]*\) s: all [0-9]* directed links carried a probe/\1/p' "$OUT/fabric.out")
report "(a) handshake: the controller's health counted all $n switches $(if [[ -n $handshake ]]; then echo "after $handshake s"; else echo "NEVER (see the generator's status)"; fi)" \
    "(the generator: $(grep '^milestone' "$OUT/fabric.out" | sed 's/^milestone //' | paste -sd';' | sed 's/;/; /g'))"
if [[ -n $converged ]]; then
    report "(b) convergence: 'links' listed all $expected directed links, none one-way, after $((converged / 1000)).$(printf '%03d' $((converged % 1000))) s" \
        "(polled every ${POLL} s, $busy polls unanswered; every link had carried a probe after ${probed:-?} s; controller CPU $(awk -v a="$cpu_converged" -v b="$cpu_before" 'BEGIN { print a - b }') s meanwhile)"
else
    report "(b) convergence: NOT within $CONVERGE_TIMEOUT s; last summary: $last; the generator: $(tail -1 "$OUT/fabric.out")"
fi
report "    load average $(load)"

# --- memory with the fabric connected, after SETTLE seconds of steady state
end=$((SECONDS + SETTLE))
while (( SECONDS < end )); do sleep 1; done
steady=$(links_summary)
read -r heapN rssN < <(memory)
report "(c) memory with $n switches: heap used after GC $((heapN / 1024)) MiB, resident $((rssN / 1024)) MiB;" \
    "per switch: heap $(( (heapN - heap0) / n )) KiB, resident $(( (rssN - rss0) / n )) KiB (steady state: $steady)"
report "    the generator: $(grep '^status' "$OUT/fabric.out" | tail -1)"
kill "$GEN_PID"
wait "$GEN_PID" 2>/dev/null || true
GEN_PID=
deadline=$((SECONDS + 120))
until [[ $(health) == 0 ]]; do
    (( SECONDS < deadline )) || die "the controller still counts switches 120 s after the fabric left"
    sleep 0.2
done

# --- packet-in throughput with many switches connected: the full profile (still running), then
# the bench profile (the learning switch alone, as in the page's throughput figures)
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
throughput() {   # $1 = profile
    local run s name avg starved
    for run in $(seq 1 "$RUNS"); do
        for s in $THROUGHPUT_SWITCHES; do
            name="$OUT/throughput-$1-$s"
            # shellcheck disable=SC2086
            "${PIN_GEN[@]}" java ${GEN_JAVA_OPTS:-} -jar "$BENCH_JAR" -p "$OF_PORT" -V "$VERSION" -t -s "$s" -M "$MACS" \
                -l 10 -w 2 -m 1000 -D "$DELAY" >"$name.run$run.txt" 2>"$name.run$run.err" || true
            avg=$(sed -n 's|^RESULT: .* = [0-9.]*/[0-9.]*/\([0-9.]*\)/.*|\1|p' "$name.run$run.txt")
            # switches that got no response in the last test: the unfairness the page's findings describe
            starved=$(grep -E '^[0-9:.]+ [0-9]+ +switches' "$name.run$run.txt" | tail -1 \
                | sed 's/.*flows\/sec: *//; s/total.*//' | tr -s ' ' '\n' | grep -c '^0$' || true)
            if [[ -n $avg ]]; then
                echo "$avg $starved" >>"$name.runs"
            else
                echo "run $run failed: $(grep '^heliograph bench:' "$name.run$run.err" | tail -1)" >>"$name.failed"
            fi
            until [[ $(health) == 0 ]]; do sleep 0.2; done
        done
    done
    for s in $THROUGHPUT_SWITCHES; do
        name="$OUT/throughput-$1-$s"
        touch "$name.runs"
        report "(d) throughput, $1 profile, -t -s $s -M $MACS -l 10 -w 2 -D $DELAY:" \
            "median $(cut -d' ' -f1 "$name.runs" | median) responses/s (runs: $(cut -d' ' -f1 "$name.runs" | xargs);" \
            "switches with no response in the last test: $(cut -d' ' -f2 "$name.runs" | xargs))" \
            "$([[ -f $name.failed ]] && paste -sd';' "$name.failed")"
    done
    report "    load average $(load)"
}
for profile in $THROUGHPUT_PROFILES; do
    [[ $profile == full ]] || { stop_controller; start_controller "$profile"; }
    throughput "$profile"
done
stop_controller
report "scale: done, load average $(load)"
