package io.heliograph.devices.internal.rest;

import java.util.List;

/**
 * A {@code host} live event: the host (MAC and VLAN) was {@code added}, {@code updated} (addresses or
 * attachment points changed), {@code moved} (seen at a new edge port; {@code movedFrom} lists where it was)
 * or {@code removed}; {@code host} is the host as {@code GET /api/v1/hosts} shows it (when removed: as it was).
 */
public record HostChange(String action, String mac, int vlan, HostView host, List<HostView.Attachment> movedFrom) {

    static HostChange of(String action, HostView host, List<HostView.Attachment> movedFrom) {
        return new HostChange(action, host.mac(), host.vlan(), host, movedFrom);
    }
}
