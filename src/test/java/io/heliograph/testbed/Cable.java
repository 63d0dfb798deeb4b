package io.heliograph.testbed;

/**
 * A switch-to-switch link of a testbed: a veth pair whose ends are ports of two bridges. Bringing
 * one end down is pulling the cable: both bridges see their port's link go down.
 */
public record Cable(String namespace, Bridge a, int aPort, String aDevice, Bridge b, int bPort, String bDevice) {

    /** Pulls the cable: the {@code a} end goes down, and with it the carrier of the {@code b} end. */
    public void down() {
        Command.of("ip", "-n", namespace, "link", "set", aDevice, "down").check();
    }

    /** Plugs the cable back in. */
    public void up() {
        Command.of("ip", "-n", namespace, "link", "set", aDevice, "up").check();
    }

    public boolean connects(Bridge bridge, int port) {
        return (a.equals(bridge) && aPort == port) || (b.equals(bridge) && bPort == port);
    }

    /** The bridge at the other end from {@code bridge}. */
    public Bridge peerOf(Bridge bridge) {
        return a.equals(bridge) ? b : a;
    }

    /** The port of {@code bridge} this cable is plugged into. */
    public int portOn(Bridge bridge) {
        if (!a.equals(bridge) && !b.equals(bridge)) {
            throw new IllegalArgumentException(bridge + " is not an end of " + this);
        }
        return a.equals(bridge) ? aPort : bPort;
    }

    /** The two directed links the controller should report, as "dpid/port -> dpid/port". */
    public java.util.Set<String> directedLinks() {
        String aEnd = a.dpid() + "/" + aPort;
        String bEnd = b.dpid() + "/" + bPort;
        return java.util.Set.of(aEnd + " -> " + bEnd, bEnd + " -> " + aEnd);
    }

    @Override
    public String toString() {
        return a.name() + "/" + aPort + " <-> " + b.name() + "/" + bPort;
    }
}
