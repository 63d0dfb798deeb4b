package io.heliograph.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;

class SwitchCommandsTest {

    private final Map<DatapathId, OFSwitch> connected = new LinkedHashMap<>();
    private final SwitchCommands commands = new SwitchCommands(new SwitchService() {
        @Override
        public Map<DatapathId, OFSwitch> getSwitches() {
            return Map.copyOf(connected);
        }

        @Override
        public OFSwitch getSwitch(DatapathId id) {
            return connected.get(id);
        }
    });

    /** A switch that only answers what the command reads (the shared FakeSwitch has no description). */
    private static OFSwitch described(long dpid, OFVersion version, int ports, String address) throws Exception {
        OFFactory f = OFFactories.getFactory(version);
        List<OFPortDesc> portDescs = new java.util.ArrayList<>();
        for (int i = 1; i <= ports; i++) {
            portDescs.add(f.buildPortDesc().setPortNo(OFPort.of(i)).setName("p" + i).build());
        }
        var description = f.buildDescStatsReply().setMfrDesc("Nicira, Inc.").setHwDesc("Open vSwitch")
                .setSwDesc("3.3.0 ").build();
        InetSocketAddress remote = new InetSocketAddress(InetAddress.getByName(address), 40_000 + (int) dpid);
        return (OFSwitch) Proxy.newProxyInstance(OFSwitch.class.getClassLoader(), new Class<?>[] {OFSwitch.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getId" -> DatapathId.of(dpid);
                    case "getVersion" -> version;
                    case "getRemoteAddress" -> remote;
                    case "getConnectedSince" -> Instant.parse("2026-11-21T17:00:05Z");
                    case "getPorts" -> portDescs;
                    case "getDescription" -> description;
                    case "toString" -> "switch " + dpid;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void noSwitches() {
        assertEquals("no switches connected", commands.switches());
    }

    @Test
    void oneLinePerSwitchByDatapathId() throws Exception {
        connected.put(DatapathId.of(2), described(2, OFVersion.OF_13, 4, "10.0.0.2"));
        connected.put(DatapathId.of(1), described(1, OFVersion.OF_10, 2, "127.0.0.1"));

        String[] lines = commands.switches().split("\n");

        assertEquals(4, lines.length, String.join("\n", lines));
        assertTrue(lines[0].startsWith("dpid"));
        assertEquals("00:00:00:00:00:00:00:01 127.0.0.1:40001       OF_10       2 2026-11-21 17:00:05Z "
                + "Nicira, Inc. / Open vSwitch / 3.3.0", lines[1]);
        assertTrue(lines[2].startsWith("00:00:00:00:00:00:00:02 10.0.0.2:40002        OF_13       4 "), lines[2]);
        assertEquals("2 switches", lines[3]);
    }
}
