package io.heliograph.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.osgi.framework.Constants;

import io.heliograph.core.cluster.SharedConfigurationService.InvalidSettingsException;
import io.heliograph.core.cluster.SharedConfigurationService.PidSettings;
import io.heliograph.core.cluster.SharedConfigurationService.Setting;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.testing.InMemorySharedStore;

/**
 * Shared settings over an in-JVM store with two instances: what is written is checked first and read back
 * by the other instance, and each instance's overlay follows the store into the properties Configuration
 * Admin delivers, asking for the pid to be delivered again at every change.
 */
class SharedSettingsTest {

    private static final String FORWARDING = "io.heliograph.forwarding";
    private static final String LEARNING = "io.heliograph.learningswitch";

    private final SettingsSchema schema = new SettingsSchema(Map.of(
            FORWARDING, FakeMetatype.pid(FORWARDING,
                    FakeMetatype.integer("idleTimeout", 0, 65535, 5, "seconds without traffic"),
                    FakeMetatype.bool("ecmp", true, "spread flows"),
                    FakeMetatype.choice("matchGranularity", "TRANSPORT", "what flows match", "MAC", "IP", "TRANSPORT")),
            LEARNING, FakeMetatype.pid(LEARNING, FakeMetatype.integer("priority", 1, 65535, 1, "flow priority")),
            "io.heliograph.openflow", FakeMetatype.pid("io.heliograph.openflow",
                    FakeMetatype.integer("port", 1, 65535, 6653, "the OpenFlow port")),
            "org.apache.felix.scr.ScrService", FakeMetatype.pid("org.apache.felix.scr.ScrService",
                    FakeMetatype.integer("ds.loglevel", 0, 4, 1, "how much SCR logs"))));

    private final InMemorySharedStore store = new InMemorySharedStore();
    private final Instance first = new Instance(store, () -> schema);
    private final Instance second = new Instance(store.anotherInstance("instance-2"), () -> schema);

    /** One controller instance: its settings, overlay and the pids it was asked to deliver again. */
    private static final class Instance {
        final SharedSettingsOverlay overlay = new SharedSettingsOverlay();
        final List<String> redelivered = new ArrayList<>();
        final SharedSettings settings;

        Instance(SharedStore store, Supplier<SettingsSchema> schema) {
            settings = new SharedSettings(store, schema, overlay, redelivered::add);
            store.watch(SharedSettings.PREFIX, settings);
        }

        /** What a component of the pid would receive, given its file's properties. */
        Hashtable<String, Object> delivered(String pid, Map<String, Object> file) {
            Hashtable<String, Object> properties = new Hashtable<>(file);
            properties.put(Constants.SERVICE_PID, pid);
            overlay.modifyConfiguration(null, properties);
            return properties;
        }
    }

    @Test
    void settingsWrittenThroughOneInstanceAreReadAndAppliedByTheOther() {
        PidSettings written = first.settings.set(FORWARDING, Map.of("idleTimeout", "7", "ecmp", "false"));
        assertEquals(Map.of("idleTimeout", "7", "ecmp", "false"), written.settings());
        assertEquals(0, written.version());

        PidSettings read = second.settings.get(FORWARDING);
        assertEquals(written.settings(), read.settings());
        assertEquals(written.version(), read.version());
        assertEquals(List.of(FORWARDING), second.redelivered, "the other instance was not asked to deliver again");

        Hashtable<String, Object> delivered = second.delivered(FORWARDING,
                Map.of("idleTimeout", "3", "priority", "20", "felix.fileinstall.filename", "file:/etc/f.cfg"));
        assertEquals("7", delivered.get("idleTimeout"), "the shared value wins over the file's");
        assertEquals("false", delivered.get("ecmp"));
        assertEquals("20", delivered.get("priority"), "a setting not shared keeps the file's value");

        assertEquals(1, first.settings.set(FORWARDING, Map.of("idleTimeout", "9")).version());
        Hashtable<String, Object> replaced = second.delivered(FORWARDING, Map.of("ecmp", "true"));
        assertEquals("9", replaced.get("idleTimeout"));
        assertEquals("true", replaced.get("ecmp"), "a setting left out of a replacement is no longer shared");
        assertEquals(List.of(FORWARDING, FORWARDING), second.redelivered);
    }

