package __PACKAGE__;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.OFSwitch;

public class __CLASS__CounterTest {

    public static final OFPacketIn PACKET_IN = OFFactories.getFactory(OFVersion.OF_10).buildPacketIn()
            .setBufferId(OFBufferId.NO_BUFFER).setInPort(OFPort.of(1)).setReason(OFPacketInReason.NO_MATCH)
            .setTotalLen(60).setData(new byte[60]).build();

    @Test
    void countsEachSwitchsPacketInsAndLetsThemGoOnDownThePipeline() {
        __CLASS__Counter counter = new __CLASS__Counter();
        OFSwitch one = switchWithId(1);
        OFSwitch two = switchWithId(2);

        assertEquals(Command.CONTINUE, counter.receive(one, PACKET_IN));
        counter.receive(one, PACKET_IN);
        counter.receive(two, PACKET_IN);

        assertEquals(Map.of(DatapathId.of(1), 2L, DatapathId.of(2), 1L), counter.counts());
    }

    @Test
    void joinsThePacketInPipelineUnderItsName() {
        __CLASS__Counter counter = new __CLASS__Counter();
        assertEquals(Set.of(OFType.PACKET_IN), counter.getTypes());
        assertEquals("__NAME__", counter.getName());
    }

    /** A switch that knows only its id, all the counter asks of it. */
    public static OFSwitch switchWithId(long dpid) {
        return (OFSwitch) Proxy.newProxyInstance(OFSwitch.class.getClassLoader(), new Class<?>[] {OFSwitch.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getId")) {
                        return DatapathId.of(dpid);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
