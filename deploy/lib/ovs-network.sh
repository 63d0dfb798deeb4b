# Sourced by the demos (demo.sh, cluster-demo.sh): a real Open vSwitch network on this machine.
#
#   s1 --- s2 --- ... --- sN       N userspace OVS bridges in a line (private OVS instance whose
#   |      |              |         ovs-vswitchd and ports are in namespace <prefix>sw)
#   h1     h2             hN       hosts in network namespaces, 10.0.0.i/24
#
# ovs-vswitchd runs in a namespace of its own because the userspace datapath creates a tap device
# named ovs-netdev: two instances in one namespace collide, and the second one's bridges fail. The
# switches reach the controllers over a veth pair, <prefix>ctl ($CONTROLLER_ADDRESS/30 in the root
# namespace) to ctl ($SWITCH_ADDRESS in <prefix>sw); controllers listening on all addresses of the
# root namespace are at $CONTROLLER_ADDRESS.
#
# The caller sets, before calling these functions:
#   PREFIX              every device and namespace name starts with it (short: names are <= 15 chars)
#   CONTROLLER_ADDRESS  root end of the control link, SWITCH_ADDRESS its switch end (one /30)
#   SWITCHES            how many switches (and hosts); PROTOCOLS  the bridges' OpenFlow versions
#   WORK                a private directory for OVS's database, sockets, pid files and logs
# and net_teardown undoes everything net_start and net_line made, by pid and by the names they made.

NET_SWNS=""          # the switches' namespace, once made
NET_OVS_PIDS=()      # ovsdb-server, ovs-vswitchd

net_die() { echo "${NET_SCRIPT:-network}: $*" >&2; exit 1; }

