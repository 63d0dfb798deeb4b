#!/usr/bin/env bash
# deploy/heliograph demo: one controller plus a real Open vSwitch network connected to it.
#
#   s1 --- s2 --- ... --- sN       N userspace OVS bridges in a line (private OVS instance whose
#   |      |              |         ovs-vswitchd and ports are in namespace hgdemosw)
#   h1     h2             hN       hosts in network namespaces, 10.0.0.i/24
#
# ovs-vswitchd runs in a namespace of its own because the userspace datapath creates a tap device
# named ovs-netdev: two instances in one namespace collide, and the second one's bridges fail. The
# switches reach the controller over a veth pair, hgdemoctl (198.18.255.253/30 in the root namespace)
# to ctl (198.18.255.254 in hgdemosw).
#
# Everything it starts (controller, OVS daemons, namespaces, veths) is torn down on Ctrl-C or exit,
# by pid and by the names it created. Needs root; installs missing Debian packages
# (openvswitch-switch, iputils-ping, ethtool, iproute2, curl, iperf3).
#
# Usage: demo.sh [--switches N] [--protocol OpenFlow13] [run options: --openflow-port N --http-port N
#                 --data-dir DIR ...]
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HELIOGRAPH="$HERE/../heliograph"
PREFIX=hgdemo                      # every device and namespace name starts with it (<= 15 chars)
SWNS="${PREFIX}sw"                 # the switches' namespace
CONTROLLER_ADDRESS=198.18.255.253  # root end of the control link (198.18.0.0/15: for network tests)
SWITCH_ADDRESS=198.18.255.254
SWITCHES=3
PROTOCOLS=OpenFlow10,OpenFlow13,OpenFlow14,OpenFlow15
OPENFLOW_PORT=6653
HTTP_PORT=8080
RUN_ARGS=()

