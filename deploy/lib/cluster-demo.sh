#!/usr/bin/env bash
# deploy/heliograph cluster-demo: a Heliograph cluster on one machine.
#
#   zookeeper-1..3   a three-server ZooKeeper ensemble (heliograph zookeeper), on 127.0.0.1
#   c1, c2, c3       three controller instances on it (heliograph run --zookeeper ... --instance-id cN)
#   s1 - s2 - ... - sN   userspace Open vSwitch bridges in a line, host hI (10.0.0.I) on sI; every
#                    switch connects to c1, c2 and c3, and exactly one of them is its MASTER
#
# The network is ovs-network.sh's (as in demo.sh), with the switches reaching the controllers at
# 198.18.255.249 over hgcdemoctl. It prints each instance's REST / web UI address and its initial
# credentials, then follows the three controllers' logs. Everything it starts (ZooKeeper servers,
# controllers, OVS daemons, namespaces, veths) is torn down on Ctrl-C, SIGTERM or exit, by pid and by
# the names it created; while it runs, <work>/pids lists every process it started ("name pid").
# Needs root; installs missing Debian packages (openvswitch-switch, iputils-ping, ethtool, iproute2,
# curl, iperf3).
#
# Usage: deploy/heliograph cluster-demo [--switches N] [--protocol OpenFlow13] [--prefix NAME]
#          [--openflow-ports P1,P2,P3] [--http-ports P1,P2,P3]
#          [--ensemble HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,... (three servers)]
# Defaults: 3 switches, OpenFlow 1.0 to 1.5, prefix hgcdemo, OpenFlow ports 6653,6654,6655, HTTP ports
# 8080,8081,8082, ensemble 127.0.0.1:2888:3888:2181,127.0.0.1:2889:3889:2182,127.0.0.1:2890:3890:2183.
# JAVA_OPTS goes to the controllers, ZOOKEEPER_JAVA_OPTS (default -Xmx128m -XX:+UseSerialGC) to the servers.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HELIOGRAPH="$HERE/../heliograph"
PREFIX=hgcdemo
CONTROLLER_ADDRESS=198.18.255.249  # root end of the control link (not demo.sh's, so both can run)
SWITCH_ADDRESS=198.18.255.250
SWITCHES=3
PROTOCOLS=OpenFlow10,OpenFlow13,OpenFlow14,OpenFlow15
OPENFLOW_PORTS=6653,6654,6655
HTTP_PORTS=8080,8081,8082
ENSEMBLE=127.0.0.1:2888:3888:2181,127.0.0.1:2889:3889:2182,127.0.0.1:2890:3890:2183
INSTANCES=(c1 c2 c3)

usage() {
    sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

die() { echo "cluster-demo: $*" >&2; exit 1; }
bad_option() { echo "cluster-demo: $*" >&2; exit 2; }
say() { echo "cluster-demo: $*"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --switches) SWITCHES="${2:?--switches needs a number}"; shift 2 ;;
        --switches=*) SWITCHES="${1#*=}"; shift ;;
        --protocol) PROTOCOLS="${2:?--protocol needs e.g. OpenFlow13}"; shift 2 ;;
        --protocol=*) PROTOCOLS="${1#*=}"; shift ;;
        --prefix) PREFIX="${2:?--prefix needs a name}"; shift 2 ;;
        --prefix=*) PREFIX="${1#*=}"; shift ;;
        --openflow-ports) OPENFLOW_PORTS="${2:?--openflow-ports needs three ports}"; shift 2 ;;
        --openflow-ports=*) OPENFLOW_PORTS="${1#*=}"; shift ;;
        --http-ports) HTTP_PORTS="${2:?--http-ports needs three ports}"; shift 2 ;;
        --http-ports=*) HTTP_PORTS="${1#*=}"; shift ;;
        --ensemble) ENSEMBLE="${2:?--ensemble needs three HOST:PEERPORT:ELECTIONPORT:CLIENTPORT}"; shift 2 ;;
        --ensemble=*) ENSEMBLE="${1#*=}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; bad_option "unknown option '$1'" ;;
    esac
done

# --- options --------------------------------------------------------------------------------------
case "$SWITCHES" in
    ''|*[!0-9]*) bad_option "--switches must be a number from 1 to 50, got '$SWITCHES'" ;;
esac
[ "$SWITCHES" -ge 1 ] && [ "$SWITCHES" -le 50 ] || bad_option "--switches must be from 1 to 50, got $SWITCHES"
[[ "$PREFIX" =~ ^[a-z][a-z0-9]{0,8}$ ]] ||
    bad_option "--prefix must be 1-9 lower-case letters and digits starting with a letter (names are <= 15 chars), got '$PREFIX'"

