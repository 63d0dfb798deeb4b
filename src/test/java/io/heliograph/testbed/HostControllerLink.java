package io.heliograph.testbed;

/**
 * A host's own path to a controller in the root namespace, beside its data-plane {@code eth0}: the
 * same veth pair with a /30 of its own as the switches' {@link ControlLink} (the host's end is
 * {@code ctl}), for programs on the host that talk to the controller's REST API (libadu's ADU
 * reports), so that their traffic never crosses the switches under test. Deleting the host's
 * namespace takes the pair along; closing deletes it sooner.
 */
public final class HostControllerLink implements AutoCloseable {

    private final ControlLink link;

    private HostControllerLink(ControlLink link) {
        this.link = link;
    }

    /** Links {@code host} to the root namespace; {@code suffix} names the root end within the testbed's prefix. */
    public static HostControllerLink create(Testbed testbed, Host host, String suffix) {
        return new HostControllerLink(ControlLink.create(testbed.names().name(suffix), host.namespace()));
    }

    /** The root namespace's address as the host reaches it: a controller listening on all addresses answers there. */
    public String controllerAddress() {
        return link.controllerAddress();
    }

    @Override
    public void close() {
        link.close();
    }
}
