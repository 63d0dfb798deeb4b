package io.heliograph.launcher.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.heliograph.launcher.LaunchOptions.UsageException;

class ZooKeeperServerOptionsTest {

    private static final String THREE = "127.0.0.1:2888:3888:2181,127.0.0.1:2889:3889:2182,127.0.0.1:2890:3890:2183";

    @Test
    void defaultsAreAStandaloneServerOnPort2181WithA100MsTick() throws Exception {
        ZooKeeperServerOptions o = ZooKeeperServerOptions.parse();
        assertTrue(o.standalone());
        assertEquals(2181, o.port());
        assertEquals(Optional.empty(), o.dataDir());
        assertEquals(100, o.tickMs());
        assertEquals(0, o.serverId());
        assertFalse(o.help());
    }

    @Test
    void standaloneOptionsWithSeparateAndInlineValues() throws Exception {
        ZooKeeperServerOptions o = ZooKeeperServerOptions.parse("--port", "12181", "--data-dir=/tmp/zk",
                "--tick-ms=50");
        assertEquals(12181, o.port());
        assertEquals(Optional.of(Path.of("/tmp/zk")), o.dataDir());
        assertEquals(50, o.tickMs());
    }

    @Test
    void anEnsembleMemberTakesItsClientPortFromTheEnsemble() throws Exception {
        ZooKeeperServerOptions o = ZooKeeperServerOptions.parse("--ensemble", THREE, "--server-id", "2");
        assertFalse(o.standalone());
        assertEquals(List.of(new EnsembleMember("127.0.0.1", 2888, 3888, 2181),
                new EnsembleMember("127.0.0.1", 2889, 3889, 2182), new EnsembleMember("127.0.0.1", 2890, 3890, 2183)),
                o.ensemble());
        assertEquals(2, o.serverId());
        assertEquals(new EnsembleMember("127.0.0.1", 2889, 3889, 2182), o.self());
        assertEquals(2182, o.port());
        assertEquals(2182, ZooKeeperServerOptions.parse("--ensemble=" + THREE, "--server-id=2", "--port=2182").port(),
                "a --port that agrees is fine");
    }

    @Test
    void helpIsRecognisedWhateverElseIsGiven() throws Exception {
        assertTrue(ZooKeeperServerOptions.parse("--help").help());
        assertTrue(ZooKeeperServerOptions.parse("--ensemble", THREE, "-h").help());
    }

    @Test
    void badFlagsNameTheFlag() {
        assertError("--port must be a TCP port number (1-65535), got 'abc'", "--port", "abc");
        assertError("--port must be a TCP port number (1-65535), got '0'", "--port=0");
        assertError("--port must be a TCP port number (1-65535), got '65536'", "--port", "65536");
        assertError("--port needs a value", "--port");
        assertError("--port needs a value", "--port", "--tick-ms", "10");
        assertError("--data-dir needs a directory, got an empty value", "--data-dir=");
        assertError("--tick-ms must be a number of milliseconds (10-30000), got '5'", "--tick-ms", "5");
        assertError("--tick-ms must be a number of milliseconds (10-30000), got '1s'", "--tick-ms", "1s");
        assertError("--tick-ms must be a number of milliseconds (10-30000), got '30001'", "--tick-ms", "30001");
        assertError("--server-id must be a server number (1-255), got 'one'", "--ensemble", THREE, "--server-id",
                "one");
        assertError("--server-id says which server of --ensemble this is; there is no --ensemble", "--server-id", "1");
        assertError("--server-id is needed with --ensemble: which of its 3 servers is this one (1-3)?",
                "--ensemble", THREE);
        assertError("--server-id 4 is not a server of --ensemble, which has 3 (1-3)", "--ensemble", THREE,
                "--server-id", "4");
        assertError("--port 2181 disagrees with --ensemble, where server 3 has client port 2183 (leave --port out)",
                "--ensemble", THREE, "--server-id", "3", "--port", "2181");
        assertError("--help takes no value, got 'yes'", "--help=yes");
        assertError("unknown option '--prot'", "--prot", "2181");
        assertError("unknown option 'start'", "start");
    }

    @Test
    void badEnsemblesNameTheBadPart() {
        assertError("--ensemble: in 'b:2889:x:2182' the election port must be 1-65535, got 'x'",
                "--ensemble", "a:2888:3888:2181,b:2889:x:2182", "--server-id", "1");
        assertError("--ensemble: in 'b:2889:3889:0' the client port must be 1-65535, got '0'",
                "--ensemble", "a:2888:3888:2181,b:2889:3889:0", "--server-id", "1");
        assertError("--ensemble: in 'a:99999:3888:2181' the peer port must be 1-65535, got '99999'",
                "--ensemble", "a:99999:3888:2181,b:2889:3889:2182", "--server-id", "1");
        assertError("--ensemble takes HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,...; 'b:2181' is not that",
                "--ensemble", "a:2888:3888:2181,b:2181", "--server-id", "1");
        assertError("--ensemble takes HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,...; '' is not that",
                "--ensemble", "a:2888:3888:2181,", "--server-id", "1");
        assertError("--ensemble takes HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,...; ':2888:3888:2181' is not that",
                "--ensemble", ":2888:3888:2181,b:2889:3889:2182", "--server-id", "1");
        assertError("--ensemble: 127.0.0.1:2181 is used twice (in '127.0.0.1:2888:3888:2181' and"
                + " '127.0.0.1:2889:3889:2181'): every port of every server must differ",
                "--ensemble", "127.0.0.1:2888:3888:2181,127.0.0.1:2889:3889:2181", "--server-id", "1");
        assertError("--ensemble: a:2888 is used twice (in 'a:2888:2888:2181'): every port of every server must differ", "--ensemble", "a:2888:2888:2181,b:2889:3889:2182", "--server-id", "1");
        assertError("--ensemble needs at least 2 servers (3 to survive the loss of one); for a single server leave"
                + " --ensemble out", "--ensemble", "a:2888:3888:2181", "--server-id", "1");
        assertError("--ensemble needs HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,..., got an empty value", "--ensemble=");
    }

    @Test
    void theSameHostAndPortOnDifferentHostsIsFine() throws Exception {
        ZooKeeperServerOptions o = ZooKeeperServerOptions.parse("--ensemble",
                "zk1:2888:3888:2181,zk2:2888:3888:2181,zk3:2888:3888:2181", "--server-id", "3");
        assertEquals(new EnsembleMember("zk3", 2888, 3888, 2181), o.self());
    }

    private static void assertError(String message, String... args) {
        UsageException e = assertThrows(UsageException.class, () -> ZooKeeperServerOptions.parse(args));
        assertEquals(message, e.getMessage());
    }
}