# Splits a list of three ports into the array named $1; $2 names the option for errors.
three_ports() {
    local -n into="$1"
    local option="$2" list="$3" p
    IFS=, read -r -a into <<<"$list"
    [ "${#into[@]}" -eq 3 ] || bad_option "$option takes three ports separated by commas, got '$list'"
    for p in "${into[@]}"; do
        [[ "$p" =~ ^[0-9]{1,5}$ ]] && [ "$p" -ge 1 ] && [ "$p" -le 65535 ] ||
            bad_option "$option: '$p' is not a TCP port number (1-65535)"
    done
}
three_ports OPENFLOW "--openflow-ports" "$OPENFLOW_PORTS"
three_ports HTTP "--http-ports" "$HTTP_PORTS"

IFS=, read -r -a SERVERS <<<"$ENSEMBLE"
[ "${#SERVERS[@]}" -eq 3 ] || bad_option "--ensemble lists three servers (HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,...), got '$ENSEMBLE'"
ZK_CLIENT=()
for s in "${SERVERS[@]}"; do
    [[ "$s" =~ ^([^:]+):([0-9]{1,5}):([0-9]{1,5}):([0-9]{1,5})$ ]] ||
        bad_option "--ensemble takes HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,...; '$s' is not that"
    ZK_CLIENT+=("${BASH_REMATCH[1]}:${BASH_REMATCH[4]}")
done
CONNECT=$(IFS=,; echo "${ZK_CLIENT[*]}")

[ "$(id -u)" = 0 ] || die "needs root (network namespaces, veth pairs, Open vSwitch); try: sudo $0"

# Whether something accepts connections on host:port.
listening() { (exec 3<>"/dev/tcp/${1%:*}/${1##*:}") 2>/dev/null; }
for address in "${ZK_CLIENT[@]}" "${OPENFLOW[@]/#/127.0.0.1:}" "${HTTP[@]/#/127.0.0.1:}"; do
    if listening "$address"; then
        die "something already listens on $address: stop it or choose other ports (--help)"
    fi
done

NET_SCRIPT=cluster-demo
# shellcheck source=ovs-network.sh
. "$HERE/ovs-network.sh"
net_require_packages
net_require_unused

# --- teardown (registered before anything starts) -------------------------------------------------
WORK="$(mktemp -d "/tmp/$PREFIX.XXXXXX")"
PIDS_FILE="$WORK/pids"
declare -A PID=()          # name -> pid of a process group leader this script started
TAIL_PID=""
: >"$PIDS_FILE"

# Ends the process groups of "$@" (names in PID): SIGTERM to all, then SIGKILL to whatever is left after 15 s.
end_groups() {
    local name
    for name in "$@"; do
        net_pid_alive "${PID[$name]:-}" && kill -TERM -- "-${PID[$name]}" 2>/dev/null
    done
    for name in "$@"; do
        if net_pid_alive "${PID[$name]:-}" && ! net_wait_gone "${PID[$name]}" 150; then
            say "$name (pid ${PID[$name]}) did not stop within 15 s: killing it"
            kill -KILL -- "-${PID[$name]}" 2>/dev/null
            net_wait_gone "${PID[$name]}" 50
        fi
    done
}

