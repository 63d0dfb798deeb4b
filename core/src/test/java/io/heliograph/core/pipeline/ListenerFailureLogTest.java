package io.heliograph.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.core.testing.FakeSwitch;

class ListenerFailureLogTest {

    private final OFMessage echo = OFFactories.getFactory(OFVersion.OF_10).buildEchoRequest().setXid(77).build();
    private final List<String> lines = new ArrayList<>();
    private final List<Throwable> thrown = new ArrayList<>();
    private long now = 1_000;
    private final ListenerFailureLog log = new ListenerFailureLog(() -> now, (line, t) -> {
        lines.add(line);
        thrown.add(t);
    });

    @Test
    void theLineNamesListenerMessageSwitchAndException() {
        IllegalStateException boom = new IllegalStateException("boom");

        log.listenerFailed(new FakeSwitch(0xabcL), echo, new RecordingListener("devices", new ArrayList<>()), boom);

        assertEquals(1, lines.size());
        String line = lines.get(0);
        assertTrue(line.contains("'devices'"), line);
        assertTrue(line.contains("ECHO_REQUEST"), line);
        assertTrue(line.contains("xid 77"), line);
        assertTrue(line.contains("00:00:00:00:00:00:0a:bc"), line);
        assertTrue(line.contains("IllegalStateException: boom"), line);
        assertSame(boom, thrown.get(0));
    }

    @Test
    void aListenerFailingOnEveryMessageIsLoggedOncePerQuietPeriodWithACount() {
        RecordingListener noisy = new RecordingListener("noisy", new ArrayList<>());
        RecordingListener other = new RecordingListener("other", new ArrayList<>());
        FakeSwitch sw = new FakeSwitch(1);

        for (int i = 0; i < 100; i++) {
            log.listenerFailed(sw, echo, noisy, new RuntimeException("again"));
        }
        log.listenerFailed(sw, echo, other, new RuntimeException("first of other"));
        assertEquals(2, lines.size(), "one line per listener within the quiet period");

        now += ListenerFailureLog.QUIET_NANOS - 1;
        log.listenerFailed(sw, echo, noisy, new RuntimeException("still"));
        assertEquals(2, lines.size());

        now += 1;
        log.listenerFailed(sw, echo, noisy, new RuntimeException("later"));
        assertEquals(3, lines.size());
        assertTrue(lines.get(2).contains("100 more failures of this listener in the last "
                + TimeUnit.NANOSECONDS.toSeconds(ListenerFailureLog.QUIET_NANOS) + " s were not logged"), lines.get(2));
    }
}
