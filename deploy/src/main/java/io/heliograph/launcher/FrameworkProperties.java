package io.heliograph.launcher;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.osgi.framework.Constants;

/**
 * The framework properties of one controller: where the framework keeps its state, which JDK
 * packages bundles may import, and the {@code heliograph.*} values that etc/*.cfg files refer to as
 * {@code ${heliograph.openflow.port}} and so on (FileInstall substitutes them from these properties):
 * the ports, the OpenFlow I/O threads ({@code --io-threads}), which hot/ jars the profile runs (and
 * the packet-in rate it sets), the
 * ZooKeeper ensemble ({@code --zookeeper}) and the instance's name in the cluster.
 */
public final class FrameworkProperties {

    public static final String HOME = "heliograph.home";
    public static final String DATA_DIR = "heliograph.data.dir";
    public static final String OPENFLOW_PORT = "heliograph.openflow.port";
    public static final String HTTP_PORT = "heliograph.http.port";
    /** ioThreads of io.heliograph.openflow; "0" leaves the component's default. */
    public static final String OPENFLOW_IO_THREADS = "heliograph.openflow.io.threads";
    /**
     * packetInRate of io.heliograph.openflow, set only by a profile that changes it (bench: 0,
     * unlimited); etc/io.heliograph.openflow.cfg gives the default when it is not set.
     */
    public static final String PACKET_IN_RATE = "heliograph.openflow.packet.in.rate";
    /** felix.fileinstall.filter of the hot/ watcher: the profile's apps. */
    public static final String HOT_FILTER = "heliograph.hot.filter";
    /** The ZooKeeper connect string of {@code --zookeeper}; empty: the cluster bundle runs an embedded server. */
    public static final String ZOOKEEPER = "heliograph.zookeeper";
    /** This instance's name in the cluster: {@code --instance-id}, else the one kept in the data directory. */
    public static final String INSTANCE_ID = "heliograph.instance.id";

    /** How often FileInstall looks at etc/ and hot/: short, so a dropped jar is live within a second. */
    static final String POLL_MS = "500";

    private FrameworkProperties() {
    }

    public static Map<String, String> of(Distribution distribution, Path dataDir, String instanceId,
                                         LaunchOptions options) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(Constants.FRAMEWORK_STORAGE, dataDir.resolve("osgi").toString());
        // A controller starts from its distribution, not from whatever the last run left installed.
        p.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        // Bundles must import what they use: no silent fallback to the application class loader.
        p.put("osgi.compatibility.bootdelegation", "false");
        // On Java 9+ Equinox exports every package of the boot layer's modules, which includes
        // com.sun.net.httpserver (web bundle) and sun.misc (Netty's Unsafe access). What it adds from
        // the class path is the logging: SLF4J and its backend (LauncherLog).
        p.put(Constants.FRAMEWORK_SYSTEMPACKAGES_EXTRA, SystemPackages.logging());

        p.put(HOME, distribution.home().toString());
        p.put(DATA_DIR, dataDir.toString());
        p.put(OPENFLOW_PORT, Integer.toString(options.openflowPort()));
        p.put(HTTP_PORT, Integer.toString(options.httpPort()));
        p.put(OPENFLOW_IO_THREADS, Integer.toString(options.ioThreads()));
        p.put(HOT_FILTER, options.profile().hotFilter());
        if (options.profile().packetInRate() != null) {
            p.put(PACKET_IN_RATE, options.profile().packetInRate());
        }
        p.put(ZOOKEEPER, options.zookeeper().orElse(""));
        p.put(INSTANCE_ID, instanceId);

        // FileInstall: etc/*.cfg into Configuration Admin. The hot/ watcher is a second FileInstall
        // configuration, etc/org.apache.felix.fileinstall-hot.cfg, so it is configured like any other.
        p.put("felix.fileinstall.dir", distribution.etc().toString());
        p.put("felix.fileinstall.filter", ".*\\.cfg");
        p.put("felix.fileinstall.poll", POLL_MS);
        p.put("felix.fileinstall.noInitialDelay", "true");
        // etc/ is the operator's: never write runtime changes back into it.
        p.put("felix.fileinstall.enableConfigSave", "false");
        p.put("felix.fileinstall.log.level", "3");

        p.put("ds.loglevel", "warn");

        // Gogo: an interactive shell on stdin/stdout only with --console; otherwise it never reads stdin.
        p.put("gosh.args", options.console() ? "" : "--nointeractive --noshutdown");
        // its login script, etc/gosh_profile: Heliograph's commands first (help, exit)
        p.put("gosh.home", distribution.home().toString());
        return p;
    }
}
