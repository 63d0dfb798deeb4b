package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.TestPki;
import io.heliograph.testbed.Testbed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 2, item 5: OpenFlow over TLS with certificates made by the test. A switch whose certificate
 * the controller's trust store vouches for connects and forwards; one signed by another CA is refused.
 *
 * <p>Each switch side is its own OVS instance, since ovs-vsctl set-ssl is per instance.
 */
@Timeout(300)
class TlsIT {

    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static TestPki trusted;
    private static TestPki rogue;
    private static int tlsPort;

    @BeforeAll
    static void startController() {
        Path artifacts = ArtifactDirectory.forTest("TlsIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        Path pki = distribution.home().resolve("pki");
        trusted = TestPki.createAuthority(pki, "trusted");
        rogue = TestPki.createAuthority(pki, "rogue");
        TestPki.Issued controllerCert = trusted.issue("127.0.0.1");
        tlsPort = ControllerProcess.freePort();
        distribution.configure("io.heliograph.openflow", Map.of(
                "tls.port", Integer.toString(tlsPort),
                "tls.certificate", controllerCert.certificate().toString(),
                "tls.key", controllerCert.key().toString(),
                "tls.trust", trusted.caCertificate().toString()));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopController() {
        Cleanup cleanup = new Cleanup("TlsIT controller");
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void switchWithATrustedCertificateConnectsOverTlsAndForwards() {
        try (Testbed good = Testbed.start("TlsIT-trusted")) {
            TestPki.Issued switchCert = trusted.issue("switch-trusted");
            good.ovs().vsctl("set-ssl", switchCert.key().toString(), switchCert.certificate().toString(),
                    trusted.caCertificate().toString());
            Bridge s1 = good.addSwitch(1, List.of("OpenFlow13"));
            Host h1 = good.addHost(1, s1);
            Host h2 = good.addHost(2, s1);
            s1.setController(good.controllerTarget("ssl", tlsPort));
            controller.awaitSwitches(1, Duration.ofSeconds(30));
            s1.awaitConnected(Duration.ofSeconds(15));
            assertTrue(good.ovs().vsctl("get", "controller", controllerOf(s1), "target").stdout().contains("ssl:"));
            h1.awaitReachable(h2, Duration.ofSeconds(20));
            Host.PingResult pings = h2.ping(h1, 3);
            assertTrue(pings.allAnswered(), pings.output());
        } finally {
            controller.awaitSwitches(0, Duration.ofSeconds(30));
        }
    }

    @Test
    void switchWithACertificateFromAnotherAuthorityIsRefused() {
        try (Testbed bad = Testbed.start("TlsIT-untrusted")) {
            // the switch trusts the controller, so the refusal can only be the controller's
            TestPki.Issued rogueCert = rogue.issue("switch-rogue");
            bad.ovs().vsctl("set-ssl", rogueCert.key().toString(), rogueCert.certificate().toString(),
                    trusted.caCertificate().toString());
            Bridge s9 = bad.addSwitch(9, List.of("OpenFlow13"));
            int mark = controller.logMark();
            AtomicInteger mostSwitches = new AtomicInteger();
            s9.setController(bad.controllerTarget("ssl", tlsPort));
            // OVS retries with back-off; two refused connections show it is refused every time
            Poll.until("the controller to refuse the untrusted switch twice", Duration.ofSeconds(30), () -> {
                mostSwitches.accumulateAndGet(controller.health().orElseThrow().switches(), Math::max);
                return refusedConnections(controller.log().substring(mark));
            }, refusals -> refusals >= 2);
            assertEquals(0, mostSwitches.get(), "the untrusted switch was counted as connected");
            assertEquals(0, controller.health().orElseThrow().switches());
            assertFalse(s9.isConnected(), "OVS reports the untrusted bridge connected");
        }
    }

    private static String controllerOf(Bridge bridge) {
        return bridge.ovs().vsctl("get", "bridge", bridge.name(), "controller").stdout().replaceAll("[\\[\\]\\s]", "");
    }

    /** The controller's log line for a failed TLS handshake, naming the switch's address. */
    private static final Pattern TLS_REFUSAL = Pattern.compile("TLS (?:handshake with|failure with) (\\S+)");

    /** Distinct connections (switch address and port) the log says were refused at the TLS handshake. */
    private static int refusedConnections(String log) {
        Matcher m = TLS_REFUSAL.matcher(log);
        java.util.Set<String> remotes = new java.util.HashSet<>();
        while (m.find()) {
            remotes.add(m.group(1));
        }
        return remotes.size();
    }
}
