package io.heliograph.devices.internal.rest;

import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.devices.Host;
import io.heliograph.devices.HostListener;
import io.heliograph.webui.api.LiveEvents;

/**
 * Publishes {@code host} live events ({@link HostChange}) as the device tracker adds, updates, moves and
 * removes hosts (a refresh of last-seen times is not a change). It needs the web bundle's
 * {@link LiveEvents}: without the web bundle this component stays unsatisfied and the app runs as before.
 */
@Component(service = HostListener.class)
public final class HostEvents implements HostListener {

    static final String TYPE = "host";

    private final LiveEvents events;

    @Activate
    public HostEvents(@Reference LiveEvents events) {
        this.events = events;
    }

    @Override
    public void hostAdded(Host host) {
        events.publish(TYPE, () -> HostChange.of("added", HostView.of(host), List.of()));
    }

    @Override
    public void hostUpdated(Host before, Host after) {
        events.publish(TYPE, () -> HostChange.of("updated", HostView.of(after), List.of()));
    }

    @Override
    public void hostMoved(Host before, Host after) {
        events.publish(TYPE, () -> moved(before, after));
    }

    private static HostChange moved(Host before, Host after) {
        HostView now = HostView.of(after);
        List<HostView.Attachment> left = HostView.of(before).attachmentPoints().stream()
                .filter(point -> now.attachmentPoints().stream().noneMatch(p -> samePort(p, point))).toList();
        return HostChange.of("moved", now, left);
    }

    @Override
    public void hostRemoved(Host host) {
        events.publish(TYPE, () -> HostChange.of("removed", HostView.of(host), List.of()));
    }

    private static boolean samePort(HostView.Attachment a, HostView.Attachment b) {
        return a.dpid().equals(b.dpid()) && a.port() == b.port();
    }
}
