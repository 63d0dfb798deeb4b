package io.heliograph.devices.internal;

import java.util.Objects;

import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;

/**
 * A host's identity: its MAC on one VLAN ({@link VlanVid#ZERO} for untagged frames). Every packet-in
 * looks one up, so equality and hash are written out on the primitive values rather than left to the
 * record's generated methods, which the profile showed running through method handles.
 */
record HostKey(MacAddress mac, VlanVid vlan) {

    HostKey {
        Objects.requireNonNull(mac, "mac");
        Objects.requireNonNull(vlan, "vlan");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HostKey key && mac.getLong() == key.mac.getLong() && vlan.getVlan() == key.vlan.getVlan();
    }

    @Override
    public int hashCode() {
        return Long.hashCode((mac.getLong() ^ (long) vlan.getVlan() << 48) * 0x9e37_79b9_7f4a_7c15L);
    }

    @Override
    public String toString() {
        return mac + (vlan.equals(VlanVid.ZERO) ? "" : "@" + vlan.getVlan());
    }
}
