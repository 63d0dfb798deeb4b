package io.heliograph.circuit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import io.heliograph.circuit.engine.CircuitGroups;
import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.circuit.internal.exec.ResizePolicy;
import io.heliograph.core.ConfiguredSettings;

/** The configuration: Etalon's defaults, and every bad value refused naming it. */
class CircuitSettingsTest {

    private static final String STROBE_4 = "{\"weekMicros\": 660, \"nightMicros\": 20, \"days\": ["
            + "{\"upMicros\": 200, \"sourceOf\": [2, 3, 0, 1]}, {\"upMicros\": 200, \"sourceOf\": [3, 0, 1, 2]},"
            + "{\"upMicros\": 200, \"sourceOf\": [1, 2, 3, 0]}]}";

    /** The defaults with one value changed by {@code name} (a resize value: with a device per rack). */
    private static CircuitSettings with(String name, Object value) {
        return CircuitSettings.read(name.equals("groups") ? (String) value : "",
                name.equals("circuitGbps") ? (Double) value : 80, name.equals("packetGbps") ? (Double) value : 10,
                name.equals("weekMicros") ? (Long) value : 2000, name.equals("nightMicros") ? (Long) value : 20,
                name.equals("minDayMicros") ? (Long) value : 200, name.equals("timeScale") ? (Long) value : 1000,
                name.equals("scheduler") ? (String) value : "solstice",
                name.equals("estimator") ? (String) value : "voq", name.equals("fixedWeek") ? (String) value : "",
                name.equals("replicaOffset") ? (Integer) value : 1,
                name.equals("replicaRotationMillis") ? (Long) value : 0,
                name.equals("maxAduFlows") ? (Integer) value : 65_536, name.equals("fabric") ? (String) value : "",
                name.equals("resizeTauMicros") ? (Long) value : 100,
                name.equals("resizeSmallPackets") ? (Integer) value : 16,
                name.equals("resizeBigPackets") ? (Integer) value : 128,
                name.equals("resizeDevices") ? (String) value : name.startsWith("resize") ? "up0,up1,up2,up3" : "",
                name.equals("resizeCommand") ? (String) value : "");
    }

