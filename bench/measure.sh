#!/usr/bin/env bash
# bench/measure.sh: the figures of docs/performance.md. Runs the load generator pinned to one core
# against (a) the C responder of issue 4's goals (bench/src/main/c/responder.c, compiled here; the
# Java trivial responder, target "responder", does the same in a JVM), (b) the controller's bench
# profile with 1 and 2 I/O threads and (c) os-ken running bench/osken/learning_switch.py, all pinned
# to the other core, in throughput mode (-t -s 16 -M 100000) and latency mode (-s 1), on OpenFlow 1.0
# and 1.3, and prints the median of RUNS runs' RESULT averages for each, and Heliograph's ratios to
# the C responder and to os-ken. Mode latency-c is latency mode measured by the reference C client
# (bench/src/main/c/pingpong.c: one switch, spinning on its socket) instead of the generator, over
# as many seconds as the generator has tests; each latency row then says how the generator's figure
# compares with the C client's on the same target in the same round ("x C client").
#
# The machine is shared, so its load drifts: the targets are started together and stay up (each idle
# while another is measured), and every round runs every configuration once, so a quiet or a busy
# minute falls on all of them alike. A first, shorter round warms them up and is not counted. Every
# run starts once all targets are quiet (each under QUIET_PERCENT of a core for a second): a
# full-profile controller goes on working after its switches leave (it forgets their hosts and
# deletes them from the shared store, 15-30 s of a core), which would otherwise fall on the next run
# of whichever target shares its core. The seconds waited are in the summary.
# By default each OpenFlow version gets freshly started targets (a network of one version, as cbench
# measures); SHARED_VERSIONS=1 has the same targets answer every version in turn (a mixed network:
# the JIT then compiles the shared code for both versions' message classes, which costs the
# controller part of its throughput; docs/performance.md has both).
# An A/B of two builds: BASELINE=<another built distribution> and a target baseline:THREADS (e.g.
# TARGETS="baseline:1 heliograph:1") runs that build beside this tree's, interleaved in every round,
# and prints this tree's ratio to it, round by round ("x baseline"). PROFILE=full runs the controllers
# with every app (the default profile users run) instead of the bench profile; a target full:THREADS
# runs this tree's build with every app beside the others, and its rows say how it compares with
# heliograph:THREADS, the bench profile, round by round ("x bench profile").
# Mode throughput-2g is throughput mode with SWITCHES_2G switches (16) split over two generator
# processes run at once, their figures added up: with CTL_CORE=0,1 GEN_CORE=0,1 and targets
# heliograph:1 heliograph:2 it measures how the controller scales from one I/O thread to two on this
# machine's two cores (docs/performance.md, "Many cores"); rows of heliograph:N say how they compare
# with heliograph:1, and per thread. Beacon's protocol (its thesis, Fig. 2.8b: 64 switches, 13 tests
# of 10 s of which 3 warm up, N threads on N cores), on a machine of 16 cores:
#   CTL_CORES_BY_THREADS=1 GEN_CORE=14,15 SWITCHES_2G=64 LOOPS=13 WARMUP=3 MS=10000 RUNS=1 \
#   VERSIONS=1.0 MODES=throughput-2g TARGETS="heliograph:1 heliograph:2 heliograph:4 heliograph:8 heliograph:12"
# (bench/many-cores.sh packs what that needs for a machine without Java or Maven, and runs it there).
# Needs a built distribution (deploy/heliograph build), taskset and curl; a C compiler (cc) for the
# C responder; for os-ken, python3 with venv and PyPI (bench/osken/setup.sh makes the virtualenv
# once). Settings: see below.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIST=${DIST:-"$ROOT/deploy/target/heliograph"}   # another built distribution to measure (bench/many-cores.sh unpacks one)
BENCH_JAR="$DIST/tools/heliograph-bench.jar"

