package io.heliograph.core.pipeline;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;

/**
 * Gogo shell command {@code heliograph:switches}: one line per connected switch with its datapath
 * id, address, OpenFlow version, port count, connection time and description. The shell finds it by
 * the service properties; no Gogo type is needed.
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=switches",
    ConsoleCommands.HELP + "=switches|connected switches: dpid, address, version, ports, since, description"})
public final class SwitchCommands {

    private static final DateTimeFormatter SINCE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);

    private final SwitchService service;

    @Activate
    public SwitchCommands(@Reference SwitchService service) {
        this.service = service;
    }

    /** The connected switches, by datapath id. */
    public String switches() {
        List<OFSwitch> switches = new ArrayList<>(service.getSwitches().values());
        if (switches.isEmpty()) {
            return "no switches connected";
        }
        switches.sort(Comparator.comparing(OFSwitch::getId));
        StringBuilder out = new StringBuilder(String.format("%-23s %-21s %-7s %5s %-20s %s%n",
                "dpid", "address", "version", "ports", "connected since", "description"));
        for (OFSwitch sw : switches) {
            out.append(String.format("%-23s %-21s %-7s %5d %-20s %s%n", sw.getId(), address(sw.getRemoteAddress()),
                    sw.getVersion(), sw.getPorts().size(), since(sw.getConnectedSince()),
                    description(sw.getDescription())));
        }
        return out.append(switches.size()).append(switches.size() == 1 ? " switch" : " switches").toString();
    }

    private static String address(InetSocketAddress address) {
        if (address == null) {
            return "-";
        }
        String host = address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
        return host + ":" + address.getPort();
    }

    private static String since(Instant since) {
        return since == null ? "-" : SINCE.format(since);
    }

    /** Manufacturer, hardware and software, as the switch says them (Open vSwitch: "Nicira, Inc. ..."). */
    private static String description(OFDescStatsReply desc) {
        if (desc == null) {
            return "-";
        }
        return String.join(" / ", desc.getMfrDesc().trim(), desc.getHwDesc().trim(), desc.getSwDesc().trim());
    }
}
