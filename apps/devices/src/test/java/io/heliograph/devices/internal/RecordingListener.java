package io.heliograph.devices.internal;

import java.util.ArrayList;
import java.util.List;

import io.heliograph.devices.Host;
import io.heliograph.devices.HostListener;

/** Records host events as text lines and keeps the hosts they carried. */
final class RecordingListener implements HostListener {

    record Event(String type, Host before, Host after) {
    }

    final List<Event> events = new ArrayList<>();

    @Override
    public void hostAdded(Host host) {
        events.add(new Event("added", null, host));
    }

    @Override
    public void hostMoved(Host before, Host after) {
        events.add(new Event("moved", before, after));
    }

    @Override
    public void hostUpdated(Host before, Host after) {
        events.add(new Event("updated", before, after));
    }

    @Override
    public void hostRemoved(Host host) {
        events.add(new Event("removed", host, null));
    }

    /** The event types since the last call, e.g. [added, moved]. */
    List<String> take() {
        List<String> types = events.stream().map(Event::type).toList();
        events.clear();
        return types;
    }

    Event last() {
        return events.get(events.size() - 1);
    }
}