RUNS=${RUNS:-5}
# Fresh starts of the targets per OpenFlow version, each with its warm-up round and RUNS rounds: a
# JVM's run-to-run differences (what the JIT made of it, where its objects fell) last as long as the
# process, so rounds on one start share them; the medians and same-round ratios are over every
# round of every start.
FORKS=${FORKS:-1}
LOOPS=${LOOPS:-10}          # tests per run (-l)
WARMUP=${WARMUP:-2}         # of which left out (-w)
MS=${MS:-1000}              # ms per test (-m)
DELAY=${DELAY:-1000}        # ms after FEATURES_REPLY before testing (-D): lets the handshake finish
GEN_CORE=${GEN_CORE:-0}
CTL_CORE=${CTL_CORE:-1}
BASE_PORT=${BASE_PORT:-26650}   # responder on BASE_PORT, heliograph:N on BASE_PORT+N, baseline:N +10+N, full:N +20+N (HTTP +100), c-responder +40, osken +50
TARGETS=${TARGETS:-"c-responder heliograph:1 heliograph:2 osken"}
VERSIONS=${VERSIONS:-"1.0 1.3"}
SHARED_VERSIONS=${SHARED_VERSIONS:-0}
MODES=${MODES:-"throughput latency latency-c"}
# Source MACs each latency-mode switch cycles through (-M), for the generator and the C client alike.
# cbench's 100,000 outnumber the learning switch's 65,536 hosts, so its cost then depends on where its
# table is in its life (filling, refusing new addresses, evicting idle ones), which a long-lived target
# reaches at different times in different runs; 1,000 keep it in one state.
LATENCY_MACS=${LATENCY_MACS:-100000}
PROFILE=${PROFILE:-bench}   # the controllers' profile: bench (the learning switch alone) or full (every app)
SWITCHES_2G=${SWITCHES_2G:-16}      # switches of mode throughput-2g, half on each generator
# 1: a controller with N I/O threads is pinned to cores 0 to N-1 instead of CTL_CORE (the scaling
# curve on a machine with more cores: GEN_CORE then names the generators' own cores, e.g. 14,15)
CTL_CORES_BY_THREADS=${CTL_CORES_BY_THREADS:-0}
# 1, an experiment: the targets' cores never go idle: a spinner of the lowest scheduling class
# (SCHED_IDLE, which runs only when nothing else wants the core) on each core of CTL_CORE. On a
# virtual machine a core with nothing to run halts, and a packet-in then waits for the hypervisor to
# wake it, at a cost that varies with the host's state and with how soon after the last answer the
# packet-in comes. Keeping the cores awake steadied latency mode in some runs and not in others
# (docs/performance.md, "Two clients, one controller"), so it is not the method. The targets' CPU
# figures roughly double with it: read them only without it.
AWAKE=${AWAKE:-0}
QUIET_PERCENT=${QUIET_PERCENT:-5}   # a target using less of a core than this is quiet
QUIET_TIMEOUT=${QUIET_TIMEOUT:-120} # seconds a run waits for quiet before it starts anyway (and says so)
OUT=${OUT:-$(mktemp -d /tmp/heliograph-bench-XXXXXX)}

[[ -f "$BENCH_JAR" && -f "$DIST/heliograph.jar" ]] || { echo "measure: build first (deploy/heliograph build)" >&2; exit 1; }
for tool in taskset curl; do
    command -v "$tool" >/dev/null || { echo "measure: $tool is missing" >&2; exit 1; }
done
mkdir -p "$OUT"
if [[ " $MODES " == *" latency-c "* ]]; then
    cc -O2 -o "$OUT/pingpong" "$ROOT/bench/src/main/c/pingpong.c" 2>>"$OUT/pingpong.log" \
        || { echo "measure: cannot compile the C client, see $OUT/pingpong.log" >&2; exit 1; }
fi

