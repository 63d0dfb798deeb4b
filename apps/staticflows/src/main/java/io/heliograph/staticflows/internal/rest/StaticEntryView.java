package io.heliograph.staticflows.internal.rest;

import java.util.Map;

import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.internal.EntryCodec;

/**
 * A stored entry: its kind (flow, group, meter), switch and name; what the controller knows of it on
 * the switch ({@code state} INSTALLED, PENDING, FAILED or UNSUPPORTED, with the switch's error or the
 * reason in {@code detail}); and its definition with the member names a request uses, so a GET's
 * {@code entry} can be sent back as a PUT body.
 */
public record StaticEntryView(String kind, String dpid, String name, String state, String detail,
        Map<String, Object> entry) {

    static StaticEntryView of(EntryStatus status) {
        return new StaticEntryView(status.entry().kind(), status.entry().dpid().toString(), status.entry().name(),
                status.state().name(), status.detail(), EntryCodec.toJson(status.entry()));
    }
}
