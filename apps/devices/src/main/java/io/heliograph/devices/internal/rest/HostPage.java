package io.heliograph.devices.internal.rest;

import java.util.List;

/** One page of the hosts that match a query: {@code total} of them, {@code hosts} from {@code offset}. */
public record HostPage(int total, int offset, int limit, List<HostView> hosts) {
}
