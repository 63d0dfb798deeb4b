#!/usr/bin/env bash
# deploy/heliograph demo: one controller plus a real Open vSwitch network connected to it.
#
#   s1 --- s2 --- ... --- sN       N userspace OVS bridges in a line (private OVS instance whose
#   |      |              |         ovs-vswitchd and ports are in namespace hgdemosw)
#   h1     h2             hN       hosts in network namespaces, 10.0.0.i/24
#
# The network (ovs-network.sh, shared with cluster-demo.sh): ovs-vswitchd in a namespace of its own,
# the switches reaching the controller over a veth pair, hgdemoctl (198.18.255.253/30 in the root
# namespace) to ctl (198.18.255.254 in hgdemosw).
#
# Everything it starts (controller, OVS daemons, namespaces, veths) is torn down on Ctrl-C or exit,
# by pid and by the names it created. Needs root; installs missing Debian packages
# (openvswitch-switch, iputils-ping, ethtool, iproute2, curl, iperf3).
#
# Usage: deploy/heliograph demo [--switches N] [--protocol OpenFlow13] [run options: --openflow-port N
#                                --http-port N --data-dir DIR ...]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HELIOGRAPH="$HERE/../heliograph"
PREFIX=hgdemo                      # every device and namespace name starts with it (<= 15 chars)
CONTROLLER_ADDRESS=198.18.255.253  # root end of the control link (198.18.0.0/15: for network tests)
SWITCH_ADDRESS=198.18.255.254
SWITCHES=3
PROTOCOLS=OpenFlow10,OpenFlow13,OpenFlow14,OpenFlow15
OPENFLOW_PORT=6653
HTTP_PORT=8080
DATA_DIR="$HERE/../target/heliograph/data"   # heliograph run's default
RUN_ARGS=()

usage() {
    sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --switches) SWITCHES="${2:?--switches needs a number}"; shift 2 ;;
        --switches=*) SWITCHES="${1#*=}"; shift ;;
        --protocol) PROTOCOLS="${2:?--protocol needs e.g. OpenFlow13}"; shift 2 ;;
        --protocol=*) PROTOCOLS="${1#*=}"; shift ;;
        --openflow-port) OPENFLOW_PORT="${2:?--openflow-port needs a port}"; RUN_ARGS+=("$1" "$2"); shift 2 ;;
        --openflow-port=*) OPENFLOW_PORT="${1#*=}"; RUN_ARGS+=("$1"); shift ;;
        --http-port) HTTP_PORT="${2:?--http-port needs a port}"; RUN_ARGS+=("$1" "$2"); shift 2 ;;
        --http-port=*) HTTP_PORT="${1#*=}"; RUN_ARGS+=("$1"); shift ;;
        --data-dir) DATA_DIR="${2:?--data-dir needs a directory}"; RUN_ARGS+=("$1" "$2"); shift 2 ;;
        --data-dir=*) DATA_DIR="${1#*=}"; RUN_ARGS+=("$1"); shift ;;
        -h|--help) usage; exit 0 ;;
        *) RUN_ARGS+=("$1"); shift ;;
    esac
done

die() { echo "demo: $*" >&2; exit 1; }
say() { echo "demo: $*"; }

case "$SWITCHES" in
    ''|*[!0-9]*) die "--switches must be a number from 1 to 50, got '$SWITCHES'" ;;
esac
[ "$SWITCHES" -ge 1 ] && [ "$SWITCHES" -le 50 ] || die "--switches must be from 1 to 50, got $SWITCHES"
[ "$(id -u)" = 0 ] || die "needs root (network namespaces, veth pairs, Open vSwitch); try: sudo $0"

# --- packages -------------------------------------------------------------------------------------
NET_SCRIPT=demo
# shellcheck source=ovs-network.sh
. "$HERE/ovs-network.sh"
net_require_packages
net_require_unused

# --- teardown (registered before anything starts) -------------------------------------------------
WORK="$(mktemp -d /tmp/hgdemo.XXXXXX)"
CONTROLLER_PID=""
TAIL_PID=""

