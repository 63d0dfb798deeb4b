package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBadActionCode;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFGroupAdd;
import org.projectfloodlight.openflow.protocol.OFGroupDelete;
import org.projectfloodlight.openflow.protocol.OFGroupModify;
import org.projectfloodlight.openflow.protocol.OFMeterMod;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.GroupEntry.Bucket;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.MeterEntry.Band;

class EntryMessagesTest {

    private static final DatapathId DPID = DatapathId.of(1);
    private final OFFactory factory = OFFactories.getFactory(OFVersion.OF_13);
    private final Translator t = new Translator(factory);

    private static FlowEntry web(int priority, int port) {
        return FlowEntry.builder(DPID, "web").priority(priority).match("in_port", "1").apply(Action.output(port)).build();
    }

    private static GroupEntry group(String name, long id) {
        return new GroupEntry(DPID, name, id, GroupEntry.Type.ALL, List.of(Bucket.of(Action.output(1))));
    }

    @Test
    void aFlowIsOneAddThatMustSucceed() {
        List<Pusher.Op> ops = EntryMessages.install(t, web(100, 2));
        assertEquals(1, ops.size());
        assertTrue(t.flowAdd(web(100, 2)).equalsIgnoreXid(ops.get(0).message()));
        assertEquals("web", ops.get(0).entry());
        assertEquals(List.of(false), ops.stream().map(Pusher.Op::mayFail).toList());
    }

    @Test
    void aGroupOrMeterIsAnAddThatMayFailThenAModifyThatMustNot() {
        List<Pusher.Op> group = EntryMessages.install(t, group("g5", 5));
        assertTrue(group.get(0).message() instanceof OFGroupAdd);
        assertTrue(group.get(1).message() instanceof OFGroupModify);
        assertEquals(List.of(true, false), group.stream().map(Pusher.Op::mayFail).toList());

        MeterEntry meter = new MeterEntry(DPID, "m", 3, Set.of(MeterEntry.Flag.KBPS), List.of(Band.drop(1000, 0)));
        List<Pusher.Op> ops = EntryMessages.install(t, meter);
        assertEquals(2, ops.size());
        assertTrue(ops.stream().allMatch(op -> op.message() instanceof OFMeterMod));
        assertEquals(List.of(true, false), ops.stream().map(Pusher.Op::mayFail).toList());
    }

    @Test
    void aReplacementInTheSamePlaceRemovesNothingElsewhereTheOldOneIsDeleted() {
        // Same match and priority: the add replaced the flow in place.
        assertEquals(List.of(), EntryMessages.retire(t, web(100, 2), web(100, 3)));
        // Another priority is another flow in the table: the old one goes.
        List<Pusher.Op> moved = EntryMessages.retire(t, web(100, 2), web(200, 2));
        assertEquals(1, moved.size());
        assertTrue(moved.get(0).message() instanceof OFFlowDeleteStrict);
        assertEquals(1, EntryMessages.retire(t, web(100, 2), null).size(), "deleted");

        assertEquals(List.of(), EntryMessages.retire(t, group("g5", 5), group("g5", 5)));
        List<Pusher.Op> renumbered = EntryMessages.retire(t, group("g5", 5), group("g5", 6));
        assertTrue(renumbered.get(0).message() instanceof OFGroupDelete del && del.getGroup().getGroupNumber() == 5);
    }

    @Test
    void onlyRefusalsOfOpsThatMustSucceedAreErrors() {
        List<Pusher.Op> ops = EntryMessages.install(t, group("g5", 5));
        OFErrorMsg error = factory.errorMsgs().buildBadActionErrorMsg().setCode(OFBadActionCode.BAD_OUT_GROUP).build();
        assertEquals(List.of(), EntryMessages.errors(List.of(new Pusher.Refusal(ops.get(0), error))), "the ADD of an existing group");
        assertEquals(List.of(new Pusher.Refusal(ops.get(1), error).describe()),
                EntryMessages.errors(List.of(new Pusher.Refusal(ops.get(0), error), new Pusher.Refusal(ops.get(1), error))));
    }
}