declare -A PID PORT
SPINNERS=()
stop_spinners() {
    local p
    for p in "${SPINNERS[@]}"; do
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
}
stop_targets() {
    local t
    for t in "${!PID[@]}"; do
        kill "${PID[$t]}" 2>/dev/null || true
        wait "${PID[$t]}" 2>/dev/null || true
        unset "PID[$t]"
    done
}
trap 'stop_targets; stop_spinners' EXIT
if (( AWAKE )); then
    command -v chrt >/dev/null || { echo "measure: AWAKE=1 needs chrt" >&2; exit 1; }
    for core in ${CTL_CORE//,/ }; do
        [[ $core =~ ^[0-9]+$ ]] || { echo "measure: AWAKE=1 wants CTL_CORE as cores separated by commas, not $CTL_CORE" >&2; exit 1; }
        chrt --idle 0 taskset -c "$core" sh -c 'while :; do :; done' &
        SPINNERS+=($!)
    done
fi

# CPU seconds (user + system) a process has used so far.
cpu_seconds() {
    awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"
}

# Seconds a process's threads have so far spent runnable but waiting for a CPU (summed over its
# threads; 0 without schedstats): on this shared machine, how much other work took the target's core.
wait_seconds() {
    cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $2 } END { print s / 1e9 }'
}

start_target() {   # $1 = c-responder | responder | heliograph:THREADS | baseline:THREADS | osken, $2 = the OpenFlow version to check it with
    local target=$1 version=$2 log="$OUT/${1/:/-io}.log"
    if [[ $target == c-responder ]]; then
        cc -O2 -o "$OUT/c-responder" "$ROOT/bench/src/main/c/responder.c" 2>>"$log" \
            || { echo "measure: cannot compile the C responder, see $log" >&2; exit 1; }
        PORT[$target]=$((BASE_PORT + 40))
        taskset -c "$CTL_CORE" "$OUT/c-responder" -p "${PORT[$target]}" >>"$log" 2>&1 &
        PID[$target]=$!
    elif [[ $target == responder ]]; then
        PORT[$target]=$BASE_PORT
        taskset -c "$CTL_CORE" java -jar "$BENCH_JAR" --responder -p "${PORT[$target]}" >>"$log" 2>&1 &
        PID[$target]=$!
    elif [[ $target == osken ]]; then
        local manager
        manager=$("$ROOT/bench/osken/setup.sh")
        PORT[$target]=$((BASE_PORT + 50))
        # taskset execs osken-manager, so the pid is the Python process itself.
        taskset -c "$CTL_CORE" "$manager" --ofp-listen-host 127.0.0.1 --ofp-tcp-listen-port "${PORT[$target]}" \
            "$ROOT/bench/osken/learning_switch.py" >>"$log" 2>&1 &
        PID[$target]=$!
    else
        local threads=${target#*:} dist=$DIST offset=0 profile=$PROFILE
        if [[ $target == baseline:* ]]; then
            [[ -f ${BASELINE:-}/heliograph.jar ]] || { echo "measure: $target needs BASELINE=<a built distribution>" >&2; exit 1; }
            dist=$BASELINE offset=10
        elif [[ $target == full:* ]]; then
            offset=20 profile=full
        fi
        PORT[$target]=$((BASE_PORT + offset + threads))
        local http=$((BASE_PORT + 100 + offset + threads))
        local cores=$CTL_CORE
        (( CTL_CORES_BY_THREADS )) && cores="0-$((threads - 1))"
        taskset -c "$cores" java -jar "$dist/heliograph.jar" --profile "$profile" --io-threads "$threads" \
            --openflow-port "${PORT[$target]}" --http-port "$http" --data-dir "$OUT/data-${target/:/-}" \
            --log-level warn >>"$log" 2>&1 &
        PID[$target]=$!
        until curl -sf "http://127.0.0.1:$http/api/v1/health" >/dev/null; do
            kill -0 "${PID[$target]}" 2>/dev/null || { echo "measure: $target died, see $log" >&2; exit 1; }
            sleep 0.2
        done
    fi
    # Ready when it answers: for the controller, once the learning switch (started after the
    # platform, at start level 2) is in the packet-in pipeline; os-ken once it listens. Checked in
    # the version it is measured in: a check in another version would have the JIT compile the
    # controller's shared code for both, the mixed network this measurement means to leave out.
    local tries=0
    until taskset -c "$GEN_CORE" java -jar "$BENCH_JAR" -p "${PORT[$target]}" -V "$version" -s 1 -l 2 -m 300 2>/dev/null \
            | grep -q '^RESULT: .* = [1-9]'; do
        (( ++tries < 60 )) || { echo "measure: $target never answered, see $log" >&2; exit 1; }
        sleep 0.5
    done
}

wire_of() {   # $1 = 1.0 | 1.3: the version byte the C client takes
    if [[ $1 == 1.0 ]]; then echo 1; else echo 4; fi
}

flags_of() {   # $1 = mode
    if [[ $1 == throughput ]]; then echo "-t -s 16 -M 100000"; else echo "-s 1 -M $LATENCY_MACS"; fi
}

# Waits until every target has used less than QUIET_PERCENT of a core over a second (QUIET_TIMEOUT
# at most) and prints the seconds it waited.
await_quiet() {
    local started t quiet a b
    started=$(date +%s.%N)
    while :; do
        declare -A used=()
        for t in "${!PID[@]}"; do used[$t]=$(cpu_seconds "${PID[$t]}"); done
        sleep 1
        quiet=1
        for t in "${!PID[@]}"; do
            a=${used[$t]} b=$(cpu_seconds "${PID[$t]}")
            awk -v a="$a" -v b="$b" -v p="$QUIET_PERCENT" 'BEGIN { exit !(100 * (b - a) >= p) }' && quiet=0
        done
        unset used
        local waited
        waited=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s - 1 }')
        if (( quiet )); then echo "$waited"; return; fi
        if (( waited >= QUIET_TIMEOUT )); then
            echo "measure: targets still busy after ${waited} s; measuring anyway" >&2
            echo "$waited"; return
        fi
    done
}

