package io.heliograph.cluster.internal;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.function.Function;

/**
 * The configuration of pid {@value #PID} (etc/io.heliograph.cluster.cfg), checked. Its values refer
 * to framework properties the launcher sets ({@code zookeeper = ${heliograph.zookeeper}}); a value
 * that is blank or still holds an unsubstituted {@code ${...}} counts as absent, and an absent value
 * falls back to the framework property of the same meaning, then to the default:
 * <ul>
 * <li>{@code zookeeper}: connect string {@code host:port,...[/chroot]}; absent = the embedded server
 * <li>{@code instanceId}: absent = {@code heliograph.instance.id}, else the id kept in
 * {@code <data-dir>/instance-id}
 * <li>{@code embedded.port} (0 = a free loopback port at each start), {@code embedded.dir}
 * ({@code <data-dir>/zookeeper})
 * <li>{@code sessionTimeoutMs} (5000 with an ensemble: bounds the fail-over time when an instance freezes
 * or its host or network fails, while a dead process is found at once by {@link PeerWatch}; 10000 with
 * the embedded server, a cluster of one), {@code connectionTimeoutMs} (5000)
 * <li>{@code openflowAddress}, {@code httpAddress}: advertised in membership; the host is 127.0.0.1 with
 * the embedded server (a cluster of one machine), else the host's first non-loopback IPv4 address
 * <li>{@code livenessPort}: the port, on the OpenFlow address's host, where peers watch this process
 * live ({@link LivenessListener}); 0 (default) = a free port at each start
 * </ul>
 * A bad value is refused with an IllegalArgumentException naming the property.
 *
 * @param connectString the ensemble, or null to run the embedded server
 */
