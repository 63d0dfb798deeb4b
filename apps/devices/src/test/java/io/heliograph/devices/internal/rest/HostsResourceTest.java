package io.heliograph.devices.internal.rest;

import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.core.SwitchPort;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;
import io.heliograph.topology.Link;
import io.heliograph.topology.internal.TopologyGraph;

class HostsResourceTest {

    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00Z");

    private final List<Host> hosts = new ArrayList<>();
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new HostsResource(new FakeDevices())).build();

    private static Host host(String mac, int vlan, String ipv4, long dpid, int port, long seenSeconds) {
        Instant seen = T0.plusSeconds(seenSeconds);
        return new Host(MacAddress.of(mac), VlanVid.ofVlan(vlan), ipv4 == null ? Set.of() : Set.of(IPv4Address.of(ipv4)),
                Set.of(), List.of(new AttachmentPoint(SwitchPort.of(DatapathId.of(dpid), OFPort.of(port)), T0, seen)),
                T0, seen);
    }

    /** Three hosts on switch 1 and 2, one MAC on two VLANs, one with an IPv6 address. */
    private void network() {
        hosts.add(host("02:00:00:00:00:0b", 0, "10.0.0.2", 1, 4, 5));
        hosts.add(host("02:00:00:00:00:0a", 0, "10.0.0.1", 1, 3, 3));
        hosts.add(host("02:00:00:00:00:0c", 20, "10.0.1.3", 2, 3, 7));
        hosts.add(host("02:00:00:00:00:0c", 30, null, 2, 4, 9));
        Host v6 = host("02:00:00:00:00:0d", 0, null, 2, 5, 1);
        hosts.add(new Host(v6.mac(), v6.vlan(), Set.of(), Set.of(IPv6Address.of("fd00::d")), v6.attachmentPoints(),
                v6.firstSeen(), v6.lastSeen()));
    }

    @Test
    void everyHostByMacThenVlanWithAddressesAndAttachmentPoints() throws Exception {
        network();
        JsonNode page = ok(mvc, get("/api/v1/hosts"));
        assertEquals(5, page.get("total").asInt());
        assertEquals(0, page.get("offset").asInt());
        assertEquals(HostsResource.DEFAULT_LIMIT, page.get("limit").asInt());
        JsonNode first = page.at("/hosts/0");
        assertEquals("02:00:00:00:00:0a", first.get("mac").asText());
        assertEquals(0, first.get("vlan").asInt());
        assertEquals("10.0.0.1", first.at("/ipv4/0").asText());
        assertEquals(0, first.get("ipv6").size());
        assertEquals("00:00:00:00:00:00:00:01", first.at("/attachmentPoints/0/dpid").asText());
        assertEquals(3, first.at("/attachmentPoints/0/port").asInt());
        assertEquals("2026-11-21T12:00:00Z", first.get("firstSeen").asText());
        assertEquals("2026-11-21T12:00:03Z", first.get("lastSeen").asText());
        assertEquals(List.of("02:00:00:00:00:0a/0", "02:00:00:00:00:0b/0", "02:00:00:00:00:0c/20",
                "02:00:00:00:00:0c/30", "02:00:00:00:00:0d/0"), macsAndVlans(page));
        assertEquals("fd00::d", page.at("/hosts/4/ipv6/0").asText());
    }

    @Test
    void filtersCombine() throws Exception {
        network();
        assertEquals(List.of("02:00:00:00:00:0c/20", "02:00:00:00:00:0c/30"),
                macsAndVlans(ok(mvc, get("/api/v1/hosts").param("mac", "02:00:00:00:00:0c"))));
        assertEquals(List.of("02:00:00:00:00:0c/30"),
                macsAndVlans(ok(mvc, get("/api/v1/hosts").param("mac", "02:00:00:00:00:0c").param("vlan", "30"))));
        assertEquals(List.of("02:00:00:00:00:0b/0"), macsAndVlans(ok(mvc, get("/api/v1/hosts").param("ip", "10.0.0.2"))));
        assertEquals(List.of("02:00:00:00:00:0d/0"), macsAndVlans(ok(mvc, get("/api/v1/hosts").param("ip", "fd00::d"))));
        assertEquals(List.of("02:00:00:00:00:0a/0", "02:00:00:00:00:0b/0"),
                macsAndVlans(ok(mvc, get("/api/v1/hosts").param("switch", "0x1"))));
        assertEquals(List.of("02:00:00:00:00:0c/30"),
                macsAndVlans(ok(mvc, get("/api/v1/hosts").param("switch", "00:00:00:00:00:00:00:02").param("port", "4"))));
        assertEquals(List.of(), macsAndVlans(ok(mvc, get("/api/v1/hosts").param("ip", "10.9.9.9"))));
    }

    @Test
    void pagesCoverEveryHostOnceInOrder() throws Exception {
        for (int i = 0; i < 250; i++) {
            hosts.add(host(String.format("02:00:00:00:%02x:%02x", i / 256, i % 256), 0, null, 1, 3, i));
        }
        List<String> seen = new ArrayList<>();
        for (int offset = 0; offset < 250; offset += 100) {
            JsonNode page = ok(mvc, get("/api/v1/hosts").param("offset", Integer.toString(offset)).param("limit", "100"));
            assertEquals(250, page.get("total").asInt());
            assertEquals(Math.min(100, 250 - offset), page.get("hosts").size());
            page.get("hosts").forEach(h -> seen.add(h.get("mac").asText()));
        }
        assertEquals(250, seen.size());
        assertEquals(seen.stream().sorted().toList(), seen);
        assertEquals(250, seen.stream().distinct().count());
        assertEquals(0, ok(mvc, get("/api/v1/hosts").param("offset", "250")).get("hosts").size());
    }

    @Test
    void badFiltersAreRefusedNamingTheParameter() throws Exception {
        network();
        refused(mvc, get("/api/v1/hosts").param("mac", "02:00:00:00:00"), 400, "mac");
        refused(mvc, get("/api/v1/hosts").param("vlan", "4096"), 400, "vlan");
        refused(mvc, get("/api/v1/hosts").param("ip", "10.0.0.256"), 400, "ip");
        refused(mvc, get("/api/v1/hosts").param("ip", "fd00:::1:::"), 400, "ip");
        refused(mvc, get("/api/v1/hosts").param("switch", "s1"), 400, "switch");
        refused(mvc, get("/api/v1/hosts").param("port", "-1"), 400, "port");
        refused(mvc, get("/api/v1/hosts").param("offset", "x"), 400, "offset");
        refused(mvc, get("/api/v1/hosts").param("limit", "0"), 400, "limit");
        refused(mvc, get("/api/v1/hosts").param("limit", Integer.toString(HostsResource.MAX_LIMIT + 1)), 400, "limit");
    }

    @Test
    void searchFindsHostsByAnyPartOfTheirMacOrAddresses() throws Exception {
        network();
        assertEquals(List.of("02:00:00:00:00:0b/0"), macsAndVlans(ok(mvc, get("/api/v1/hosts").param("search", "0:0b"))));
        // as an operator may type a MAC: upper case, with dashes
        assertEquals(List.of("02:00:00:00:00:0c/20", "02:00:00:00:00:0c/30"),
                macsAndVlans(ok(mvc, get("/api/v1/hosts").param("search", " 02-00-00-00-00-0C "))));
        assertEquals(List.of("02:00:00:00:00:0a/0", "02:00:00:00:00:0b/0"),
                macsAndVlans(ok(mvc, get("/api/v1/hosts").param("search", "10.0.0."))));
        assertEquals(List.of("02:00:00:00:00:0c/20"), macsAndVlans(ok(mvc, get("/api/v1/hosts").param("search", "0.1.3"))));
        assertEquals(List.of("02:00:00:00:00:0d/0"), macsAndVlans(ok(mvc, get("/api/v1/hosts").param("search", "FD00::"))));
        assertEquals(List.of(), macsAndVlans(ok(mvc, get("/api/v1/hosts").param("search", "10.0.0.9"))));
        // with the other filters, and paged: total counts every match, not the page
        JsonNode page = ok(mvc, get("/api/v1/hosts").param("search", "02:00").param("switch", "2").param("limit", "1"));
        assertEquals(3, page.get("total").asInt());
        assertEquals(List.of("02:00:00:00:00:0c/20"), macsAndVlans(page));
        // an empty search box searches for nothing in particular
        assertEquals(5, ok(mvc, get("/api/v1/hosts").param("search", " ")).get("total").asInt());
    }

    @Test
    void oneHostByMac() throws Exception {
        network();
        JsonNode host = ok(mvc, get("/api/v1/hosts/02:00:00:00:00:0b"));
        assertEquals("02:00:00:00:00:0b", host.get("mac").asText());
        assertEquals(4, host.at("/attachmentPoints/0/port").asInt());
        assertEquals(30, ok(mvc, get("/api/v1/hosts/02:00:00:00:00:0c").param("vlan", "30")).get("vlan").asInt());
        // on two VLANs: the caller must say which
        refused(mvc, get("/api/v1/hosts/02:00:00:00:00:0c"), 400, "vlan");
        refused(mvc, get("/api/v1/hosts/02:00:00:00:00:0c").param("vlan", "40"), 404, "mac");
        refused(mvc, get("/api/v1/hosts/02:00:00:00:00:ee"), 404, "mac");
        refused(mvc, get("/api/v1/hosts/not-a-mac"), 400, "mac");
    }

    @Test
    void floodlightDeviceQueryAndShape() throws Exception {
        network();
        JsonNode all = ok(mvc, get("/wm/device/"));
        assertEquals(5, all.get("devices").size());
        JsonNode device = all.at("/devices/0");
        assertEquals("DefaultEntityClass", device.get("entityClass").asText());
        assertEquals("02:00:00:00:00:0a", device.at("/mac/0").asText());
        assertEquals("10.0.0.1", device.at("/ipv4/0").asText());
        assertEquals(0, device.get("ipv6").size());
        assertEquals("0x0", device.at("/vlan/0").asText());
        assertEquals("00:00:00:00:00:00:00:01", device.at("/attachmentPoint/0/switch").asText());
        assertEquals(3, device.at("/attachmentPoint/0/port").asInt());
        assertEquals(T0.plusSeconds(3).toEpochMilli(), device.get("lastSeen").asLong());
        assertEquals("0x14", ok(mvc, get("/wm/device/").param("vlan", "20")).at("/devices/0/vlan/0").asText());

        assertEquals(1, ok(mvc, get("/wm/device/").param("ipv4", "10.0.0.2")).get("devices").size());
        assertEquals(2, ok(mvc, get("/wm/device/").param("dpid", "00:00:00:00:00:00:00:01")).get("devices").size());
        assertEquals(1, ok(mvc, get("/wm/device/").param("dpid", "00:00:00:00:00:00:00:01").param("port", "4"))
                .get("devices").size());
        assertEquals(2, ok(mvc, get("/wm/device/").param("mac", "02:00:00:00:00:0c")).get("devices").size());
        assertEquals(2, ok(mvc, get("/wm/device/").param("ipv4__startswith", "10.0.0.")).get("devices").size());
        assertEquals(3, ok(mvc, get("/wm/device/").param("dpid__startswith", "00:00:00:00:00:00:00:02"))
                .get("devices").size());
        assertEquals(1, ok(mvc, get("/wm/device").param("mac__startswith", "02:00:00:00:00:0d")).get("devices").size());
        refused(mvc, get("/wm/device/").param("ipv4", "ten"), 400, "ipv4");
        refused(mvc, get("/wm/device/").param("dpid", "xyz"), 400, "dpid");
    }

    private static List<String> macsAndVlans(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.get("hosts").forEach(h -> out.add(h.get("mac").asText() + "/" + h.get("vlan").asInt()));
        return out;
    }

    @Test
    void floodlightSummaryCountsSwitchesHostsAndDirectedLinks() throws Exception {
        network();
        FakeSwitchService switches = new FakeSwitchService().add(new FakeSwitch(1)).add(new FakeSwitch(2))
                .add(new FakeSwitch(3));
        FloodlightSummaryResource resource = new FloodlightSummaryResource(switches, new FakeDevices());
        MockMvc summaryMvc = MockMvcBuilders.standaloneSetup(resource).build();

        JsonNode alone = ok(summaryMvc, get("/wm/core/controller/summary/json"));
        assertEquals("{\"# Switches\":3,\"# hosts\":5,\"# quarantine ports\":0}", alone.toString(),
                "without the topology app there is no count of links, as in Floodlight without link discovery");

        Link cable = new Link(SwitchPort.of(DatapathId.of(1), OFPort.of(1)), SwitchPort.of(DatapathId.of(2), OFPort.of(1)));
        Link oneWay = new Link(SwitchPort.of(DatapathId.of(3), OFPort.of(2)), SwitchPort.of(DatapathId.of(2), OFPort.of(2)));
        TopologyGraph graph = new TopologyGraph(1, Set.of(DatapathId.of(1), DatapathId.of(2), DatapathId.of(3)),
                Set.of(cable, cable.reverse(), oneWay));
        resource.setTopologyService(() -> graph);
        JsonNode summary = ok(summaryMvc, get("/wm/core/controller/summary/json"));
        assertEquals(3, summary.get("# inter-switch links").asInt(), summary.toString());
        assertEquals(5, summary.get("# hosts").asInt(), summary.toString());
    }

    private final class FakeDevices implements DeviceService {

        @Override
        public Collection<Host> getHosts() {
            return List.copyOf(hosts);
        }

        @Override
        public Host getHost(MacAddress mac, VlanVid vlan) {
            return hosts.stream().filter(h -> h.mac().equals(mac) && h.vlan().equals(vlan)).findFirst().orElse(null);
        }

        @Override
        public Collection<Host> getHostsByMac(MacAddress mac) {
            return hosts.stream().filter(h -> h.mac().equals(mac)).toList();
        }

        @Override
        public Collection<Host> getHostsByIpv4(IPv4Address address) {
            return hosts.stream().filter(h -> h.ipv4Addresses().contains(address)).toList();
        }

        @Override
        public Collection<Host> getHostsByIpv6(IPv6Address address) {
            return hosts.stream().filter(h -> h.ipv6Addresses().contains(address)).toList();
        }

        @Override
        public Collection<Host> getHostsAt(SwitchPort port) {
            return hosts.stream().filter(h -> h.attachmentPoints().stream().anyMatch(p -> p.port().equals(port))).toList();
        }
    }
}
