package io.heliograph.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.jupiter.api.Test;

/** The contract finds a fake that drifted: run on a broken one, the tests of what it broke fail. */
class SharedStoreContractBitesTest {

    @Test
    void theIntactFakePassesEveryContractTest() {
        Outcome outcome = run(InMemorySharedStoreContractTest.class);
        assertEquals(Set.of(), outcome.failed);
        assertTrue(outcome.passed.size() >= 20, "the contract ran: " + outcome.passed);
    }

    @Test
    void aReplaceThatIgnoresTheVersionFails() {
        assertFails(BrokenInMemoryStores.ReplaceIgnoresTheVersion.class,
                "replaceWritesOnlyOverTheExpectedVersion",
                "aParentMadeByAWriteBelowItHoldsNoValueUntilWrittenAndThenContinuesItsNodesVersion");
    }

    @Test
    void anUpdateThatLosesARaceFails() {
        assertFails(BrokenInMemoryStores.UpdateLosesARace.class, "updateRetriesWhenAnotherWriteCameInBetween");
    }

    @Test
    void aWatchThatDropsRemovalsFails() {
        assertFails(BrokenInMemoryStores.WatchDropsRemovals.class,
                "aWatchHearsTheExistingValuesFirstThenEveryChangeInOrder",
                "aWatchHearsAnotherInstancesWritesBelowAPrefixThatDidNotExist",
                "aWatchHearsEveryValueADeleteTakesAndAnUpdateThatClearsAKey");
    }

    @Test
    void aWatchThatGoesOnAfterItsCloseFails() {
        assertFails(BrokenInMemoryStores.ClosedWatchGoesOn.class,
                "aWatchHearsTheExistingValuesFirstThenEveryChangeInOrder");
    }

    @Test
    void aLeaderNeverToldItLostFails() {
        assertFails(BrokenInMemoryStores.LeaderNeverToldItLost.class,
                "aLeaderThatLosesItsSessionIsToldBeforeAnotherLeads",
                "oneCandidateLeadsAndClosingHandsTheLeadershipToTheNext",
                "withoutASessionEveryCallFailsAndChangesNothingAndWatchesAndLeadershipsComeBack");
    }

    private static void assertFails(Class<?> broken, String... expected) {
        Outcome outcome = run(broken);
        assertTrue(outcome.failed.containsAll(Set.of(expected)),
                broken.getSimpleName() + " fails " + Set.of(expected) + ", failed: " + outcome.failed);
        assertTrue(outcome.passed.size() >= 10, "the rest of the contract ran and passed: " + outcome.passed);
    }

    /** Runs a contract class with the JUnit Platform launcher: its passed and failed test methods. */
    private static Outcome run(Class<?> contract) {
        Outcome outcome = new Outcome();
        LauncherFactory.create().execute(
                LauncherDiscoveryRequestBuilder.request().selectors(DiscoverySelectors.selectClass(contract)).build(),
                outcome);
        return outcome;
    }

    private static final class Outcome implements TestExecutionListener {
        final Set<String> passed = new TreeSet<>();
        final Set<String> failed = new TreeSet<>();

        @Override
        public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isTest() && test.getSource().orElse(null) instanceof MethodSource method) {
                (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL ? passed : failed).add(method.getMethodName());
            }
        }
    }
}
