package io.heliograph.core.cluster;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;

/**
 * App configuration shared by every instance of the cluster, kept in the {@link SharedStore}: the
 * settings shared for a pid override, on every instance, the ones its {@code etc/<pid>.cfg} file gives,
 * and apply live; deleting them brings the file's values back. Only Heliograph's pids ({@code io.heliograph.*})
 * can be shared, those whose bundle describes its settings (OSGi Metatype); an instance's own settings (its
 * ports, addresses and identity: {@link #LOCAL_PIDS}) cannot.
 *
 * <p>Reads go to the store, so a read on any instance sees a write that has returned on another.
 * Writes are validated against the pid's metatype before anything is written. Every method fails with
 * {@link StoreUnavailableException} while this instance has no ZooKeeper session, and writes with
 * {@link InvalidSettingsException} naming the problem.
 */
public interface SharedConfigurationService {

    /** Pids whose settings belong to one instance and are never shared. */
    List<String> LOCAL_PIDS = List.of("io.heliograph.openflow", "io.heliograph.webui", "io.heliograph.cluster");

    /** Every pid that can be shared, and every pid the store holds settings for, sorted by pid. */
    List<PidSettings> list();

    /** The settings shared for a pid (none yet: empty, version {@link SharedStore.Versioned#ABSENT}). */
    PidSettings get(String pid);

    /** Replaces the settings shared for a pid, once they are valid; answers them with their new version. */
    PidSettings set(String pid, Map<String, String> settings);

    /** Stops sharing settings for a pid (its file's values apply again); false when none were shared. */
    boolean delete(String pid);

    /**
     * The settings shared for one pid, with the version of their last write ({@code -1}: none shared), and
     * what can be set for the pid (empty when no bundle of this instance describes it).
     */
    record PidSettings(String pid, Map<String, String> settings, long version, List<Setting> known) {
        public PidSettings {
            settings = Collections.unmodifiableMap(new TreeMap<>(settings));
            known = List.copyOf(known);
        }
    }

    /** One setting a pid takes, as its metatype describes it; {@code defaultValue} is null when it has none. */
    record Setting(String id, String type, String defaultValue, String description) {
    }

    /** Refused settings; {@link #key()} names the setting to blame, or is null when the pid itself is. */
    final class InvalidSettingsException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        private final String key;

        public InvalidSettingsException(String key, String message) {
            super(message);
            this.key = key;
        }

        public String key() {
            return key;
        }
    }
}
