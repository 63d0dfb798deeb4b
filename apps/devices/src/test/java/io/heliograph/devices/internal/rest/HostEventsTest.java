package io.heliograph.devices.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchPort;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.Host;

class HostEventsTest {

    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00Z");

    private final List<String> types = new ArrayList<>();
    private final List<HostChange> published = new ArrayList<>();
    private final HostEvents events = new HostEvents((type, payload) -> {
        types.add(type);
        published.add((HostChange) payload.get());
    });

    private static Host host(Set<IPv4Address> ips, long... dpidPortPairs) {
        List<AttachmentPoint> points = new ArrayList<>();
        for (int i = 0; i < dpidPortPairs.length; i += 2) {
            points.add(new AttachmentPoint(SwitchPort.of(DatapathId.of(dpidPortPairs[i]),
                    OFPort.of((int) dpidPortPairs[i + 1])), T0, T0.plusSeconds(1)));
        }
        return new Host(MacAddress.of("02:00:00:00:00:07"), VlanVid.ofVlan(0), ips, Set.of(), points, T0,
                T0.plusSeconds(1));
    }

    @Test
    void eachHostChangeIsPublishedWithTheHostAsTheRestApiShowsIt() {
        Host seen = host(Set.of(), 1, 3);
        Host addressed = host(Set.of(IPv4Address.of("10.0.0.7")), 1, 3);
        events.hostAdded(seen);
        events.hostUpdated(seen, addressed);
        events.hostRemoved(addressed);

        assertEquals(List.of("host", "host", "host"), types);
        assertEquals(List.of("added", "updated", "removed"), published.stream().map(HostChange::action).toList());
        HostChange updated = published.get(1);
        assertEquals("02:00:00:00:00:07", updated.mac());
        assertEquals(0, updated.vlan());
        assertEquals(HostView.of(addressed), updated.host());
        assertEquals(List.of("10.0.0.7"), updated.host().ipv4());
        assertEquals(List.of(), updated.movedFrom());
    }

    @Test
    void aMoveSaysWhereTheHostWasAttached() {
        events.hostMoved(host(Set.of(), 1, 3, 9, 1), host(Set.of(), 2, 5, 9, 1));
        HostChange moved = published.get(0);
        assertEquals("moved", moved.action());
        assertEquals("00:00:00:00:00:00:00:02", moved.host().attachmentPoints().get(0).dpid());
        assertEquals(1, moved.movedFrom().size(), "only the point it left: " + moved.movedFrom());
        assertEquals("00:00:00:00:00:00:00:01", moved.movedFrom().get(0).dpid());
        assertEquals(3, moved.movedFrom().get(0).port());
    }
}
