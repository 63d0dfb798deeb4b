package io.heliograph.devices.internal.rest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.Requests;

/**
 * The hosts under {@code /api/v1/hosts} (filtered, paged) and Floodlight's {@code /wm/device/} with
 * its query parameters. Registered while the devices app runs, so its paths go with it.
 */
@RestController
@ApiDescription("Hosts seen in the network, where they are attached, and their addresses (devices app)")
@Component(service = RestResource.class)
public final class HostsResource implements RestResource {

    static final Comparator<Host> BY_MAC_AND_VLAN = Comparator.comparingLong((Host h) -> h.mac().getLong())
            .thenComparingInt(h -> h.vlan().getVlan());
    static final int DEFAULT_LIMIT = 1000;
    static final int MAX_LIMIT = 10_000;

    private final DeviceService devices;

    @Activate
    public HostsResource(@Reference DeviceService devices) {
        this.devices = devices;
    }

    /**
     * The hosts that match every filter given, by MAC then VLAN, {@code limit} of them from
     * {@code offset}. {@code ip} is an IPv4 or IPv6 address; {@code switch} a datapath id;
     * {@code search} any part of a MAC or address (what the web UI's search box sends), so that an
     * operator finds a host among thousands without the browser loading them all.
     */
    @ApiDescription("The hosts matching every filter given (mac, vlan, ip, switch, port, and search: part of a MAC or address), by MAC then VLAN, a page of limit from offset")
    @GetMapping("/api/v1/hosts")
    @OperationId("listHosts")
    public HostPage hosts(@RequestParam(name = "mac", required = false) String mac,
            @RequestParam(name = "vlan", required = false) String vlan,
            @RequestParam(name = "ip", required = false) String ip,
            @RequestParam(name = "switch", required = false) String dpid,
            @RequestParam(name = "port", required = false) String port,
            @RequestParam(name = "search", required = false) String search,
            @RequestParam(name = "offset", required = false) String offsetText,
            @RequestParam(name = "limit", required = false) String limitText) {
        int offset = offsetText == null ? 0 : number("offset", offsetText, 0, Integer.MAX_VALUE);
        int limit = limitText == null ? DEFAULT_LIMIT : number("limit", limitText, 1, MAX_LIMIT);
        IPv4Address ipv4 = null;
        IPv6Address ipv6 = null;
        if (ip != null) {
            if (ip.contains(":")) {
                ipv6 = parse("ip", ip, IPv6Address::of, "an IPv4 or IPv6 address");
            } else {
                ipv4 = parse("ip", ip, IPv4Address::of, "an IPv4 or IPv6 address");
            }
        }
        HostQuery query = new HostQuery(mac == null ? null : mac("mac", mac), vlan == null ? null : vlan("vlan", vlan),
                ipv4, ipv6, dpid == null ? null : Requests.dpid("switch", dpid),
                port == null ? null : number("port", port, 0, Integer.MAX_VALUE), HostQuery.searchText(search));
        List<Host> hosts = query.run(devices);
        List<HostView> page = hosts.stream().skip(offset).limit(limit).map(HostView::of).toList();
        return new HostPage(hosts.size(), offset, limit, page);
    }

    /** The host with this MAC: on VLAN {@code vlan} if given, otherwise the only one with the MAC. */
    @ApiDescription("The host with this MAC (on VLAN vlan when the MAC is seen on several)")
    @GetMapping("/api/v1/hosts/{mac}")
    @OperationId("getHost")
    public HostView host(@PathVariable("mac") String macText,
            @RequestParam(name = "vlan", required = false) String vlanText) {
        MacAddress mac = mac("mac", macText);
        if (vlanText != null) {
            VlanVid vlan = vlan("vlan", vlanText);
            Host host = devices.getHost(mac, vlan);
            if (host == null) {
                throw Requests.notFound("mac", "no host " + mac + " on VLAN " + vlan.getVlan());
            }
            return HostView.of(host);
        }
        List<Host> hosts = devices.getHostsByMac(mac).stream().sorted(BY_MAC_AND_VLAN).toList();
        if (hosts.isEmpty()) {
            throw Requests.notFound("mac", "no host " + mac);
        }
        if (hosts.size() > 1) {
            throw Requests.badRequest("vlan", "host " + mac + " is seen on VLANs "
                    + hosts.stream().map(h -> h.vlan().getVlan()).toList() + "; name one with ?vlan=");
        }
        return HostView.of(hosts.get(0));
    }