public record ClusterSettings(String connectString, String instanceId, int embeddedPort, Path embeddedDir,
                              int sessionTimeoutMs, int connectionTimeoutMs, String openflowAddress,
                              String httpAddress, int livenessPort) {

    public static final String PID = "io.heliograph.cluster";

    static final String ZOOKEEPER = "zookeeper";
    static final String INSTANCE_ID = "instanceId";
    static final String EMBEDDED_PORT = "embedded.port";
    static final String EMBEDDED_DIR = "embedded.dir";
    static final String SESSION_TIMEOUT = "sessionTimeoutMs";
    static final String CONNECTION_TIMEOUT = "connectionTimeoutMs";
    static final String OPENFLOW_ADDRESS = "openflowAddress";
    static final String HTTP_ADDRESS = "httpAddress";
    static final String LIVENESS_PORT = "livenessPort";

    /** Framework properties (FrameworkProperties in the launcher). */
    static final String ZOOKEEPER_PROPERTY = "heliograph.zookeeper";
    static final String INSTANCE_ID_PROPERTY = "heliograph.instance.id";
    static final String DATA_DIR_PROPERTY = "heliograph.data.dir";
    static final String OPENFLOW_PORT_PROPERTY = "heliograph.openflow.port";
    static final String HTTP_PORT_PROPERTY = "heliograph.http.port";

    /**
     * Outlasts a ZooKeeper leader election (up to 3 s of disconnection measured here) and a loaded
     * machine's stalls; a crashed instance's switches do not wait for it (see {@link PeerWatch}).
     */
    static final int DEFAULT_SESSION_TIMEOUT_MS = 5000;
    /**
     * With the embedded server the instance is a cluster of one: no other instance can take its
     * switches, so a short session buys nothing, while a CPU stall longer than it would demote the
     * instance from every switch until the session is back.
     */
    static final int DEFAULT_EMBEDDED_SESSION_TIMEOUT_MS = 10_000;
    static final int DEFAULT_CONNECTION_TIMEOUT_MS = 5000;
    /** Below this ZooKeeper's ticks get too short to be kept on a loaded machine. */
    static final int MIN_SESSION_TIMEOUT_MS = 100;
    static final String LOOPBACK = "127.0.0.1";

    public ClusterSettings {
        if (connectString != null) {
            ConnectString.check(ZOOKEEPER, connectString);
        }
        StoreKeys.requireSegment(INSTANCE_ID, instanceId);
        if (embeddedPort < 0 || embeddedPort > 65535) {
            throw new IllegalArgumentException(EMBEDDED_PORT + " must be 0 (a free port) or 1-65535, got " + embeddedPort);
        }
        if (livenessPort < 0 || livenessPort > 65535) {
            throw new IllegalArgumentException(LIVENESS_PORT + " must be 0 (a free port) or 1-65535, got " + livenessPort);
        }
        if (sessionTimeoutMs < MIN_SESSION_TIMEOUT_MS) {
            throw new IllegalArgumentException(SESSION_TIMEOUT + " must be at least " + MIN_SESSION_TIMEOUT_MS
                    + " ms, got " + sessionTimeoutMs);
        }
        if (connectionTimeoutMs <= 0) {
            throw new IllegalArgumentException(CONNECTION_TIMEOUT + " must be a positive number of milliseconds, got "
                    + connectionTimeoutMs);
        }
    }

    /** Whether this instance runs its own single-node ZooKeeper. */
    public boolean embedded() {
        return connectString == null;
    }

    /**
     * The settings from a configuration and the framework properties.
     *
     * @throws IllegalArgumentException naming the property with a bad value
     * @throws IOException              when the instance id file cannot be read or written
     */
    public static ClusterSettings from(Map<String, ?> config, Function<String, String> frameworkProperties)
            throws IOException {
        Values values = new Values(config == null ? Map.of() : config, frameworkProperties);
        Path dataDir = values.path(DATA_DIR_PROPERTY, values.property(DATA_DIR_PROPERTY), Path.of("data"));

        String connect = values.get(ZOOKEEPER, ZOOKEEPER_PROPERTY);
        String instanceId = values.get(INSTANCE_ID, INSTANCE_ID_PROPERTY);
        if (instanceId == null) {
            instanceId = InstanceIdFile.readOrCreate(dataDir);
        }
        int embeddedPort = values.integer(EMBEDDED_PORT, 0);
        Path embeddedDir = values.path(EMBEDDED_DIR, values.get(EMBEDDED_DIR, null), dataDir.resolve("zookeeper"));
        int sessionTimeout = values.integer(SESSION_TIMEOUT,
                connect == null ? DEFAULT_EMBEDDED_SESSION_TIMEOUT_MS : DEFAULT_SESSION_TIMEOUT_MS);
        int connectionTimeout = values.integer(CONNECTION_TIMEOUT, DEFAULT_CONNECTION_TIMEOUT_MS);

        String host = connect == null ? LOOPBACK : firstHostAddress();
        String openflow = values.address(OPENFLOW_ADDRESS, host, values.port(OPENFLOW_PORT_PROPERTY, 6653));
        String http = values.address(HTTP_ADDRESS, host, values.port(HTTP_PORT_PROPERTY, 8080));
        return new ClusterSettings(connect, instanceId, embeddedPort, embeddedDir, sessionTimeout,
                connectionTimeout, openflow, http, values.integer(LIVENESS_PORT, 0));
    }

    /** The host of the advertised OpenFlow address, where the liveness port is bound. */
    String advertisedHost() {
        return openflowAddress.substring(0, openflowAddress.lastIndexOf(':'));
    }

    /** The first IPv4 address of an interface that is up and not loopback, else 127.0.0.1. */
    static String firstHostAddress() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress()
                            && !address.isLinkLocalAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            // no interfaces to ask: loopback below
        }
        return LOOPBACK;
    }

    /** Blank or unsubstituted ({@code ${...}}) values count as absent. */
    static boolean absent(String value) {
        return value == null || value.isBlank() || value.contains("${");
    }

    private record Values(Map<String, ?> config, Function<String, String> frameworkProperties) {

        /** The configured value, else the framework property (if any), else null. */
        String get(String key, String property) {
            Object raw = config.get(key);
            String value = raw == null ? null : String.valueOf(raw).strip();
            if (!absent(value)) {
                return value;
            }
            return property == null ? null : property(property);
        }

        String property(String name) {
            String value = frameworkProperties.apply(name);
            return absent(value) ? null : value.strip();
        }

        int integer(String key, int otherwise) {
            String value = get(key, null);
            if (value == null) {
                return otherwise;
            }
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a whole number, got '" + value + "'");
            }
        }

        int port(String property, int otherwise) {
            String value = property(property);
            if (value == null) {
                return otherwise;
            }
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(property + " must be a port number, got '" + value + "'");
            }
        }

        Path path(String key, String value, Path otherwise) {
            if (value == null) {
                return otherwise;
            }
            try {
                return Path.of(value);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException(key + " is not a path: '" + value + "' (" + e.getReason() + ")");
            }
        }

        String address(String key, String host, int port) {
            String value = get(key, null);
            if (value == null) {
                return host + ":" + port;
            }
            ConnectString.checkHostPort(key, value, value);
            return value;
        }
    }
}