# Installs the Debian packages the network needs (and curl, iperf3 for the demos' examples).
net_require_packages() {
    local need=()
    command -v ovs-vswitchd >/dev/null 2>&1 || [ -x /usr/sbin/ovs-vswitchd ] || need+=(openvswitch-switch)
    command -v ping >/dev/null 2>&1 || need+=(iputils-ping)
    command -v ethtool >/dev/null 2>&1 || [ -x /usr/sbin/ethtool ] || need+=(ethtool)
    command -v ip >/dev/null 2>&1 || need+=(iproute2)
    command -v curl >/dev/null 2>&1 || need+=(curl)
    command -v iperf3 >/dev/null 2>&1 || need+=(iperf3)
    if [ ${#need[@]} -gt 0 ]; then
        echo "${NET_SCRIPT:-network}: installing ${need[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    fi
    export PATH="$PATH:/usr/sbin:/sbin"
}

# Refuses to start over another network with the same names or control address.
net_require_unused() {
    if ip netns list | grep -q "^$PREFIX" || ip -o link show | grep -q ": $PREFIX" ||
       ip -4 -o addr show | grep -q " $CONTROLLER_ADDRESS/"; then
        net_die "devices or namespaces named $PREFIX* (or the address $CONTROLLER_ADDRESS) exist: is another demo running? (ip netns list; ip link)"
    fi
}

net_pid_alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

# Waits up to $2 tenths of a second for pid $1 to end; returns 1 if it is still there.
net_wait_gone() {
    local pid="$1" tenths="$2"
    while net_pid_alive "$pid" && [ "$tenths" -gt 0 ]; do sleep 0.1; tenths=$((tenths - 1)); done
    ! net_pid_alive "$pid"
}

net_in_sw() { ip netns exec "$NET_SWNS" "$@"; }

# The switches' namespace, the control link and a private OVS (ovsdb-server, ovs-vswitchd) in $WORK.
net_start() {
    export OVS_RUNDIR="$WORK" OVS_LOGDIR="$WORK" OVS_DBDIR="$WORK" OVS_SYSCONFDIR="$WORK"
    NET_SWNS="${PREFIX}sw"
    ip netns add "$NET_SWNS"
    ip -n "$NET_SWNS" link set lo up
    ip link add "${PREFIX}ctl" type veth peer name ctl netns "$NET_SWNS"
    ip addr add "$CONTROLLER_ADDRESS/30" dev "${PREFIX}ctl"
    ip link set "${PREFIX}ctl" up
    ip -n "$NET_SWNS" addr add "$SWITCH_ADDRESS/30" dev ctl
    ip -n "$NET_SWNS" link set ctl up

    ovsdb-tool create "$WORK/conf.db" /usr/share/openvswitch/vswitch.ovsschema
    ovsdb-server "$WORK/conf.db" --remote="punix:$WORK/db.sock" --pidfile="$WORK/ovsdb-server.pid" \
        --log-file="$WORK/ovsdb-server.log" --detach --no-chdir 2>/dev/null
    NET_OVS_PIDS+=("$(cat "$WORK/ovsdb-server.pid")")
    ovs-vsctl --no-wait init
    net_in_sw ovs-vswitchd "unix:$WORK/db.sock" --pidfile="$WORK/ovs-vswitchd.pid" --log-file="$WORK/ovs-vswitchd.log" \
        --detach --no-chdir 2>/dev/null
    NET_OVS_PIDS+=("$(cat "$WORK/ovs-vswitchd.pid")")
}

# $SWITCHES bridges <prefix>s1..sN in a line, host <prefix>hI (10.0.0.I) on port 1 of sI.
net_line() {
    local i br h a b dev
    for i in $(seq 1 "$SWITCHES"); do
        br="${PREFIX}s$i"
        # userspace datapath: the kernel here may have no OVS module; fail-mode secure: only the
        # controller makes the bridge forward
        ovs-vsctl add-br "$br" -- set bridge "$br" datapath_type=netdev protocols="$PROTOCOLS" fail-mode=secure \
            other-config:datapath-id="$(printf '%016x' "$i")" other-config:disable-in-band=true

        h="${PREFIX}h$i"
        ip netns add "$h"
        ip link add "$h" netns "$NET_SWNS" type veth peer name eth0 netns "$h"
        # no IPv6: router solicitations and MLD reports would only be noise for the controller
        ip netns exec "$h" sh -c 'echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6'
        net_in_sw sh -c "echo 1 > /proc/sys/net/ipv6/conf/$h/disable_ipv6"
        ip -n "$h" link set eth0 address "$(printf '02:00:00:00:00:%02x' "$i")"
        ip -n "$h" addr add "10.0.0.$i/24" dev eth0
        ip -n "$h" link set lo up
        ip -n "$h" link set eth0 up
        ip netns exec "$h" ethtool -K eth0 tx off >/dev/null    # TCP through a userspace bridge needs it
        net_in_sw ethtool -K "$h" tx off >/dev/null
        ip -n "$NET_SWNS" link set "$h" up
        ovs-vsctl add-port "$br" "$h" -- set interface "$h" ofport_request=1
    done
    for i in $(seq 1 $((SWITCHES - 1))); do
        a="${PREFIX}s${i}s$((i + 1))"; b="${PREFIX}s$((i + 1))s$i"
        ip -n "$NET_SWNS" link add "$a" type veth peer name "$b"
        for dev in "$a" "$b"; do
            net_in_sw ethtool -K "$dev" tx off >/dev/null
            net_in_sw sh -c "echo 1 > /proc/sys/net/ipv6/conf/$dev/disable_ipv6"
            ip -n "$NET_SWNS" link set "$dev" up
        done
        ovs-vsctl add-port "${PREFIX}s$i" "$a" -- add-port "${PREFIX}s$((i + 1))" "$b"
    done
}

# Points every switch at the controllers "$@" (targets such as tcp:ADDRESS:PORT): with several, each
# switch connects to all of them.
net_connect() {
    local i
    for i in $(seq 1 "$SWITCHES"); do
        ovs-vsctl set-controller "${PREFIX}s$i" "$@"
    done
}

# Every controller connection retries at least every $1 ms (OVS's default backs off to 8 s), so a
# restarted controller is found again quickly.
net_max_backoff() {
    local uuid
    for uuid in $(ovs-vsctl --bare --columns=_uuid list controller); do
        ovs-vsctl set controller "$uuid" "max_backoff=$1"
    done
}

# Bridge -> role of each controller target, one line per bridge: "<prefix>s1 tcp:...:6653=master ...".
net_roles() {
    local i uuid
    for i in $(seq 1 "$SWITCHES"); do
        printf '%s' "${PREFIX}s$i"
        for uuid in $(ovs-vsctl get bridge "${PREFIX}s$i" controller | tr -d '[],'); do
            printf ' %s=%s' "$(ovs-vsctl get controller "$uuid" target | tr -d '"')" \
                "$(ovs-vsctl get controller "$uuid" role 2>/dev/null || echo none)"
        done
        echo
    done
}

# Removes hosts, bridges, OVS (by its pids) and the namespaces and links, whatever is left of them.
net_teardown() {
    local i pid
    for i in $(seq 1 "$SWITCHES"); do
        ip netns del "${PREFIX}h$i" 2>/dev/null
        [ -S "$WORK/db.sock" ] && ovs-vsctl --timeout=5 --if-exists del-br "${PREFIX}s$i" 2>/dev/null
    done
    ovs-appctl --timeout=5 -t ovs-vswitchd exit 2>/dev/null
    ovs-appctl --timeout=5 -t ovsdb-server exit 2>/dev/null
    for pid in "${NET_OVS_PIDS[@]}"; do
        net_wait_gone "$pid" 50 || { kill -TERM "$pid" 2>/dev/null; net_wait_gone "$pid" 50 || kill -KILL "$pid" 2>/dev/null; }
    done
    # every port, link and leftover tap goes with the namespace; the control link's root end too
    [ -n "$NET_SWNS" ] && ip netns del "$NET_SWNS" 2>/dev/null
    ip link del "${PREFIX}ctl" 2>/dev/null
    return 0
}
