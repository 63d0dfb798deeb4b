package io.heliograph.devices.internal;

import java.util.Objects;

import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;

/** A host's identity: its MAC on one VLAN ({@link VlanVid#ZERO} for untagged frames). */
record HostKey(MacAddress mac, VlanVid vlan) {

    HostKey {
        Objects.requireNonNull(mac, "mac");
        Objects.requireNonNull(vlan, "vlan");
    }

    @Override
    public String toString() {
        return mac + (vlan.equals(VlanVid.ZERO) ? "" : "@" + vlan.getVlan());
    }
}
