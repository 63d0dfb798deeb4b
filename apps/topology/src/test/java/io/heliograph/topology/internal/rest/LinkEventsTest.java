package io.heliograph.topology.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyEvent.Type;
import io.heliograph.topology.internal.TopologyGraph;

class LinkEventsTest {

    private final List<String> types = new ArrayList<>();
    private final List<LinkChange> published = new ArrayList<>();
    private final LinkEvents events = new LinkEvents((type, payload) -> {
        types.add(type);
        published.add((LinkChange) payload.get());
    });

    private static final DatapathId S1 = DatapathId.of(1);
    private static final DatapathId S2 = DatapathId.of(2);
    private static final Link ONE_TO_TWO = new Link(SwitchPort.of(S1, OFPort.of(3)), SwitchPort.of(S2, OFPort.of(4)));

    @Test
    void eachLinkOfAChangeIsPublishedWithItsEndsAndWhetherItsReverseIsKnown() {
        TopologyGraph oneWay = new TopologyGraph(1, Set.of(S1, S2), Set.of(ONE_TO_TWO));
        TopologyGraph bothWays = new TopologyGraph(2, Set.of(S1, S2), Set.of(ONE_TO_TWO, ONE_TO_TWO.reverse()));
        events.topologyChanged(List.of(new TopologyEvent(Type.SWITCH_ADDED, null, S2, oneWay),
                new TopologyEvent(Type.LINK_ADDED, ONE_TO_TWO, null, oneWay)));
        events.topologyChanged(List.of(new TopologyEvent(Type.LINK_ADDED, ONE_TO_TWO.reverse(), null, bothWays),
                new TopologyEvent(Type.LINK_UPDATED, ONE_TO_TWO, null, bothWays)));

        assertEquals(List.of("link", "link", "link"), types, "switch changes are the web bundle's to publish");
        assertEquals(new LinkChange("added", new LinkView.End("00:00:00:00:00:00:00:01", 3),
                new LinkView.End("00:00:00:00:00:00:00:02", 4), false), published.get(0));
        assertEquals(new LinkChange("added", new LinkView.End("00:00:00:00:00:00:00:02", 4),
                new LinkView.End("00:00:00:00:00:00:00:01", 3), true), published.get(1));
        assertEquals("updated", published.get(2).action());
        assertEquals(true, published.get(2).bidirectional());
    }

    @Test
    void aSwitchLeavingPublishesTheRemovalOfEachOfItsLinks() {
        TopologyGraph empty = new TopologyGraph(3, Set.of(S1), Set.of());
        events.topologyChanged(List.of(new TopologyEvent(Type.LINK_REMOVED, ONE_TO_TWO, null, empty),
                new TopologyEvent(Type.LINK_REMOVED, ONE_TO_TWO.reverse(), null, empty),
                new TopologyEvent(Type.SWITCH_REMOVED, null, S2, empty)));
        assertEquals(List.of("removed", "removed"), published.stream().map(LinkChange::action).toList());
        assertEquals("00:00:00:00:00:00:00:02", published.get(1).src().dpid());
        assertEquals(false, published.get(1).bidirectional());
    }
}