    private static void refused(String name, Object value, String mentions) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> with(name, value), name);
        assertTrue(e.getMessage().contains(mentions), name + "=" + value + ": " + e.getMessage());
    }

    @Test
    void theDefaultsAreEtalonsOnTheTestbedsFourRacksOfTwoHosts() {
        CircuitSettings d = CircuitSettings.DEFAULTS;
        CircuitParameters etalon = CircuitParameters.etalon();
        assertEquals(CircuitGroups.uniform(4, 2), d.groups());
        assertEquals(new CircuitParameters(4, etalon.circuitBytesPerMicro(), etalon.packetBytesPerMicro(),
                etalon.weekMicros(), etalon.nightMicros(), etalon.minDayMicros()), d.network());
        assertEquals(1000, d.timeScale());
        assertEquals(2_000_000_000L, d.weekNanos(), "a 2,000 us week lasts 2 s");
        assertEquals(new SchedulerChoice("solstice", "voq", null), d.choice());
        assertNull(d.fabric());
        assertEquals(1, d.placement().offset());
    }

    @Test
    void groupsAreRacksBySemicolonsAndHostsByCommas() {
        CircuitSettings s = with("groups", " 10.0.0.1, 10.0.0.2 ;10.0.1.1;10.0.2.1,10.0.2.2");
        assertEquals(3, s.groups().racks());
        assertEquals(3, s.network().racks());
        assertEquals(1, s.groups().rackOf("10.0.1.1").getAsInt());
        assertEquals(2, s.groups().rackOf("10.0.2.2").getAsInt());
    }

    @Test
    void aFixedWeekIsReadAndCheckedAgainstTheNetwork() {
        CircuitSettings s = with("fixedWeek", STROBE_4);
        assertEquals("solstice", s.choice().scheduler());
        assertNull(s.choice().fixedWeek(), "a fixed week only with the fixed scheduler");
        CircuitSettings fixed = CircuitSettings.read("", 80, 10, 2000, 20, 200, 1000, "fixed", "adu", STROBE_4, 1, 0,
                65_536, "");
        assertEquals(3, fixed.choice().fixedWeek().days().size());
    }

    @Test
    void everyBadValueIsRefusedNamingIt() {
        refused("groups", "10.0.0.1;10.0.0.1", "groups");
        refused("groups", "10.0.0.1", "groups");
        refused("circuitGbps", Double.NaN, "circuitGbps");
        refused("circuitGbps", -1.0, "circuitGbps");
        refused("packetGbps", 100.0, "packetGbps must be at most the circuit's 80.0 Gb/s");
        refused("weekMicros", 100L, "weekMicros");
        refused("nightMicros", 0L, "nightMicros");
        refused("minDayMicros", 20L, "minDayMicros");
        refused("timeScale", 0L, "timeScale");
        refused("timeScale", 10L, "timeScale");
        refused("scheduler", "bvn", "scheduler");
        refused("estimator", "oracle", "estimator");
        refused("fixedWeek", "{\"weekMicros\": 440, \"nightMicros\": 20, \"days\": [{\"upMicros\": 200, "
                + "\"sourceOf\": [0, 0, 1, 2]}, {\"upMicros\": 200, \"sourceOf\": [1, 2, 3, 0]}]}", "fixedWeek");
        refused("fixedWeek", "{\"weekMicros\": 190, \"nightMicros\": 20, \"days\": [{\"upMicros\": 170, "
                + "\"sourceOf\": [1, 2, 3, 0]}]}", "fixedWeek");
        refused("fixedWeek", "not json", "fixedWeek");
        refused("replicaOffset", 4, "replicaOffset");
        refused("replicaOffset", 0, "replicaOffset");
        refused("replicaRotationMillis", -5L, "replicaRotationMillis");
        refused("maxAduFlows", 0, "maxAduFlows");
        refused("fabric", "circuit=zz", "fabric");
        refused("fabric", "circuit=16; rack0=1/1/1/2; rack1=2/2/1/2", "fabric has 2 racks but groups has 4");
        refused("fabric", "circuit=16; rack0=1/1/1/1", "fabric");
    }

    @Test
    void resizingIsOnWithADevicePerRackAndATauAndItsBadValuesAreNamed() {
        QueueResizing on = with("resizeCommand", "ip netns exec tor tc qdisc change dev {dev} root tbf rate 100mbit "
                + "burst 32kbit limit {bytes}").resizing();
        assertTrue(on.on());
        assertEquals(List.of("up0", "up1", "up2", "up3"), on.devices());
        assertEquals("{bytes}", on.command().get(on.command().size() - 1));
        assertEquals(new ResizePolicy(16, 128, 100), on.policy());
        assertEquals(QueueResizing.DEFAULT_COMMAND, String.join(" ", with("resizeCommand", "").resizing().command()));
        assertFalse(with("resizeTauMicros", 0L).resizing().on(), "tau 0 resizes nothing");
        assertFalse(with("resizeDevices", "").resizing().on(), "no device, nothing to resize");
        assertFalse(CircuitSettings.DEFAULTS.resizing().on());

        refused("resizeTauMicros", -1L, "resizeTauMicros");
        refused("resizeSmallPackets", 0, "resizeSmallPackets");
        refused("resizeBigPackets", 8, "small 16 and big 8");
        refused("resizeDevices", "up0,up1", "2 devices for 4 racks");
        refused("resizeDevices", "up0,up1,,up3", "rack 2's device ''");
        refused("resizeDevices", "up0,up1,up2,up3;rm -rf", "rack 3's device");
        refused("resizeCommand", "tc qdisc change dev eth0 root pfifo limit 100", "{dev} and {packets} or {bytes}");
        assertEquals(with("resizeTauMicros", 100L), with("resizeTauMicros", 100L));
        assertFalse(with("resizeTauMicros", 100L).sameSchedulingAs(with("resizeTauMicros", 200L)),
                "another resizing makes the executor anew");
    }

    @Test
    void aRefusedConfigurationKeepsTheSettingsInForce() {
        CircuitSettings running = with("timeScale", 100L);
        Supplier<CircuitSettings> bad = () -> with("packetGbps", 1000.0);
        assertSame(running, ConfiguredSettings.orPrevious(LoggerFactory.getLogger(getClass()), CircuitComponent.PID,
                running, bad));
        assertEquals(4, with("fabric", "circuit=16; rack0=1/1/1/2; rack1=2/2/1/2; rack2=3/3/1/2; rack3=4/4/1/2")
                .fabric().racks().size());
    }
}