    @Test
    void deletingTheSharedSettingsBringsTheFilesValuesBack() {
        first.settings.set(LEARNING, Map.of("priority", "5"));
        assertEquals("5", second.delivered(LEARNING, Map.of("priority", "2")).get("priority"));

        assertTrue(second.settings.delete(LEARNING));
        assertEquals("2", first.delivered(LEARNING, Map.of("priority", "2")).get("priority"));
        assertNull(first.delivered(LEARNING, Map.of()).get("priority"), "nothing shared is left over");
        assertEquals(List.of(LEARNING, LEARNING), first.redelivered, "set and delete: two deliveries");
        PidSettings after = first.settings.get(LEARNING);
        assertEquals(Map.of(), after.settings());
        assertEquals(SharedStore.Versioned.ABSENT, after.version());
        assertFalse(first.settings.delete(LEARNING), "nothing left to delete");
    }

    @Test
    void otherPidsAreDeliveredUntouched() {
        first.settings.set(FORWARDING, Map.of("idleTimeout", "7"));
        assertEquals(Map.of("idleTimeout", "3", Constants.SERVICE_PID, LEARNING),
                first.delivered(LEARNING, Map.of("idleTimeout", "3")));
    }

    @Test
    void anUnknownKeyIsRefusedNamingItAndTheKnownOnesWithNothingWritten() {
        InvalidSettingsException e = assertThrows(InvalidSettingsException.class,
                () -> first.settings.set(FORWARDING, Map.of("idleTimeout", "7", "idleTimout", "8")));
        assertEquals("idleTimout", e.key());
        assertEquals("io.heliograph.forwarding has no setting 'idleTimout'; its settings: ecmp, idleTimeout, "
                + "matchGranularity", e.getMessage());
        assertNothingShared(FORWARDING);
    }

    @Test
    void aBadValueIsRefusedWithTheMetatypesMessageNamingTheKey() {
        InvalidSettingsException e = assertThrows(InvalidSettingsException.class,
                () -> first.settings.set(FORWARDING, Map.of("idleTimeout", "70000")));
        assertEquals("idleTimeout", e.key());
        assertEquals("io.heliograph.forwarding: idleTimeout = '70000' is refused: Value is greater than 65535 "
                + "(Integer: seconds without traffic)", e.getMessage());
        e = assertThrows(InvalidSettingsException.class,
                () -> first.settings.set(FORWARDING, Map.of("matchGranularity", "PORT")));
        assertEquals("matchGranularity", e.key());
        assertTrue(e.getMessage().endsWith("Value not among [MAC, IP, TRANSPORT] (String: what flows match)"),
                e.getMessage());
        assertNothingShared(FORWARDING);
    }

    @Test
    void aPidWithoutMetatypeIsRefusedListingTheShareableOnes() {
        InvalidSettingsException e = assertThrows(InvalidSettingsException.class,
                () -> first.settings.set("io.heliograph.nosuchapp", Map.of("a", "1")));
        assertNull(e.key(), "the pid is to blame");
        assertEquals("no bundle of this instance describes the settings of pid 'io.heliograph.nosuchapp' (OSGi "
                + "metatype), so they cannot be checked or shared; shareable pids: io.heliograph.forwarding, "
                + "io.heliograph.learningswitch", e.getMessage());
        assertThrows(InvalidSettingsException.class, () -> first.settings.get("io.heliograph.nosuchapp"));
        assertNothingShared("io.heliograph.nosuchapp");
    }

