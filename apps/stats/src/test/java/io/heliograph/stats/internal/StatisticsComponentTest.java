package io.heliograph.stats.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFStatsType;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.core.testing.Eventually;
import io.heliograph.core.testing.FakeSwitchService;

/** The DS component: polls on its own thread at the configured interval, changed live. */
class StatisticsComponentTest {

    private final FakeSwitchService switches = new FakeSwitchService();
    private final FakeStatsSwitch sw = new FakeStatsSwitch(1, OFVersion.OF_13)
            .answer(OFStatsType.PORT, f -> List.of(f.buildPortStatsReply().build()));
    private StatisticsComponent component;

    @AfterEach
    void stop() {
        if (component != null) {
            component.deactivate();
        }
    }

    private static StatisticsConfig config(long intervalMs, int historySize, long timeoutMs) {
        return new StatisticsConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return StatisticsConfig.class;
            }

            @Override
            public long intervalMs() {
                return intervalMs;
            }

            @Override
            public int historySize() {
                return historySize;
            }

            @Override
            public long timeoutMs() {
                return timeoutMs;
            }

            @Override
            public long backoffMaxMs() {
                return 300_000;
            }

            @Override
            public boolean portMetrics() {
                return true;
            }
        };
    }

    private static void await(String what, BooleanSupplier condition) {
        Eventually.await(what, Duration.ofSeconds(10), condition);
    }

    private long requestsOfOneRound() {
        return sw.requestCount(OFStatsType.PORT) + sw.requestCount(OFStatsType.FLOW)
                + sw.requestCount(OFStatsType.TABLE) + sw.requestCount(OFStatsType.GROUP)
                + sw.requestCount(OFStatsType.METER);
    }

    @Test
    void pollsAtOnceThenAtTheIntervalAndTheIntervalChangesLive() {
        switches.add(sw);
        component = new StatisticsComponent(switches, config(86_400_000, 5, 10_000));
        // A round sends its five requests one after another on the component's thread: wait for all of them.
        await("the first round", () -> requestsOfOneRound() >= 5);
        assertEquals(5L, requestsOfOneRound());
        assertEquals(1L, sw.requestCount(OFStatsType.PORT));

        component.modified(config(100, 5, 10_000));
        await("rounds every 100 ms", () -> sw.requestCount(OFStatsType.PORT) >= 3);
        assertEquals(new StatsSettings(100, 5, 10_000, 300_000), component.settings());
    }

    @Test
    void badConfigurationIsRefusedAndTheOldOneKept() {
        component = new StatisticsComponent(switches, config(5_000, 5, 10_000));
        component.modified(config(5_000, 0, 10_000));
        assertEquals(new StatsSettings(5_000, 5, 10_000, 300_000), component.settings());
    }

    @Test
    void badConfigurationAtStartUsesTheDefaults() {
        component = new StatisticsComponent(switches, config(1, 5, 10_000));
        assertEquals(StatsSettings.DEFAULTS, component.settings());
        assertTrue(component.getTrafficMatrix().byMac().isEmpty());
    }

    @Test
    void unansweredRequestsAndBackedOffSwitchesAreMetrics() {
        sw.timeOut(OFStatsType.PORT);
        switches.add(sw);
        component = new StatisticsComponent(switches, config(86_400_000, 5, 10_000));
        await("the unanswered port request counted", () -> sample("heliograph_stats_unanswered_requests_total", "port") == 1);
        assertEquals(1, sample("heliograph_stats_backed_off_switches", "port"));
        assertEquals(0, sample("heliograph_stats_unanswered_requests_total", "flow"), "pending, not unanswered yet");
        assertEquals(0, sample("heliograph_stats_backed_off_switches", "flow"));
    }

    private double sample(String name, String kind) {
        return component.samples().stream().filter(s -> s.name().equals(name) && s.labels().equals(Map.of("kind", kind)))
                .findFirst().orElseThrow().value();
    }
}
