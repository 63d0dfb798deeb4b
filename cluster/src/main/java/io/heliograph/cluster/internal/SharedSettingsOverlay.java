package io.heliograph.cluster.internal;

import java.util.Dictionary;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.service.cm.ConfigurationPlugin;

/**
 * Lays the cluster's shared settings of a pid over the properties Configuration Admin delivers for it
 * (those of its etc/ file): a shared setting wins. Configuration Admin keeps the file's values; only
 * what components receive changes, so forgetting a pid's shared settings brings the file's back at the
 * next delivery.
 */
final class SharedSettingsOverlay implements ConfigurationPlugin {

    /** Above plugins that fill in values (negative ranks), below those that check the final ones (above 1000). */
    static final int RANKING = 100;

    private final Map<String, Map<String, String>> shared = new ConcurrentHashMap<>();

    /** Whether the pid's shared settings differ from those held before. */
    boolean put(String pid, Map<String, String> settings) {
        return !Map.copyOf(settings).equals(shared.put(pid, Map.copyOf(settings)));
    }

    /** Whether the pid had shared settings. */
    boolean remove(String pid) {
        return shared.remove(pid) != null;
    }

    /** The pid's shared settings, null when it has none. */
    Map<String, String> settingsOf(String pid) {
        return shared.get(pid);
    }

    @Override
    public void modifyConfiguration(ServiceReference<?> target, Dictionary<String, Object> properties) {
        Object servicePid = properties.get(Constants.SERVICE_PID);
        if (servicePid == null) {
            return;
        }
        // a targeted pid (pid|bundle|version|location) takes the settings of its pid
        String pid = servicePid.toString();
        int bar = pid.indexOf('|');
        Map<String, String> settings = shared.get(bar < 0 ? pid : pid.substring(0, bar));
        if (settings != null) {
            settings.forEach(properties::put);
        }
    }
}
