package io.heliograph.webui.rest;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.projectfloodlight.openflow.protocol.OFAggregateStatsRequest;
import org.projectfloodlight.openflow.protocol.OFCapabilities;
import org.projectfloodlight.openflow.protocol.OFControllerRole;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupType;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFMeterConfigStatsRequest;
import org.projectfloodlight.openflow.protocol.OFMeterFlags;
import org.projectfloodlight.openflow.protocol.OFMeterStatsRequest;
import org.projectfloodlight.openflow.protocol.OFOxsList;
import org.projectfloodlight.openflow.protocol.OFPortStatsRequest;
import org.projectfloodlight.openflow.protocol.OFRoleRequest;
import org.projectfloodlight.openflow.protocol.OFTableStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.OFAuxId;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U32;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.testing.FakeSwitch;

/**
 * A switch's answers to the statistics and role requests the resources send, with fixed, distinct
 * numbers so a test sees each one land in its JSON field. Requests it has no answer for fail the
 * test's request, as a switch's error would.
 */
final class OpenFlowReplies implements FakeSwitch.Responder {

    private final OFFactory f;

    OpenFlowReplies(OFFactory factory) {
        this.f = factory;
    }

    /** A switch with ports 1..3 and LOCAL, its features and description, answering with these replies. */
    static FakeSwitch fakeSwitch(long dpid, OFVersion version) {
        FakeSwitch sw = new FakeSwitch(dpid, version, 3);
        var factory = sw.getFactory();
        var features = factory.buildFeaturesReply().setDatapathId(sw.getId()).setNBuffers(256).setNTables((short) 254)
                .setCapabilities(Set.of(OFCapabilities.FLOW_STATS, OFCapabilities.PORT_STATS));
        if (version.compareTo(OFVersion.OF_13) >= 0) {
            features.setAuxiliaryId(OFAuxId.MAIN);
        }
        if (version.compareTo(OFVersion.OF_13) < 0) {
            features.setPorts(List.copyOf(sw.getPorts()));
        }
        sw.setFeatures(features.build());
        sw.setDescription(factory.buildDescStatsReply().setMfrDesc("Nicira, Inc.").setHwDesc("Open vSwitch")
                .setSwDesc("3.1.0").setSerialNum("None").setDpDesc("s" + dpid).build());
        return sw.answerWith(new OpenFlowReplies(factory));
    }

    @Override
    public CompletableFuture<List<OFMessage>> answer(OFMessage request) {
        return CompletableFuture.completedFuture(List.of(reply(request)));
    }

