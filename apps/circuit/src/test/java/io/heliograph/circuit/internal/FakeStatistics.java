package io.heliograph.circuit.internal;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.FlowKey;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.StatisticsService;
import io.heliograph.stats.SwitchStatistics;
import io.heliograph.stats.TrafficMatrix;

/** The statistics app's latest flow statistics of chosen switches; nothing else. */
class FakeStatistics implements StatisticsService {

    private static final OFFactory F = OFFactories.getFactory(OFVersion.OF_13);

    private final Map<DatapathId, SwitchStatistics> bySwitch = new HashMap<>();

    /** A flow statistics entry of this cookie and byte count. */
    static OFFlowStatsEntry entry(long cookie, long bytes) {
        return F.buildFlowStatsEntry().setCookie(U64.of(cookie)).setByteCount(U64.of(bytes)).build();
    }

    /** The switch's flow statistics, received at {@code at}. */
    void flows(long dpid, Instant at, OFFlowStatsEntry... entries) {
        bySwitch.put(DatapathId.of(dpid), new SwitchStatistics(DatapathId.of(dpid), SwitchStatistics.Sample.none(),
                new SwitchStatistics.Sample<>(at, List.of(entries)), SwitchStatistics.Sample.none(),
                SwitchStatistics.Sample.none(), SwitchStatistics.Sample.none()));
    }

    @Override
    public SwitchStatistics getSwitchStatistics(DatapathId dpid) {
        return bySwitch.get(dpid);
    }

    @Override
    public PortRate getPortRate(SwitchPort port) {
        return null;
    }

    @Override
    public List<PortRate> getPortRateHistory(SwitchPort port) {
        return List.of();
    }

    @Override
    public List<PortRate> getPortRates(DatapathId dpid) {
        return List.of();
    }

    @Override
    public List<FlowRate> getFlowRates(DatapathId dpid) {
        return List.of();
    }

    @Override
    public List<FlowRate> getFlowRateHistory(DatapathId dpid, FlowKey flow) {
        return List.of();
    }

    @Override
    public TrafficMatrix getTrafficMatrix() {
        return null;
    }
}
