package io.heliograph.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBundleCtrlType;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.core.OFBundle;

/** The fake's bundles, which the apps' tests (a circuit executor's) rely on: nothing until commit, then all at once. */
class FakeSwitchBundlesTest {

    @Test
    void aBundleAppliesNothingUntilItsCommitThenEverythingTogether() throws Exception {
        List<OFMessage> applied = new ArrayList<>();
        FakeSwitch sw = new FakeSwitch(1, OFVersion.OF_14).onWrite(applied::add);
        assertTrue(sw.supportsBundles());
        OFMessage a = sw.getFactory().buildFlowAdd().setPriority(1).build();
        OFMessage b = sw.getFactory().buildFlowAdd().setPriority(2).build();
        OFBundle bundle = sw.bundle().add(a, b);
        assertTrue(sw.written().isEmpty() && applied.isEmpty(), "nothing before the commit");
        assertEquals(OFBundleCtrlType.COMMIT_REPLY, bundle.commit().get().getBundleCtrlType());
        assertEquals(List.of(a, b), sw.take());
        assertEquals(List.of(a, b), applied);
        assertThrows(IllegalStateException.class, () -> bundle.add(a));

        sw.failBundleCommits(new IllegalStateException("refused"));
        assertThrows(ExecutionException.class, () -> sw.bundle().add(a).commit().get());
        assertTrue(sw.take().isEmpty(), "a refused bundle applies nothing");
        assertFalse(new FakeSwitch(2).supportsBundles());
        assertThrows(UnsupportedOperationException.class, () -> new FakeSwitch(2).bundle());
    }
}