teardown() {
    trap - EXIT INT TERM
    set +e
    echo
    say "tearing down"
    if net_pid_alive "$TAIL_PID"; then kill "$TAIL_PID" 2>/dev/null; fi
    if net_pid_alive "$CONTROLLER_PID"; then
        # the controller runs in its own process group (setsid): end the group, i.e. script and JVM
        kill -TERM -- "-$CONTROLLER_PID" 2>/dev/null
        net_wait_gone "$CONTROLLER_PID" 150 || kill -KILL -- "-$CONTROLLER_PID" 2>/dev/null
    fi
    net_teardown
    say "controller log kept in $WORK/controller.log"
    find "$WORK" -mindepth 1 -not -name '*.log' -delete 2>/dev/null
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- controller -----------------------------------------------------------------------------------
say "starting the controller (deploy/heliograph run ${RUN_ARGS[*]:-}); log: $WORK/controller.log"
# own session and process group, so teardown can end the script and its JVM together by this pid;
# stdin from /dev/null: the demo's terminal stays ours
setsid "$HELIOGRAPH" run "${RUN_ARGS[@]}" </dev/null >"$WORK/controller.log" 2>&1 &
CONTROLLER_PID=$!

health() { curl -sf --max-time 2 "http://127.0.0.1:$HTTP_PORT/api/v1/health" 2>/dev/null; }

# Polls until "$@" succeeds or $1 seconds pass (the controller's death ends the wait at once); every
# 15 s it shows the log's last line, so a first run's build is seen to progress.
await() {
    local seconds="$1" what="$2"; shift 2
    local deadline=$((SECONDS + seconds)) shown=$SECONDS
    until "$@" >/dev/null; do
        net_pid_alive "$CONTROLLER_PID" || { tail -n 30 "$WORK/controller.log" >&2; die "the controller exited while waiting for $what"; }
        [ "$SECONDS" -lt "$deadline" ] || { tail -n 30 "$WORK/controller.log" >&2; die "no $what after ${seconds}s"; }
        if [ $((SECONDS - shown)) -ge 15 ]; then
            shown=$SECONDS
            say "waiting for $what (${SECONDS}s): $(tail -n 1 "$WORK/controller.log" | cut -c1-100)"
        fi
        sleep 0.2
    done
}
say "a first run builds the distribution first (a few minutes; Maven's progress shows below every 15 s)"
await 900 "controller answering on http://127.0.0.1:$HTTP_PORT/api/v1/health" health
say "controller up: $(health)"

# --- Open vSwitch ---------------------------------------------------------------------------------
net_start
net_line
net_connect "tcp:$CONTROLLER_ADDRESS:$OPENFLOW_PORT"

switches_connected() { health | grep -Eq "\"switches\" *: *$SWITCHES *[,}]"; }
await 60 "$SWITCHES switches connected" switches_connected

last="${PREFIX}h$SWITCHES"
CREDENTIALS="$(cd "$DATA_DIR" 2>/dev/null && pwd)/initial-credentials"
if [ -r "$CREDENTIALS" ]; then
    LOGIN="user $(sed -n 's/^username=//p' "$CREDENTIALS")  password $(sed -n 's/^password=//p' "$CREDENTIALS")  (from $CREDENTIALS)"
else
    LOGIN="user admin, with the password you set (the first start wrote it to $CREDENTIALS)"
fi
cat <<EOF

  Heliograph is running with $SWITCHES Open vSwitch bridges in a line, one host on each.
    web UI    http://127.0.0.1:$HTTP_PORT/   $LOGIN
    switches  ${PREFIX}s1 .. ${PREFIX}s$SWITCHES   (OpenFlow ports; protocols $PROTOCOLS)
    hosts     ${PREFIX}h1 .. $last   at 10.0.0.1 .. 10.0.0.$SWITCHES

  Try, in another terminal (as root):
    ip netns exec ${PREFIX}h1 ping -c 3 10.0.0.$SWITCHES
    OVS_RUNDIR=$WORK ovs-ofctl -O OpenFlow13 dump-flows ${PREFIX}s1    (the demo's private Open vSwitch)
    curl -s http://127.0.0.1:$HTTP_PORT/api/v1/health
    ip netns exec $last iperf3 -s -1 & sleep 1; ip netns exec ${PREFIX}h1 iperf3 -c 10.0.0.$SWITCHES -n 10M

  Controller log follows. Ctrl-C tears everything down.

EOF
tail -n +1 -f "$WORK/controller.log" &
TAIL_PID=$!
wait "$CONTROLLER_PID" || true
die "the controller exited; see $WORK/controller.log"
