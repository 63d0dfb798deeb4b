package io.heliograph.devices.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchPort;
import io.heliograph.core.testing.ManualClock;

class HostCommandsTest {

    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00Z");
    private static final HostKey A = new HostKey(MacAddress.of("02:00:00:00:00:0a"), VlanVid.ZERO);
    private static final HostKey B = new HostKey(MacAddress.of("02:00:00:00:00:0b"), VlanVid.ofVlan(20));

    private final HostStore store = new HostStore();
    private final ManualClock clock = new ManualClock(T0);
    private final HostCommands commands = new HostCommands(store, clock);

    private void learn() {
        HostTracker tracker = new HostTracker(TrackerSettings.DEFAULTS, store, new RecordingListener());
        tracker.observe(new Sighting(B, SwitchPort.of(DatapathId.of(2), OFPort.of(4)),
                List.of(AddressClaim.authoritative(IPv6Address.of("2001:db8::b"))), T0));
        tracker.observe(new Sighting(A, SwitchPort.of(DatapathId.of(1), OFPort.of(3)),
                List.of(AddressClaim.authoritative(IPv4Address.of("10.0.0.1"))), T0.minusSeconds(5)));
    }

    @Test
    void listsEveryHostSortedByMacWithAddressesPlacesAndAge() {
        assertEquals("no hosts", commands.hosts());
        learn();

        assertEquals("2 hosts\n"
                + "02:00:00:00:00:0a  ip 10.0.0.1  at 00:00:00:00:00:00:00:01/3  seen 5s ago\n"
                + "02:00:00:00:00:0b vlan 20  ip 2001:db8::b  at 00:00:00:00:00:00:00:02/4  seen 0s ago",
                commands.hosts());
    }

    @Test
    void findsHostsByMacAddressOrSwitch() {
        learn();

        assertTrue(commands.hosts("02:00:00:00:00:0b").startsWith("1 host\n02:00:00:00:00:0b"));
        assertTrue(commands.hosts("10.0.0.1").startsWith("1 host\n02:00:00:00:00:0a"));
        assertTrue(commands.hosts("2001:db8::b").startsWith("1 host\n02:00:00:00:00:0b"));
        assertTrue(commands.hosts("00:00:00:00:00:00:00:01").startsWith("1 host\n02:00:00:00:00:0a"));
        assertEquals("no hosts", commands.hosts("10.9.9.9"));
    }

    @Test
    void explainsAQueryItCannotRead() {
        assertEquals("'banana' is not a MAC (02:00:00:00:00:01), an IPv4 or IPv6 address, or a datapath id "
                + "(00:00:00:00:00:00:00:01)", commands.hosts("banana"));
        assertTrue(commands.hosts("10.0.0.300").startsWith("'10.0.0.300' is not"));
    }
}
