package io.heliograph.routing.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortFeatures;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.ver14.OFPortFeaturesSerializerVer14;
import org.projectfloodlight.openflow.protocol.ver15.OFPortFeaturesSerializerVer15;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

class PortSpeedReaderTest {

    @Test
    void openFlow10HasOnlyTheFeatureBits() {
        OFPortDesc port = base(OFVersion.OF_10).setCurr(Set.of(OFPortFeatures.PF_1GB_FD, OFPortFeatures.PF_COPPER))
                .build();

        assertEquals(1_000_000_000L, PortSpeedReader.bitsPerSecond(port));
    }

    @Test
    void openFlow13UsesCurrSpeedInKilobits() {
        OFPortDesc port = base(OFVersion.OF_13).setCurr(Set.of(OFPortFeatures.PF_1GB_FD)).setCurrSpeed(10_000_000)
                .build();

        assertEquals(10_000_000_000L, PortSpeedReader.bitsPerSecond(port));
    }

    @Test
    void openFlow13WithoutCurrSpeedFallsBackToTheFeatureBits() {
        OFPortDesc port = base(OFVersion.OF_13).setCurr(Set.of(OFPortFeatures.PF_40GB_FD)).setCurrSpeed(0).build();

        assertEquals(40_000_000_000L, PortSpeedReader.bitsPerSecond(port));
    }

    @Test
    void openFlow14And15ReadTheEthernetProperty() {
        OFFactory of14 = OFFactories.getFactory(OFVersion.OF_14);
        OFPortDesc withSpeed = base(OFVersion.OF_14).setProperties(List.of(of14.buildPortDescPropEthernet()
                .setCurrSpeed(25_000_000).build())).build();
        OFPortDesc bitsOnly = base(OFVersion.OF_14).setProperties(List.of(of14.buildPortDescPropEthernet()
                .setCurr(OFPortFeaturesSerializerVer14.toWireValue(Set.of(OFPortFeatures.PF_100GB_FD))).build()))
                .build();
        OFFactory of15 = OFFactories.getFactory(OFVersion.OF_15);
        OFPortDesc of15Bits = base(OFVersion.OF_15).setProperties(List.of(of15.buildPortDescPropEthernet()
                .setCurr(OFPortFeaturesSerializerVer15.toWireValue(Set.of(OFPortFeatures.PF_10MB_FD))).build()))
                .build();

        assertEquals(25_000_000_000L, PortSpeedReader.bitsPerSecond(withSpeed));
        assertEquals(100_000_000_000L, PortSpeedReader.bitsPerSecond(bitsOnly));
        assertEquals(10_000_000L, PortSpeedReader.bitsPerSecond(of15Bits));
    }

    @Test
    void aPortThatSaysNothingHasSpeedZero() {
        assertEquals(0, PortSpeedReader.bitsPerSecond(base(OFVersion.OF_10).build()));
        assertEquals(0, PortSpeedReader.bitsPerSecond(base(OFVersion.OF_14).build()));
    }

    private static OFPortDesc.Builder base(OFVersion version) {
        return OFFactories.getFactory(version).buildPortDesc().setPortNo(OFPort.of(1)).setName("eth1")
                .setHwAddr(MacAddress.of(2));
    }
}