teardown() {
    trap - EXIT INT TERM
    set +e
    echo
    say "tearing down"
    if net_pid_alive "$TAIL_PID"; then kill "$TAIL_PID" 2>/dev/null; fi
    # controllers first, so they hand their switches to each other and leave ZooKeeper cleanly
    end_groups "${INSTANCES[@]}"
    end_groups zookeeper-1 zookeeper-2 zookeeper-3
    net_teardown
    say "logs kept in $WORK"
    find "$WORK" -mindepth 1 -not -name '*.log' -delete 2>/dev/null
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Starts "$@" as $1's process group (own session: teardown ends it and its children by this pid),
# stdin from /dev/null, output to $WORK/$1.log; the pid goes into PID and the pids file.
start_group() {
    local name="$1"; shift
    setsid "$@" </dev/null >"$WORK/$name.log" 2>&1 &
    PID[$name]=$!
    echo "$name ${PID[$name]}" >>"$PIDS_FILE"
}

# Polls until "$@" succeeds or $1 seconds pass; any started process dying ends the wait at once.
await() {
    local seconds="$1" what="$2"; shift 2
    local deadline=$((SECONDS + seconds)) name
    until "$@" >/dev/null 2>&1; do
        for name in "${!PID[@]}"; do
            net_pid_alive "${PID[$name]}" ||
                { tail -n 30 "$WORK/$name.log" >&2; die "$name exited while waiting for $what (log $WORK/$name.log)"; }
        done
        [ "$SECONDS" -lt "$deadline" ] || die "no $what after ${seconds}s (logs in $WORK)"
        sleep 0.3
    done
}

# --- ZooKeeper ------------------------------------------------------------------------------------
say "starting a ZooKeeper ensemble of three servers ($CONNECT); work directory $WORK"
for n in 1 2 3; do
    JAVA_OPTS="${ZOOKEEPER_JAVA_OPTS:--Xmx128m -XX:+UseSerialGC}" start_group "zookeeper-$n" \
        "$HELIOGRAPH" zookeeper --server-id "$n" --data-dir "$WORK/zookeeper-$n" --ensemble "$ENSEMBLE"
done

# The server's mode ("leader", "follower") from the four-letter command srvr; fails while it does not serve.
zookeeper_mode() {
    local reply
    reply=$(timeout 3 bash -c 'exec 3<>"/dev/tcp/${1%:*}/${1##*:}" && printf srvr >&3 && cat <&3' _ "$1") || return 1
    sed -n 's/^Mode: //p' <<<"$reply" | grep .
}
quorum() {
    local a modes=""
    for a in "${ZK_CLIENT[@]}"; do modes+="$(zookeeper_mode "$a" || true) "; done
    [ "$(grep -o leader <<<"$modes" | wc -l)" -eq 1 ] && [ "$(grep -o follower <<<"$modes" | wc -l)" -ge 1 ]
}
await 120 "ZooKeeper quorum (a leader and a follower)" quorum

# --- controllers ----------------------------------------------------------------------------------
for i in 0 1 2; do
    id="${INSTANCES[$i]}"
    start_group "$id" "$HELIOGRAPH" run --openflow-port "${OPENFLOW[$i]}" --http-port "${HTTP[$i]}" \
        --data-dir "$WORK/$id" --zookeeper "$CONNECT" --instance-id "$id"
done
say "starting controllers ${INSTANCES[*]} (logs $WORK/c1.log ...)"
health() { curl -sf --max-time 2 "http://127.0.0.1:$1/api/v1/health"; }
for i in 0 1 2; do
    await 180 "${INSTANCES[$i]} answering on http://127.0.0.1:${HTTP[$i]}/api/v1/health" health "${HTTP[$i]}"
done

# --- Open vSwitch ---------------------------------------------------------------------------------
net_start
echo "ovsdb-server ${NET_OVS_PIDS[0]}" >>"$PIDS_FILE"
echo "ovs-vswitchd ${NET_OVS_PIDS[1]}" >>"$PIDS_FILE"
net_line
TARGETS=()
for i in 0 1 2; do TARGETS+=("tcp:$CONTROLLER_ADDRESS:${OPENFLOW[$i]}"); done
net_connect "${TARGETS[@]}"
net_max_backoff 1000

switches_connected() { health "$1" | grep -Eq "\"switches\" *: *$SWITCHES *[,}]"; }
for i in 0 1 2; do
    await 60 "$SWITCHES switches connected to ${INSTANCES[$i]}" switches_connected "${HTTP[$i]}"
done
one_master_each() { [ "$(net_roles | awk '{ n = gsub(/=master/, "") } n != 1' | wc -l)" -eq 0 ]; }
await 60 "one master for every switch" one_master_each

# --- ready ----------------------------------------------------------------------------------------
credential() { sed -n "s/^$2=//p" "$WORK/$1/initial-credentials" 2>/dev/null; }
instance_of() {
    local i
    for i in 0 1 2; do
        if [ "${1##*:}" = "${OPENFLOW[$i]}" ]; then echo "${INSTANCES[$i]}"; fi
    done
}
last="${PREFIX}h$SWITCHES"
echo
echo "  A Heliograph cluster is running: three instances on a three-server ZooKeeper ensemble, and"
echo "  $SWITCHES Open vSwitch bridges in a line, each connected to all three instances."
echo
for i in 0 1 2; do
    id="${INSTANCES[$i]}"
    printf '    %s  REST and web UI http://127.0.0.1:%s   user %s  password %s   (OpenFlow %s, pid %s)\n' \
        "$id" "${HTTP[$i]}" "$(credential "$id" username)" "$(credential "$id" password)" "${OPENFLOW[$i]}" "${PID[$id]}"
done
echo "    ZooKeeper  $CONNECT"
echo "    switches   ${PREFIX}s1 .. ${PREFIX}s$SWITCHES   hosts ${PREFIX}h1 .. $last at 10.0.0.1 .. 10.0.0.$SWITCHES"
echo
echo "  Masters, as the switches report them:"
net_roles | while read -r bridge roles; do
    master=""
    for r in $roles; do
        if [ "${r#*=}" = master ]; then master=$(instance_of "${r%=*}"); fi
    done
    echo "    $bridge  $master"
done
cat <<EOF

  Try, in another terminal (as root):
    ip netns exec ${PREFIX}h1 ping -c 3 10.0.0.$SWITCHES
    OVS_RUNDIR=$WORK ovs-vsctl --columns=target,role,is_connected list controller
    curl -s -u admin:PASSWORD http://127.0.0.1:${HTTP[0]}/api/v1/controller
    kill -9 ${PID[c1]}     (c1 dies: c2 and c3 take its switches within the session timeout)

  Every process it started: $PIDS_FILE. Controller logs follow; Ctrl-C tears everything down.

EOF
tail -n 0 -f "$WORK/c1.log" "$WORK/c2.log" "$WORK/c3.log" &
TAIL_PID=$!
echo "tail $TAIL_PID" >>"$PIDS_FILE"
# last: once it says so, the pids file lists every process (the log follower too)
say "ready"
# an instance ending (killed to watch the fail-over) does not end the demo: only Ctrl-C or SIGTERM do
wait "$TAIL_PID" || true
