package io.heliograph.topology.internal.rest;

import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.topology.Link;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyListener;
import io.heliograph.webui.api.LiveEvents;

/**
 * Publishes {@code link} live events ({@link LinkChange}) for each link the topology adds, updates or
 * removes. Switch events come from the web bundle itself. It needs the web bundle's {@link LiveEvents}:
 * without the web bundle this component stays unsatisfied and the app runs as before.
 */
@Component(service = TopologyListener.class)
public final class LinkEvents implements TopologyListener {

    static final String TYPE = "link";

    private final LiveEvents events;

    @Activate
    public LinkEvents(@Reference LiveEvents events) {
        this.events = events;
    }

    @Override
    public void topologyChanged(List<TopologyEvent> changes) {
        for (TopologyEvent change : changes) {
            String action = switch (change.type()) {
                case LINK_ADDED -> "added";
                case LINK_UPDATED -> "updated";
                case LINK_REMOVED -> "removed";
                case SWITCH_ADDED, SWITCH_REMOVED -> null;
            };
            if (action != null) {
                Link link = change.link();
                events.publish(TYPE, () -> new LinkChange(action, LinkView.End.of(link.src()),
                        LinkView.End.of(link.dst()), change.topology().links().contains(link.reverse())));
            }
        }
    }
}