    private OFMessage reply(OFMessage request) {
        if (request instanceof OFFlowStatsRequest) {
            var entry = f.buildFlowStatsEntry().setTableId(TableId.of(0)).setPriority(100).setCookie(U64.of(0x2a))
                    .setIdleTimeout(30).setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(1))
                            .setExact(MatchField.ETH_TYPE, EthType.IPv4).build());
            if (f.getVersion().compareTo(OFVersion.OF_15) >= 0) {       // 1.5: counters are OXS statistics
                entry.setStats(f.buildStatV6().setOxsFields(OFOxsList.of(f.oxss().packetCount(U64.of(7)),
                        f.oxss().byteCount(U64.of(700)), f.oxss().duration(U64.of(12L << 32 | 500)))).build());
            } else {
                entry.setPacketCount(U64.of(7)).setByteCount(U64.of(700)).setDurationSec(12);
            }
            var output = f.actions().output(OFPort.of(2), 0xffff);
            if (f.getVersion() == OFVersion.OF_10) {
                entry.setActions(List.of(output));
            } else {
                entry.setInstructions(List.of(f.instructions().applyActions(List.of(output))));
            }
            return f.buildFlowStatsReply().setXid(request.getXid()).setEntries(List.of(entry.build())).build();
        }
        if (request instanceof OFTableStatsRequest) {
            var entry = f.buildTableStatsEntry().setTableId(TableId.of(0)).setActiveCount(3)
                    .setLookupCount(U64.of(100)).setMatchedCount(U64.of(90));
            if (f.getVersion() == OFVersion.OF_10) {
                entry.setName("classifier").setMaxEntries(1_000_000);
            }
            return f.buildTableStatsReply().setEntries(List.of(entry.build())).build();
        }
        if (request instanceof OFGroupDescStatsRequest) {
            var bucket = f.buildBucket().setWeight(1).setWatchPort(OFPort.ANY).setWatchGroup(OFGroup.ANY)
                    .setActions(List.of(f.actions().output(OFPort.of(1), 0xffff))).build();
            var bucket2 = f.buildBucket().setWeight(3).setWatchPort(OFPort.ANY).setWatchGroup(OFGroup.ANY)
                    .setActions(List.of(f.actions().output(OFPort.of(2), 0xffff))).build();
            return f.buildGroupDescStatsReply().setEntries(List.of(f.buildGroupDescStatsEntry()
                    .setGroup(OFGroup.of(5)).setGroupType(OFGroupType.SELECT).setBuckets(List.of(bucket, bucket2))
                    .build())).build();
        }
        if (request instanceof OFGroupStatsRequest) {
            return f.buildGroupStatsReply().setEntries(List.of(f.buildGroupStatsEntry().setGroup(OFGroup.of(5))
                    .setRefCount(2).setPacketCount(U64.of(10)).setByteCount(U64.of(1000)).setDurationSec(3)
                    .setBucketStats(List.of(f.bucketCounter(U64.of(6), U64.of(600)),
                            f.bucketCounter(U64.of(4), U64.of(400)))).build())).build();
        }
        if (request instanceof OFMeterConfigStatsRequest) {
            return f.buildMeterConfigStatsReply().setEntries(List.of(f.buildMeterConfig().setMeterId(3)
                    .setFlags(Set.of(OFMeterFlags.KBPS))
                    .setEntries(List.of(f.meterBands().buildDrop().setRate(1000).setBurstSize(100).build()))
                    .build())).build();
        }
        if (request instanceof OFMeterStatsRequest) {
            return f.buildMeterStatsReply().setEntries(List.of(f.buildMeterStats().setMeterId(3).setFlowCount(1)
                    .setPacketInCount(U64.of(50)).setByteInCount(U64.of(5000)).setDurationSec(4)
                    .setBandStats(List.of(f.meterBandStats(U64.of(5), U64.of(500)))).build())).build();
        }
        if (request instanceof OFPortStatsRequest) {
            var entry = f.buildPortStatsEntry().setPortNo(OFPort.of(1)).setRxPackets(U64.of(11))
                    .setTxPackets(U64.of(12)).setRxBytes(U64.of(1100)).setTxBytes(U64.of(1200))
                    .setRxDropped(U64.of(1)).setTxDropped(U64.of(2)).setRxErrors(U64.of(3)).setTxErrors(U64.of(4));
            if (f.getVersion().compareTo(OFVersion.OF_14) < 0) {        // 1.4+ says these in an Ethernet property
                entry.setRxFrameErr(U64.ZERO).setRxOverErr(U64.ZERO).setRxCrcErr(U64.ZERO).setCollisions(U64.ZERO);
            }
            if (f.getVersion().compareTo(OFVersion.OF_13) >= 0) {
                entry.setDurationSec(60);
            }
            return f.buildPortStatsReply().setEntries(List.of(entry.build())).build();
        }
        if (request instanceof OFAggregateStatsRequest) {
            if (f.getVersion().compareTo(OFVersion.OF_15) >= 0) {
                return f.buildAggregateStatsReply().setStats(f.buildStatV6().setOxsFields(OFOxsList.of(
                        f.oxss().flowCount(U32.of(2)), f.oxss().packetCount(U64.of(70)),
                        f.oxss().byteCount(U64.of(7000)))).build()).build();
            }
            return f.buildAggregateStatsReply().setFlowCount(2).setPacketCount(U64.of(70)).setByteCount(U64.of(7000))
                    .build();
        }
        if (request instanceof OFRoleRequest) {
            return f.buildRoleReply().setRole(OFControllerRole.ROLE_MASTER).setGenerationId(U64.of(7)).build();
        }
        throw new UnsupportedOperationException("no answer for " + request.getType());
    }
}