    /**
     * Floodlight's device query: exact {@code mac}, {@code vlan}, {@code ipv4}, {@code dpid},
     * {@code port}, and their {@code __startswith} forms on the text Floodlight shows.
     */
    @ApiDescription("Floodlight's device query (mac, vlan, ipv4, dpid, port and their __startswith forms), in Floodlight's shape")
    @GetMapping({"/wm/device/", "/wm/device"})
    @OperationId(value = "floodlightListDevices", aliases = {
            @OperationId.Alias(path = "/wm/device", id = "floodlightListDevicesWithoutSlash")})
    public Map<String, Object> floodlightDevices(@RequestParam Map<String, String> params) {
        String mac = params.get("mac");
        String vlan = params.get("vlan");
        String ipv4 = params.get("ipv4");
        String dpid = params.get("dpid");
        String port = params.get("port");
        HostQuery query = new HostQuery(mac == null ? null : mac("mac", mac), vlan == null ? null : vlan("vlan", vlan),
                ipv4 == null ? null : parse("ipv4", ipv4, IPv4Address::of, "an IPv4 address (10.0.0.1)"), null,
                dpid == null ? null : Requests.dpid("dpid", dpid),
                port == null ? null : number("port", port, 0, Integer.MAX_VALUE), null);
        Predicate<Host> startsWith = startsWith(params);
        List<Map<String, Object>> out = new ArrayList<>();
        for (Host host : query.run(devices)) {
            if (startsWith.test(host)) {
                out.add(floodlightDevice(host));
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("devices", out);
        return body;
    }

    private static Predicate<Host> startsWith(Map<String, String> params) {
        Predicate<Host> test = h -> true;
        String mac = params.get("mac__startswith");
        if (mac != null) {
            test = test.and(h -> h.mac().toString().startsWith(mac));
        }
        String vlan = params.get("vlan__startswith");
        if (vlan != null) {
            test = test.and(h -> Integer.toString(h.vlan().getVlan()).startsWith(vlan));
        }
        String ipv4 = params.get("ipv4__startswith");
        if (ipv4 != null) {
            test = test.and(h -> h.ipv4Addresses().stream().anyMatch(a -> a.toString().startsWith(ipv4)));
        }
        String dpid = params.get("dpid__startswith");
        if (dpid != null) {
            test = test.and(h -> h.attachmentPoints().stream().anyMatch(p -> p.port().dpid().toString().startsWith(dpid)));
        }
        String port = params.get("port__startswith");
        if (port != null) {
            test = test.and(h -> h.attachmentPoints().stream()
                    .anyMatch(p -> Integer.toString(p.port().port().getPortNumber()).startsWith(port)));
        }
        return test;
    }

    /** Floodlight's device: one entity class, its addresses as lists, attachment points, last seen in ms. */
    private static Map<String, Object> floodlightDevice(Host host) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("entityClass", "DefaultEntityClass");
        m.put("mac", List.of(host.mac().toString()));
        m.put("ipv4", host.ipv4Addresses().stream().sorted().map(Object::toString).toList());
        m.put("ipv6", host.ipv6Addresses().stream().sorted().map(Object::toString).toList());
        m.put("vlan", List.of("0x" + Integer.toHexString(host.vlan().getVlan())));
        List<Map<String, Object>> points = new ArrayList<>();
        for (AttachmentPoint point : host.attachmentPoints()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("switch", point.port().dpid().toString());
            p.put("port", point.port().port().getPortNumber());
            points.add(p);
        }
        m.put("attachmentPoint", points);
        m.put("lastSeen", host.lastSeen().toEpochMilli());
        return m;
    }

    private static MacAddress mac(String field, String text) {
        return parse(field, text, MacAddress::of, "a MAC address (02:00:00:00:00:01)");
    }

    private static VlanVid vlan(String field, String text) {
        return VlanVid.ofVlan(number(field, text, 0, 4095));
    }

    private static int number(String field, String text, int min, int max) {
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // explained below
        }
        throw Requests.badRequest(field, "'" + text + "' is not a number within " + min + ".." + max);
    }

    private static <T> T parse(String field, String text, java.util.function.Function<String, T> parser, String what) {
        try {
            return parser.apply(text.trim());
        } catch (RuntimeException e) {
            throw Requests.badRequest(field, "'" + text + "' is not " + what);
        }
    }
}
