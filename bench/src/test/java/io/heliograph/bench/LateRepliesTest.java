package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;

/**
 * A late statistics answer over a real socket, from the generator's own event loop: it comes no
 * sooner than {@code --stats-delay} after the request, and meanwhile the switch's packet-ins go on
 * being sent and answered.
 */
@Timeout(60)
class LateRepliesTest {

    private static final int DELAY_MS = 1500;

    @Test
    void aLateStatisticsAnswerHoldsNothingElseBack() throws Exception {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_10);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            AtomicInteger packetInsWhileWaiting = new AtomicInteger();
            AtomicLong waitedNanos = new AtomicLong(-1);
            Thread controller = new Thread(() -> {
                try (Socket socket = server.accept()) {
                    DataInputStream in = new DataInputStream(socket.getInputStream());
                    OutputStream out = socket.getOutputStream();
                    ProbingController.send(out, f.buildHello().build());
                    ProbingController.send(out, f.buildFeaturesRequest().setXid(1).build());
                    long asked = 0;
                    while (true) {
                        OFMessage m = ProbingController.read(in);
                        if (m instanceof OFFeaturesReply) {
                            asked = System.nanoTime();
                            ProbingController.send(out, f.buildFlowStatsRequest().setXid(99).setMatch(f.buildMatch().build())
                                    .setTableId(TableId.ALL).setOutPort(OFPort.ANY).build());
                        } else if (m instanceof OFPacketIn pi) {
                            if (waitedNanos.get() < 0 && asked != 0) {
                                packetInsWhileWaiting.incrementAndGet();
                            }
                            ProbingController.send(out, f.buildFlowAdd().setBufferId(pi.getBufferId()).build());
                        } else if (m instanceof OFFlowStatsReply reply && reply.getXid() == 99) {
                            waitedNanos.set(System.nanoTime() - asked);
                        }
                    }
                } catch (IOException e) {
                    // the generator is done and closed its socket
                }
            }, "asking-controller");
            controller.setDaemon(true);
            controller.start();

            GeneratorAgainstResponderTest.Run run = GeneratorAgainstResponderTest.run("-p",
                    Integer.toString(server.getLocalPort()), "-s", "1", "-l", "3", "-m", "1000", "-L0",
                    "--stats-delay", Integer.toString(DELAY_MS));
            assertEquals(0, run.status(), run.toString());
            controller.join(10_000);
            assertTrue(waitedNanos.get() >= DELAY_MS * 1_000_000L, "answered " + waitedNanos.get() / 1_000_000
                    + " ms after the request, not before " + DELAY_MS + " ms\n" + run);
            assertTrue(packetInsWhileWaiting.get() > 100, packetInsWhileWaiting.get()
                    + " packet-ins sent and answered while the answer waited\n" + run);
            assertTrue(run.stderr().contains("controller requests: statistics 1 (0 ignored, 1 answered late, 0 refused"
                    + " with an error); role 0"), run.stderr());
            assertTrue(run.stderr().contains("0 waited 1000 ms or more (unanswered)"), run.stderr());
            assertTrue(run.stderr().contains("statistics requests (flow,aggregate,table,port,queue,group,group-desc,"
                    + "group-features,meter,meter-config,meter-features,table-features): answered 1500 ms late"),
                    run.stderr());
        }
    }
}
