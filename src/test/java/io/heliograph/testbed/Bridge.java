package io.heliograph.testbed;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** One OVS bridge (an OpenFlow switch) of an {@link OvsInstance}. */
public final class Bridge {

    private final OvsInstance ovs;
    private final String name;
    private final long datapathId;
    private final List<String> protocols;
    private int nextPort = 1;

    Bridge(OvsInstance ovs, String name, long datapathId, List<String> protocols) {
        this.ovs = ovs;
        this.name = name;
        this.datapathId = datapathId;
        this.protocols = List.copyOf(protocols);
    }

    public String name() {
        return name;
    }

    public long datapathId() {
        return datapathId;
    }

    /** The datapath id as the controller prints it: 00:00:00:00:00:00:00:01. */
    public String dpid() {
        String hex = String.format("%016x", datapathId);
        return String.join(":", hex.split("(?<=\\G..)"));
    }

    public List<String> protocols() {
        return protocols;
    }

    public OvsInstance ovs() {
        return ovs;
    }

    /** The highest protocol the bridge speaks, as ovs-ofctl's -O argument. */
    public String protocol() {
        return protocols.get(protocols.size() - 1);
    }

    /** Adds an existing device as the next OpenFlow port and returns its port number. */
    public synchronized int addPort(String device) {
        int port = nextPort++;
        ovs.vsctl("add-port", name, device, "--", "set", "interface", device, "ofport_request=" + port);
        return port;
    }

    /** Sets the controller targets, e.g. "tcp:127.0.0.1:6653" or "ssl:127.0.0.1:6654". */
    public void setController(String... targets) {
        String[] args = new String[targets.length + 2];
        args[0] = "set-controller";
        args[1] = name;
        System.arraycopy(targets, 0, args, 2, targets.length);
        ovs.vsctl(args);
    }

    public void deleteController() {
        ovs.vsctl("del-controller", name);
    }

    /** Whether OVS reports a live connection to (one of) the bridge's controllers now. */
    public boolean isConnected() {
        String uuids = ovs.vsctl("get", "bridge", name, "controller").stdout().strip();
        // "[4c2f...-...]" or "[]"
        for (String uuid : uuids.replaceAll("[\\[\\]]", "").split(",\\s*")) {
            if (!uuid.isBlank() && ovs.vsctl("get", "controller", uuid.strip(), "is_connected").stdout().strip()
                    .equals("true")) {
                return true;
            }
        }
        return false;
    }

    /** Waits until OVS reports the controller connection (the column lags: poll, don't read once). */
    public void awaitConnected(Duration timeout) {
        Poll.until("bridge " + name + " connected to its controller", timeout, this::isConnected);
    }

    public List<FlowEntry> dumpFlows() {
        String out = ovs.ofctl("-O", protocol(), "dump-flows", name).stdout();
        return FlowEntry.parseDump(out);
    }

    /** Deletes the flows that match {@code match} non-strictly (every flow at least as specific). */
    public void deleteFlows(String match) {
        ovs.ofctl("-O", protocol(), "del-flows", name, match);
    }

    public String ofctl(String command, String... args) {
        String[] argv = new String[args.length + 4];
        argv[0] = "-O";
        argv[1] = protocol();
        argv[2] = command;
        argv[3] = name;
        System.arraycopy(args, 0, argv, 4, args.length);
        return ovs.ofctl(argv).stdout();
    }

    @Override
    public String toString() {
        return name + " (dpid " + String.format("%016x", datapathId) + ", " + Arrays.toString(protocols.toArray()) + ")";
    }
}