usage() {
    sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
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
need_packages=()
command -v ovs-vswitchd >/dev/null 2>&1 || [ -x /usr/sbin/ovs-vswitchd ] || need_packages+=(openvswitch-switch)
command -v ping >/dev/null 2>&1 || need_packages+=(iputils-ping)
command -v ethtool >/dev/null 2>&1 || [ -x /usr/sbin/ethtool ] || need_packages+=(ethtool)
command -v ip >/dev/null 2>&1 || need_packages+=(iproute2)
command -v curl >/dev/null 2>&1 || need_packages+=(curl)
command -v iperf3 >/dev/null 2>&1 || need_packages+=(iperf3)
if [ ${#need_packages[@]} -gt 0 ]; then
    say "installing ${need_packages[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_packages[@]}" >/dev/null
fi
export PATH="$PATH:/usr/sbin:/sbin"

if ip netns list | grep -q "^$PREFIX" || ip -o link show | grep -q ": $PREFIX" ||
   ip -4 -o addr show | grep -q " $CONTROLLER_ADDRESS/"; then
    die "devices or namespaces named $PREFIX* exist: is another demo running? (ip netns list; ip link)"
fi

# --- teardown (registered before anything starts) -------------------------------------------------
WORK="$(mktemp -d /tmp/hgdemo.XXXXXX)"
export OVS_RUNDIR="$WORK" OVS_LOGDIR="$WORK" OVS_DBDIR="$WORK" OVS_SYSCONFDIR="$WORK"
CONTROLLER_PID=""
TAIL_PID=""
OVS_PIDS=()

pid_alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

# Waits up to $2 tenths of a second for pid $1 to end; returns 1 if it is still there.
wait_gone() {
    local pid="$1" tenths="$2"
    while pid_alive "$pid" && [ "$tenths" -gt 0 ]; do sleep 0.1; tenths=$((tenths - 1)); done
    ! pid_alive "$pid"
}

teardown() {
    trap - EXIT INT TERM
    set +e
    echo
    say "tearing down"
    if pid_alive "$TAIL_PID"; then kill "$TAIL_PID" 2>/dev/null; fi
    if pid_alive "$CONTROLLER_PID"; then
        # the controller runs in its own process group (setsid): end the group, i.e. script and JVM
        kill -TERM -- "-$CONTROLLER_PID" 2>/dev/null
        wait_gone "$CONTROLLER_PID" 150 || kill -KILL -- "-$CONTROLLER_PID" 2>/dev/null
    fi
    for i in $(seq 1 "$SWITCHES"); do
        ip netns del "${PREFIX}h$i" 2>/dev/null
        [ -S "$WORK/db.sock" ] && ovs-vsctl --timeout=5 --if-exists del-br "${PREFIX}s$i" 2>/dev/null
    done
    ovs-appctl --timeout=5 -t ovs-vswitchd exit 2>/dev/null
    ovs-appctl --timeout=5 -t ovsdb-server exit 2>/dev/null
    for pid in "${OVS_PIDS[@]}"; do
        wait_gone "$pid" 50 || { kill -TERM "$pid" 2>/dev/null; wait_gone "$pid" 50 || kill -KILL "$pid" 2>/dev/null; }
    done
    # every port, link and leftover tap goes with the namespace; the control link's root end too
    ip netns del "$SWNS" 2>/dev/null
    ip link del "${PREFIX}ctl" 2>/dev/null
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

# Polls until "$@" succeeds or $1 seconds pass (the controller's death ends the wait at once).
await() {
    local seconds="$1" what="$2"; shift 2
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null; do
        pid_alive "$CONTROLLER_PID" || { tail -n 30 "$WORK/controller.log" >&2; die "the controller exited while waiting for $what"; }
        [ "$SECONDS" -lt "$deadline" ] || { tail -n 30 "$WORK/controller.log" >&2; die "no $what after ${seconds}s"; }
        sleep 0.2
    done
}
# the first run builds the distribution, which takes a few minutes
await 900 "controller answering on http://127.0.0.1:$HTTP_PORT/api/v1/health" health
say "controller up: $(health)"

# --- Open vSwitch ---------------------------------------------------------------------------------
in_sw() { ip netns exec "$SWNS" "$@"; }
ip netns add "$SWNS"
ip -n "$SWNS" link set lo up
ip link add "${PREFIX}ctl" type veth peer name ctl netns "$SWNS"
ip addr add "$CONTROLLER_ADDRESS/30" dev "${PREFIX}ctl"
ip link set "${PREFIX}ctl" up
ip -n "$SWNS" addr add "$SWITCH_ADDRESS/30" dev ctl
ip -n "$SWNS" link set ctl up

ovsdb-tool create "$WORK/conf.db" /usr/share/openvswitch/vswitch.ovsschema
ovsdb-server "$WORK/conf.db" --remote="punix:$WORK/db.sock" --pidfile="$WORK/ovsdb-server.pid" \
    --log-file="$WORK/ovsdb-server.log" --detach --no-chdir 2>/dev/null
OVS_PIDS+=("$(cat "$WORK/ovsdb-server.pid")")
ovs-vsctl --no-wait init
in_sw ovs-vswitchd "unix:$WORK/db.sock" --pidfile="$WORK/ovs-vswitchd.pid" --log-file="$WORK/ovs-vswitchd.log" \
    --detach --no-chdir 2>/dev/null
OVS_PIDS+=("$(cat "$WORK/ovs-vswitchd.pid")")

for i in $(seq 1 "$SWITCHES"); do
    br="${PREFIX}s$i"
    # userspace datapath: the kernel here may have no OVS module; fail-mode secure: only the
    # controller makes the bridge forward
    ovs-vsctl add-br "$br" -- set bridge "$br" datapath_type=netdev protocols="$PROTOCOLS" fail-mode=secure \
        other-config:datapath-id="$(printf '%016x' "$i")" other-config:disable-in-band=true

    h="${PREFIX}h$i"
    ip netns add "$h"
    ip link add "$h" netns "$SWNS" type veth peer name eth0 netns "$h"
    # no IPv6: router solicitations and MLD reports would only be noise for the controller
    ip netns exec "$h" sh -c 'echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6'
    in_sw sh -c "echo 1 > /proc/sys/net/ipv6/conf/$h/disable_ipv6"
    ip -n "$h" link set eth0 address "$(printf '02:00:00:00:00:%02x' "$i")"
    ip -n "$h" addr add "10.0.0.$i/24" dev eth0
    ip -n "$h" link set lo up
    ip -n "$h" link set eth0 up
    ip netns exec "$h" ethtool -K eth0 tx off >/dev/null    # TCP through a userspace bridge needs it
    in_sw ethtool -K "$h" tx off >/dev/null
    ip -n "$SWNS" link set "$h" up
    ovs-vsctl add-port "$br" "$h" -- set interface "$h" ofport_request=1
done
for i in $(seq 1 $((SWITCHES - 1))); do
    a="${PREFIX}s${i}s$((i + 1))"; b="${PREFIX}s$((i + 1))s$i"
    ip -n "$SWNS" link add "$a" type veth peer name "$b"
    for dev in "$a" "$b"; do
        in_sw ethtool -K "$dev" tx off >/dev/null
        in_sw sh -c "echo 1 > /proc/sys/net/ipv6/conf/$dev/disable_ipv6"
        ip -n "$SWNS" link set "$dev" up
    done
    ovs-vsctl add-port "${PREFIX}s$i" "$a" -- add-port "${PREFIX}s$((i + 1))" "$b"
done
for i in $(seq 1 "$SWITCHES"); do
    ovs-vsctl set-controller "${PREFIX}s$i" "tcp:$CONTROLLER_ADDRESS:$OPENFLOW_PORT"
done

switches_connected() { health | grep -Eq "\"switches\" *: *$SWITCHES *[,}]"; }
await 60 "$SWITCHES switches connected" switches_connected

last="${PREFIX}h$SWITCHES"
cat <<EOF

  Heliograph is running with $SWITCHES Open vSwitch bridges in a line, one host on each:
    switches  ${PREFIX}s1 .. ${PREFIX}s$SWITCHES   (OpenFlow ports; protocols $PROTOCOLS)
    hosts     ${PREFIX}h1 .. $last   at 10.0.0.1 .. 10.0.0.$SWITCHES

  Try, in another terminal (as root):
    ip netns exec ${PREFIX}h1 ping -c 3 10.0.0.$SWITCHES
    OVS_RUNDIR=$WORK ovs-ofctl -O OpenFlow13 dump-flows ${PREFIX}s1
    curl -s http://127.0.0.1:$HTTP_PORT/api/v1/health
    ip netns exec $last iperf3 -s -1 & sleep 1; ip netns exec ${PREFIX}h1 iperf3 -c 10.0.0.$SWITCHES -n 10M

  Controller log follows. Ctrl-C tears everything down.

EOF
tail -n +1 -f "$WORK/controller.log" &
TAIL_PID=$!
wait "$CONTROLLER_PID" || true
die "the controller exited; see $WORK/controller.log"