# One generator run; appends "average cpu% busy% wait% per-cpu-second quiet-wait-s" to $OUT/NAME.runs.
run_once() {   # $1 = target, $2 = version, $3 = mode, $4 = run label, $5 = loops, $6 = warmup
    local target=$1 version=$2 mode=$3 label=$4 loops=$5 warmup=$6
    local name="${target/:/-io}-of$version-$mode" pid=${PID[$target]}
    local before waited started after ended settled
    settled=$(await_quiet)
    before=$(cpu_seconds "$pid"); waited=$(wait_seconds "$pid"); started=$(date +%s.%N)
    # A run the generator ends in error (the target dropped a switch, say) counts as 0 and is named,
    # rather than ending the whole measurement.
    if [[ $mode == latency-c ]]; then
        taskset -c "$GEN_CORE" "$OUT/pingpong" -D "$DELAY" -M "$LATENCY_MACS" "${PORT[$target]}" "$(wire_of "$version")" "$loops" \
            >"$OUT/$name.$label.txt" 2>"$OUT/$name.$label.err" \
            || echo "measure: $name $label: the C client failed ($(tail -n 1 "$OUT/$name.$label.err")); counted as 0" >&2
    elif [[ $mode == throughput-2g ]]; then
        # Two generator processes at once, each with half the switches (datapath ids from 1 and from half + 1).
        local g half=$((SWITCHES_2G / 2)) pids=()
        for g in 1 $((half + 1)); do
            taskset -c "$GEN_CORE" java -jar "$BENCH_JAR" -p "${PORT[$target]}" -V "$version" -l "$loops" -w "$warmup" \
                -m "$MS" -D "$DELAY" -t -s "$half" -M 100000 -o "$g" >"$OUT/$name.$label.$g.txt" 2>"$OUT/$name.$label.$g.err" &
            pids+=($!)
        done
        for g in "${pids[@]}"; do
            wait "$g" || echo "measure: $name $label: a generator failed; counted as 0" >&2
        done
    else
        # shellcheck disable=SC2046
        taskset -c "$GEN_CORE" java -jar "$BENCH_JAR" -p "${PORT[$target]}" -V "$version" -l "$loops" -w "$warmup" \
            -m "$MS" -D "$DELAY" $(flags_of "$mode") >"$OUT/$name.$label.txt" 2>"$OUT/$name.$label.err" \
            || echo "measure: $name $label: the generator failed ($(tail -n 1 "$OUT/$name.$label.err")); counted as 0" >&2
    fi
    after=$(cpu_seconds "$pid"); waited=$(awk -v a="$(wait_seconds "$pid")" -v b="$waited" 'BEGIN { print a - b }')
    ended=$(date +%s.%N)
    [[ $label == warmup ]] && return
    local avg busy cpu wait counted efficiency
    if [[ $mode == latency-c ]]; then
        # The C client's seconds after the first $warmup, averaged, as the generator's RESULT averages
        # its tests; every second's round trips counted.
        read -r avg counted < <(sed -n 's|^\([0-9]*\) round trips/s$|\1|p' "$OUT/$name.$label.txt" \
            | awk -v w="$warmup" '{ all += $1 } NR > w { s += $1; n++ } END { printf "%s %d\n", n ? s / n : 0, all }')
    else
        # One generator's output, or (throughput-2g) the two generators' figures added up.
        local outs=("$OUT/$name.$label".*txt) errs=("$OUT/$name.$label".*err)
        avg=$(sed -n 's|^RESULT: .* = [0-9.]*/[0-9.]*/\([0-9.]*\)/.*|\1|p' "${outs[@]}" | awk '{ s += $1 } END { print s + 0 }')
        counted=$(sed -n 's|^generator: .* \([0-9]*\) responses counted.*|\1|p' "${errs[@]}" | awk '{ s += $1 } END { print s + 0 }')
    fi
    busy=$(sed -n 's|^generator: event loop busy \([0-9]*\)%.*|\1|p' "$OUT/$name.$label".*err | paste -sd+)
    cpu=$(awk -v a="$after" -v b="$before" -v s="$started" -v e="$ended" 'BEGIN { printf "%.0f", 100 * (a - b) / (e - s) }')
    wait=$(awk -v w="$waited" -v s="$started" -v e="$ended" 'BEGIN { printf "%.0f", 100 * w / (e - s) }')
    # Responses per CPU-second of the target: what it does with the CPU it got, which the load of
    # other work on its core changes much less than the rate (a slight underestimate: the target's
    # CPU time includes the handshake and the pauses, the count only the tests).
    efficiency=$(awk -v n="${counted:-0}" -v a="$after" -v b="$before" 'BEGIN { printf "%.0f", (a > b) ? n / (a - b) : 0 }')
    echo "${avg:-0} $cpu ${busy:-?} $wait $efficiency $settled" >>"$OUT/$name.runs"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The median over the rounds of field $1 of runs file $2 divided by the same round's of runs file $3.
round_ratios() {
    paste -d' ' <(cut -d' ' -f"$1" "$2") <(cut -d' ' -f"$1" "$3") | awk '$2 > 0 { print $1 / $2 }' | median
}

measure_versions() {   # $1 = the start (1 to FORKS), the rest = the versions the targets started here answer
    local fork=$1 target round version mode
    shift
    # The data directories of a previous start go, so every start is a first start.
    rm -rf "$OUT"/data-*
    for target in $TARGETS; do
        start_target "$target" "$1"
    done
    echo "measure: targets up ($TARGETS) for OpenFlow $*, start $fork of $FORKS; warmup round, then $RUNS rounds; output in $OUT" >&2
    for round in warmup $(seq 1 "$RUNS"); do
        for version in "$@"; do
            for mode in $MODES; do
                for target in $TARGETS; do
                    if [[ $round == warmup ]]; then
                        run_once "$target" "$version" "$mode" warmup 3 1
                    else
                        run_once "$target" "$version" "$mode" "start$fork-run$round" "$LOOPS" "$WARMUP"
                    fi
                done
            done
        done
        echo "measure: round $round done, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    done
    stop_targets
}

for fork in $(seq 1 "$FORKS"); do
    if [[ $SHARED_VERSIONS == 1 ]]; then
        # shellcheck disable=SC2086
        measure_versions "$fork" $VERSIONS
    else
        for version in $VERSIONS; do
            measure_versions "$fork" "$version"
        done
    fi
done

printf '%-14s %-4s %-11s %12s\n' target OF mode median/s | tee "$OUT/summary.txt"
for version in $VERSIONS; do
    for mode in $MODES; do
        osken_runs="$OUT/osken-of$version-$mode.runs"
        c_runs="$OUT/c-responder-of$version-$mode.runs"
        for target in $TARGETS; do
            runs="$OUT/${target/:/-io}-of$version-$mode.runs"
            med=$(cut -d' ' -f1 "$runs" | median)
            ratio=""   # the median over the rounds of Heliograph's figure / the reference's in the same round
            if [[ $target == heliograph:* && -f $c_runs ]]; then
                ratio=$(printf '   of the C responder: %.3f' "$(round_ratios 1 "$runs" "$c_runs")")
            fi
            baseline_runs="$OUT/baseline-io${target#*:}-of$version-$mode.runs"
            if [[ $target == heliograph:* && -f $baseline_runs ]]; then
                ratio+=$(printf '   x baseline: %.3f' "$(round_ratios 1 "$runs" "$baseline_runs")")
            fi
            one_thread_runs="$OUT/heliograph-io1-of$version-$mode.runs"
            if [[ $target == heliograph:* && ${target#*:} != 1 && -f $one_thread_runs ]]; then
                rate_ratio=$(round_ratios 1 "$runs" "$one_thread_runs")
                ratio+=$(printf '   x 1 I/O thread: %.3f, per thread %.3f' "$rate_ratio" \
                    "$(awk -v r="$rate_ratio" -v n="${target#*:}" 'BEGIN { print r / n }')")
            fi
            bench_runs="$OUT/heliograph-io${target#*:}-of$version-$mode.runs"
            if [[ $target == full:* && -f $bench_runs ]]; then
                ratio+=$(printf '   x bench profile: %.3f' "$(round_ratios 1 "$runs" "$bench_runs")")
            fi
            c_client_runs="$OUT/${target/:/-io}-of$version-latency-c.runs"
            if [[ $mode == latency && -f $c_client_runs ]]; then
                ratio+=$(printf '   x C client: %.3f' "$(round_ratios 1 "$runs" "$c_client_runs")")
            fi
            if [[ $target == heliograph:* && -f $osken_runs ]]; then
                rate_ratio=$(round_ratios 1 "$runs" "$osken_runs") cpu_ratio=$(round_ratios 5 "$runs" "$osken_runs")
                ratio+=$(printf '   x os-ken: %.1f, per CPU-second %.1f' "${rate_ratio:-0}" "${cpu_ratio:-0}")
            fi
            printf '%-14s %-4s %-11s %12.0f   runs: %s   target CPU %%: %s   target waiting for CPU %%: %s   generator busy %%: %s   per target CPU-second: %s (median %s)   waited for quiet s: %s%s\n' \
                "$target" "$version" "$mode" "$med" "$(cut -d' ' -f1 "$runs" | xargs)" \
                "$(cut -d' ' -f2 "$runs" | xargs)" "$(cut -d' ' -f4 "$runs" | xargs)" \
                "$(cut -d' ' -f3 "$runs" | xargs)" "$(cut -d' ' -f5 "$runs" | xargs)" \
                "$(cut -d' ' -f5 "$runs" | median)" "$(cut -d' ' -f6 "$runs" | xargs)" "$ratio" | tee -a "$OUT/summary.txt"
        done
    done
done