    @Test
    void anInstancesOwnPidsAreNeverShared() {
        for (String local : List.of("io.heliograph.openflow", "io.heliograph.webui", "io.heliograph.cluster")) {
            InvalidSettingsException e = assertThrows(InvalidSettingsException.class,
                    () -> first.settings.set(local, Map.of("port", "7000")));
            assertTrue(e.getMessage().startsWith(local + " is this instance's own configuration"), e.getMessage());
            assertThrows(InvalidSettingsException.class, () -> first.settings.get(local));
            assertThrows(InvalidSettingsException.class, () -> first.settings.delete(local));
        }
        // written behind the service's back: still never applied
        store.put("config/io.heliograph.openflow", "{\"port\":\"7000\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals("6653", first.delivered("io.heliograph.openflow", Map.of("port", "6653")).get("port"));
        assertEquals(List.of(), first.redelivered);
        assertEquals(List.of(FORWARDING, LEARNING), first.settings.list().stream().map(PidSettings::pid).toList());
    }

    @Test
    void thePlatformsOwnPidsAreNeverSharedThoughTheirBundlesDescribeThem() {
        InvalidSettingsException e = assertThrows(InvalidSettingsException.class,
                () -> first.settings.set("org.apache.felix.scr.ScrService", Map.of("ds.loglevel", "4")));
        assertNull(e.key());
        assertTrue(e.getMessage().startsWith("'org.apache.felix.scr.ScrService' is not a Heliograph pid"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("shareable pids: io.heliograph.forwarding, io.heliograph.learningswitch"),
                e.getMessage());
        assertNothingShared("org.apache.felix.scr.ScrService");
    }

    @Test
    void aPidThatIsNoStoreKeySegmentIsRefusedNamingThePid() {
        InvalidSettingsException e = assertThrows(InvalidSettingsException.class,
                () -> first.settings.get("io.heliograph.x/y"));
        assertNull(e.key());
        assertTrue(e.getMessage().startsWith("pid 'io.heliograph.x/y'"), e.getMessage());
    }

    @Test
    void theListHasEveryShareablePidWithWhatItTakesAndPidsOnlyTheStoreKnows() {
        first.settings.set(LEARNING, Map.of("priority", "5"));
        store.put("config/io.heliograph.removedapp", "{\"x\":\"1\"}".getBytes(StandardCharsets.UTF_8));
        List<PidSettings> all = second.settings.list();
        assertEquals(List.of(FORWARDING, LEARNING, "io.heliograph.removedapp"),
                all.stream().map(PidSettings::pid).toList());
        assertEquals(Map.of(), all.get(0).settings());
        assertEquals(List.of(new Setting("idleTimeout", "Integer", "5", "seconds without traffic"),
                new Setting("ecmp", "Boolean", "true", "spread flows"),
                new Setting("matchGranularity", "String", "TRANSPORT", "what flows match")), all.get(0).known());
        assertEquals(Map.of("priority", "5"), all.get(1).settings());
        assertEquals(0, all.get(1).version());
        assertEquals(Map.of("x", "1"), all.get(2).settings());
        assertEquals(List.of(), all.get(2).known(), "no bundle describes it any more");
    }

    @Test
    void withoutTheMetatypeServiceReadsWorkAndWritesAreRefused() {
        SharedSettings blind = new Instance(store, () -> SettingsSchema.NONE).settings;
        first.settings.set(FORWARDING, Map.of("idleTimeout", "7"));
        assertEquals(Map.of("idleTimeout", "7"), blind.get(FORWARDING).settings());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> blind.set(FORWARDING, Map.of("idleTimeout", "8")));
        assertTrue(e.getMessage().startsWith("no OSGi Metatype service runs"), e.getMessage());
        assertEquals("7", first.delivered(FORWARDING, Map.of()).get("idleTimeout"));
    }

    @Test
    void aDamagedValueIsIgnoredAndTheLastGoodSettingsStay() {
        first.settings.set(FORWARDING, Map.of("idleTimeout", "7"));
        store.put("config/" + FORWARDING, "not json".getBytes(StandardCharsets.UTF_8));
        assertEquals("7", second.delivered(FORWARDING, Map.of()).get("idleTimeout"));
        assertEquals(List.of(FORWARDING), second.redelivered);
    }

    @Test
    void theStoreBeingAwayFailsTheCallWithNothingWritten() {
        store.setAvailable(false);
        assertThrows(SharedStore.StoreUnavailableException.class,
                () -> first.settings.set(FORWARDING, Map.of("idleTimeout", "7")));
        store.setAvailable(true);
        assertNothingShared(FORWARDING);
    }

    private void assertNothingShared(String pid) {
        assertTrue(store.get("config/" + pid).isEmpty(), "written to the store: " + store.get("config/" + pid));
        assertEquals(List.of(), first.redelivered);
        assertEquals(List.of(), second.redelivered);
    }
}
