package io.heliograph.webui.rest;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.projectfloodlight.openflow.protocol.OFAggregateStatsReply;
import org.projectfloodlight.openflow.protocol.OFAggregateStatsRequest;
import org.projectfloodlight.openflow.protocol.OFControllerRole;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFGroupStatsReply;
import org.projectfloodlight.openflow.protocol.OFMeterConfigStatsReply;
import org.projectfloodlight.openflow.protocol.OFMeterStatsReply;
import org.projectfloodlight.openflow.protocol.OFPortStatsReply;
import org.projectfloodlight.openflow.protocol.OFPortStatsRequest;
import org.projectfloodlight.openflow.protocol.OFRoleReply;
import org.projectfloodlight.openflow.protocol.OFTableStatsReply;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.OFSwitch;
import io.heliograph.webui.rest.SwitchJson.Aggregate;
import io.heliograph.webui.rest.SwitchJson.Flow;
import io.heliograph.webui.rest.SwitchJson.Group;
import io.heliograph.webui.rest.SwitchJson.Meter;
import io.heliograph.webui.rest.SwitchJson.PortStatistics;
import io.heliograph.webui.rest.SwitchJson.Role;
import io.heliograph.webui.rest.SwitchJson.Statistics;
import io.heliograph.webui.rest.SwitchJson.Table;

/**
 * What the resources ask a switch, each as one statistics (or role) request answered within the
 * {@link SwitchQueries} timeout, and turned into {@link SwitchJson} records. The {@code /api/v1}
 * resource and the Floodlight aliases both read switches through here.
 */
final class SwitchReads {

    /** OFPM_ALL: every meter. */
    private static final long ALL_METERS = 0xffffffffL;

    private final SwitchQueries queries;

    SwitchReads(SwitchQueries queries) {
        this.queries = queries;
    }

    /** Every flow entry of every table. */
    List<Flow> flows(OFSwitch sw) {
        return queries.statistics(sw, flowRequest(sw)).stream()
                .flatMap(r -> r.getEntries().stream()).map(SwitchViews::flow).toList();
    }

    List<Table> tables(OFSwitch sw) {
        return queries.statistics(sw, sw.getFactory().buildTableStatsRequest().build()).stream()
                .flatMap((OFTableStatsReply r) -> r.getEntries().stream()).map(SwitchViews::table).toList();
    }

    List<Group> groups(OFSwitch sw) {
        SwitchQueries.requireVersion(sw, OFVersion.OF_11, "groups");
        OFFactory f = sw.getFactory();
        CompletableFuture<List<OFGroupDescStatsReply>> descriptions =
                sw.requestStatistics(f.buildGroupDescStatsRequest().build());
        CompletableFuture<List<OFGroupStatsReply>> counters =
                sw.requestStatistics(f.buildGroupStatsRequest().setGroup(OFGroup.ALL).build());
        return SwitchViews.groups(
                await(sw, "group description statistics", descriptions).stream()
                        .flatMap(r -> r.getEntries().stream()).toList(),
                await(sw, "group statistics", counters).stream().flatMap(r -> r.getEntries().stream()).toList());
    }

    List<Meter> meters(OFSwitch sw) {
        SwitchQueries.requireVersion(sw, OFVersion.OF_13, "meters");
        OFFactory f = sw.getFactory();
        CompletableFuture<List<OFMeterConfigStatsReply>> configs =
                sw.requestStatistics(f.buildMeterConfigStatsRequest().setMeterId(ALL_METERS).build());
        CompletableFuture<List<OFMeterStatsReply>> counters =
                sw.requestStatistics(f.buildMeterStatsRequest().setMeterId(ALL_METERS).build());
        return SwitchViews.meters(
                await(sw, "meter configuration statistics", configs).stream()
                        .flatMap(r -> r.getEntries().stream()).toList(),
                await(sw, "meter statistics", counters).stream().flatMap(r -> r.getEntries().stream()).toList());
    }

    List<PortStatistics> portStatistics(OFSwitch sw) {
        return queries.statistics(sw, portRequest(sw)).stream()
                .flatMap((OFPortStatsReply r) -> r.getEntries().stream()).map(SwitchViews::portStatistics)
                .sorted((a, b) -> Long.compare(a.port(), b.port())).toList();
    }

    Aggregate aggregate(OFSwitch sw) {
        return SwitchViews.aggregate(queries.statistics(sw, aggregateRequest(sw)).get(0));
    }

    /** Port counters and flow totals, both requests in flight at once. */
    Statistics statistics(OFSwitch sw) {
        CompletableFuture<List<OFPortStatsReply>> ports = sw.requestStatistics(portRequest(sw));
        CompletableFuture<List<OFAggregateStatsReply>> aggregate = sw.requestStatistics(aggregateRequest(sw));
        List<PortStatistics> portStatistics = await(sw, "port statistics", ports).stream()
                .flatMap(r -> r.getEntries().stream()).map(SwitchViews::portStatistics)
                .sorted((a, b) -> Long.compare(a.port(), b.port())).toList();
        return new Statistics(sw.getId().toString(), portStatistics,
                SwitchViews.aggregate(await(sw, "aggregate statistics", aggregate).get(0)));
    }

    /** The controller's current role, asked with ROLE_NOCHANGE so that asking changes nothing. */
    Role role(OFSwitch sw) {
        SwitchQueries.requireVersion(sw, OFVersion.OF_12, "role requests");
        OFRoleReply reply = queries.await(sw, "role", sw.request(sw.getFactory().buildRoleRequest()
                .setRole(OFControllerRole.ROLE_NOCHANGE).setGenerationId(U64.ZERO).build()));
        return new Role(sw.getId().toString(), roleName(reply.getRole()),
                Long.toUnsignedString(reply.getGenerationId().getValue()));
    }

    /** ROLE_MASTER -> MASTER. */
    static String roleName(OFControllerRole role) {
        return role.name().startsWith("ROLE_") ? role.name().substring(5) : role.name();
    }

    private <T> T await(OFSwitch sw, String what, CompletableFuture<T> answer) {
        return queries.await(sw, what, answer);
    }

    private static OFFlowStatsRequest flowRequest(OFSwitch sw) {
        OFFlowStatsRequest.Builder b = sw.getFactory().buildFlowStatsRequest()
                .setMatch(sw.getFactory().buildMatch().build()).setTableId(TableId.ALL).setOutPort(OFPort.ANY);
        if (sw.getVersion().compareTo(OFVersion.OF_11) >= 0) {
            b.setOutGroup(OFGroup.ANY);
        }
        return b.build();
    }

    private static OFAggregateStatsRequest aggregateRequest(OFSwitch sw) {
        OFAggregateStatsRequest.Builder b = sw.getFactory().buildAggregateStatsRequest()
                .setMatch(sw.getFactory().buildMatch().build()).setTableId(TableId.ALL).setOutPort(OFPort.ANY);
        if (sw.getVersion().compareTo(OFVersion.OF_11) >= 0) {
            b.setOutGroup(OFGroup.ANY);
        }
        return b.build();
    }

    private static OFPortStatsRequest portRequest(OFSwitch sw) {
        return sw.getFactory().buildPortStatsRequest().setPortNo(OFPort.ANY).build();
    }
}
