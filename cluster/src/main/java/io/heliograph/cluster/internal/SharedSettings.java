package io.heliograph.cluster.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.cluster.SharedConfigurationService;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreListener;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.json.Json;

/**
 * The apps' shared settings: one flat JSON object of strings per pid at {@code config/<pid>} in the
 * shared store. Reads and writes go to the store; a watch on {@code config} follows every instance's
 * writes into the {@link SharedSettingsOverlay} and asks for the pid's configuration to be delivered
 * again, so components get the new values whichever instance wrote them.
 */
final class SharedSettings implements SharedConfigurationService, StoreListener {

    static final String PREFIX = "config";

    private static final Logger LOG = LoggerFactory.getLogger(SharedSettings.class);

    private final SharedStore store;
    private final Supplier<SettingsSchema> schema;
    private final SharedSettingsOverlay overlay;
    private final Consumer<String> redeliver;

    /**
     * {@code schema} describes the pids as the bundles installed now do; {@code redeliver} has the pid's
     * configuration delivered again to its components (through the overlay).
     */
    SharedSettings(SharedStore store, Supplier<SettingsSchema> schema, SharedSettingsOverlay overlay,
            Consumer<String> redeliver) {
        this.store = store;
        this.schema = schema;
        this.overlay = overlay;
        this.redeliver = redeliver;
    }

    @Override
    public List<PidSettings> list() {
        SettingsSchema s = schema.get();
        Map<String, Versioned> stored = store.list(PREFIX);
        TreeSet<String> pids = new TreeSet<>(s.pids());
        stored.keySet().stream().filter(pid -> pid.startsWith(SettingsSchema.HELIOGRAPH_PIDS)).forEach(pids::add);
        pids.removeAll(LOCAL_PIDS);
        List<PidSettings> all = new ArrayList<>();
        for (String pid : pids) {
            all.add(settings(pid, Optional.ofNullable(stored.get(pid)), s));
        }
        return all;
    }

    @Override
    public PidSettings get(String pid) {
        SettingsSchema s = schema.get();
        requirePid(pid, s);
        Optional<Versioned> stored = store.get(key(pid));
        if (stored.isEmpty() && s.described() && !s.pids().contains(pid)) {
            // nothing shared and nothing to share: validation names the pid and what is shareable
            s.validate(pid, Map.of());
        }
        return settings(pid, stored, s);
    }

    @Override
    public PidSettings set(String pid, Map<String, String> settings) {
        SettingsSchema s = schema.get();
        requirePid(pid, s);
        s.validate(pid, settings);
        Versioned written = store.put(key(pid), Json.compact(new TreeMap<>(settings)));
        LOG.info("shared configuration: {} set to {} (version {})", pid, new TreeMap<>(settings), written.version());
        return settings(pid, Optional.of(written), s);
    }

    @Override
    public boolean delete(String pid) {
        requirePid(pid, schema.get());
        boolean deleted = store.delete(key(pid));
        if (deleted) {
            LOG.info("shared configuration: {} deleted; its file's settings apply again", pid);
        }
        return deleted;
    }

    /** On the store thread: a pid's settings were written, here or on another instance. */
    @Override
    public void changed(Versioned value) {
        String pid = pidOf(value.key());
        if (pid == null) {
            return;
        }
        Map<String, String> settings;
        try {
            settings = parse(value);
        } catch (IllegalArgumentException e) {
            LOG.error("shared configuration: {} holds no settings object, ignored: {}", value.key(), e.getMessage());
            return;
        }
        if (overlay.put(pid, settings)) {
            redeliver.accept(pid);
        }
    }

    @Override
    public void removed(String key) {
        String pid = pidOf(key);
        if (pid != null && overlay.remove(pid)) {
            redeliver.accept(pid);
        }
    }

    /** The pid of a key directly below {@link #PREFIX}, null for any other key and for an instance's own pids. */
    private static String pidOf(String key) {
        if (!key.startsWith(PREFIX + "/") || key.indexOf('/', PREFIX.length() + 1) >= 0) {
            return null;
        }
        String pid = key.substring(PREFIX.length() + 1);
        if (LOCAL_PIDS.contains(pid) || !pid.startsWith(SettingsSchema.HELIOGRAPH_PIDS)) {
            LOG.warn("shared configuration: {} is no shareable pid (an instance's own, or not Heliograph's): ignored",
                    key);
            return null;
        }
        return pid;
    }

    private static void requirePid(String pid, SettingsSchema s) {
        try {
            StoreKeys.requireSegment("pid", pid);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingsException(null, e.getMessage());
        }
        s.requireShareable(pid);
    }

    private static PidSettings settings(String pid, Optional<Versioned> stored, SettingsSchema s) {
        return new PidSettings(pid, stored.map(SharedSettings::parse).orElse(Map.of()),
                stored.map(Versioned::version).orElse(Versioned.ABSENT), s.known(pid));
    }

    private static Map<String, String> parse(Versioned value) {
        Map<String, String> settings = new TreeMap<>();
        Json.flatObject(value.value()).forEach((k, v) -> settings.put(k, String.valueOf(v)));
        return Collections.unmodifiableMap(settings);
    }

    private static String key(String pid) {
        return PREFIX + "/" + pid;
    }
}
