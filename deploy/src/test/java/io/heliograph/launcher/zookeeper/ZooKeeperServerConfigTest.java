package io.heliograph.launcher.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeer.QuorumServer;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The zoo.cfg we write, read back by ZooKeeper's own configuration parser. */
class ZooKeeperServerConfigTest {

    private static final String THREE = "127.0.0.1:2888:3888:2181,127.0.0.1:2889:3889:2182,127.0.0.1:2890:3890:2183";

    @TempDir
    Path dataDir;

    @Test
    void aStandaloneServerListensOnLoopbackWithSessionsFromTwoTicksToAMinute() throws Exception {
        Path file = new ZooKeeperServerConfig(ZooKeeperServerOptions.parse("--port", "12181"), dataDir).write();
        assertEquals(dataDir.resolve("zoo.cfg"), file);
        assertFalse(Files.exists(dataDir.resolve("myid")), "a standalone server has no id");

        ServerConfig config = new ServerConfig();
        config.parse(file.toString());
        assertEquals(new InetSocketAddress("127.0.0.1", 12181), config.getClientPortAddress());
        assertEquals(100, config.getTickTime());
        assertEquals(200, config.getMinSessionTimeout());
        assertEquals(60_000, config.getMaxSessionTimeout());
        assertEquals(dataDir.toFile(), config.getDataDir());
        assertEquals(dataDir.toFile(), config.getDataLogDir());
        // keys ZooKeeper leaves to system properties
        assertEquals("false", System.getProperty("zookeeper.admin.enableServer"));
        assertEquals("ruok,srvr,mntr,stat", System.getProperty("zookeeper.4lw.commands.whitelist"));
    }

    @Test
    void anEnsembleServerKnowsEveryPeerItsIdAndLimitsInTicks() throws Exception {
        ZooKeeperServerOptions options = ZooKeeperServerOptions.parse("--ensemble", THREE, "--server-id", "3",
                "--tick-ms", "50");
        Path file = new ZooKeeperServerConfig(options, dataDir).write();
        assertEquals("3", Files.readString(dataDir.resolve("myid")).strip());

        QuorumPeerConfig config = new QuorumPeerConfig();
        config.parse(file.toString());
        assertEquals(3, config.getServerId());
        assertEquals(50, config.getTickTime());
        assertEquals(100, config.getMinSessionTimeout());
        assertEquals(200, config.getInitLimit(), "10 s of 50 ms ticks");
        assertEquals(40, config.getSyncLimit(), "2 s of 50 ms ticks");
        assertEquals(new InetSocketAddress("127.0.0.1", 2183), config.getClientPortAddress());
        Map<Long, QuorumServer> servers = config.getQuorumVerifier().getVotingMembers();
        assertEquals(3, servers.size());
        assertEquals(new InetSocketAddress("127.0.0.1", 2889), servers.get(2L).addr.getReachableOrOne());
        assertEquals(new InetSocketAddress("127.0.0.1", 3889), servers.get(2L).electionAddr.getReachableOrOne());
    }

    @Test
    void longTicksKeepZooKeepersOwnMinimumLimits() throws Exception {
        Map<String, String> settings = new ZooKeeperServerConfig(ZooKeeperServerOptions.parse("--ensemble", THREE,
                "--server-id", "1", "--tick-ms", "30000"), dataDir).settings();
        assertEquals("10", settings.get("initLimit"));
        assertEquals("2", settings.get("syncLimit"));
        assertEquals("60000", settings.get("minSessionTimeout"));
    }

    @Test
    void anEnsembleOnOtherHostsServesClientsOnItsOwnHost() throws Exception {
        Map<String, String> settings = new ZooKeeperServerConfig(ZooKeeperServerOptions.parse("--ensemble",
                "10.0.0.1:2888:3888:2181,10.0.0.2:2888:3888:2181,10.0.0.3:2888:3888:2181", "--server-id", "2"),
                dataDir).settings();
        assertEquals("10.0.0.2", settings.get("clientPortAddress"));
        assertEquals("2181", settings.get("clientPort"));
    }

    @Test
    void aDataDirectoryOfAnotherServerIsRefusedAndLeftAlone() throws Exception {
        new ZooKeeperServerConfig(ZooKeeperServerOptions.parse("--ensemble", THREE, "--server-id", "1"), dataDir)
                .write();
        ZooKeeperServerConfig second = new ZooKeeperServerConfig(
                ZooKeeperServerOptions.parse("--ensemble", THREE, "--server-id", "2"), dataDir);
        IOException e = assertThrows(IOException.class, second::write);
        assertEquals(dataDir + " holds the data of server 1 (" + dataDir.resolve("myid") + "), not of --server-id 2:"
                + " give each server its own --data-dir", e.getMessage());
        assertEquals("1", Files.readString(dataDir.resolve("myid")).strip());

        new ZooKeeperServerConfig(ZooKeeperServerOptions.parse("--ensemble", THREE, "--server-id", "1"), dataDir)
                .write();
        assertEquals("1", Files.readString(dataDir.resolve("myid")).strip(), "the same server starts again");
    }

    @Test
    void eachStartRewritesTheConfigurationAndLeavesNoTemporaryFile() throws Exception {
        new ZooKeeperServerConfig(ZooKeeperServerOptions.parse("--port", "2181"), dataDir).write();
        Path file = new ZooKeeperServerConfig(ZooKeeperServerOptions.parse("--port", "2182"), dataDir).write();
        assertTrue(Files.readAllLines(file).contains("clientPort=2182"), Files.readString(file));
        assertFalse(Files.readAllLines(file).contains("clientPort=2181"), Files.readString(file));
        try (Stream<Path> files = Files.list(dataDir)) {
            assertEquals(List.of(file), files.toList());
        }
    }
}
