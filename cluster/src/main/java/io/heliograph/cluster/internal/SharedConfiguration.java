package io.heliograph.cluster.internal;

import java.io.IOException;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.cm.ConfigurationPlugin;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.MetaTypeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.SharedConfigurationService;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SharedStore.Watch;

/**
 * Wires {@link SharedSettings} into the framework: registers the {@link SharedSettingsOverlay} as a
 * Configuration Admin plugin before following the store, so that every configuration delivered from
 * then on carries the shared settings, and has Configuration Admin deliver a pid's configuration again
 * when its shared settings change ({@link Configuration#update(java.util.Dictionary)} with its own
 * properties: the no-argument update fires no event, and Felix SCR re-reads only on one; the stored
 * properties, the file's, stay as they are).
 *
 * <p>The Metatype service, which checks what is written, is optional: without it reads work and writes
 * are refused.
 */
@Component(service = SharedConfigurationService.class, immediate = true)
public final class SharedConfiguration implements SharedConfigurationService {

    private static final Logger LOG = LoggerFactory.getLogger(SharedConfiguration.class);
    private static final long WATCH_RETRY_MS = 1000;

    private final BundleContext context;
    private final SharedStore store;
    private final ConfigurationAdmin admin;
    private final SharedSettingsOverlay overlay = new SharedSettingsOverlay();
    private final SharedSettings settings;
    private final ScheduledExecutorService retries = WorkerThreads.single("shared-configuration");
    private final ServiceRegistration<ConfigurationPlugin> plugin;
    private volatile Watch watch;
    private volatile boolean stopped;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile MetaTypeService metatype;

    @Activate
    public SharedConfiguration(BundleContext context, @Reference(name = "store") SharedStore store,
            @Reference(name = "admin") ConfigurationAdmin admin) {
        this.context = context;
        this.store = store;
        this.admin = admin;
        this.settings = new SharedSettings(store, this::schema, overlay, this::redeliver);
        Hashtable<String, Object> properties = new Hashtable<>();
        properties.put(ConfigurationPlugin.CM_RANKING, SharedSettingsOverlay.RANKING);
        this.plugin = context.registerService(ConfigurationPlugin.class, overlay, properties);
        retries.execute(() -> follow(true));
    }

    @Deactivate
    void deactivate() {
        stopped = true;
        retries.shutdownNow();
        Watch w = watch;
        if (w != null) {
            w.close();
        }
        plugin.unregister();
    }

    /** Starts the watch on the shared settings, retrying while the store cannot be reached. */
    private void follow(boolean first) {
        if (stopped) {
            return;
        }
        try {
            watch = store.watch(SharedSettings.PREFIX, settings);
            LOG.info("shared configuration: following the cluster's settings ({}/<pid>)", SharedSettings.PREFIX);
        } catch (StoreUnavailableException e) {
            if (first) {
                LOG.warn("shared configuration: waiting for the cluster's shared store ({}); until then the etc/ "
                        + "files' settings apply", e.getMessage());
            }
            retries.schedule(() -> follow(false), WATCH_RETRY_MS, TimeUnit.MILLISECONDS);
        }
    }

    private SettingsSchema schema() {
        MetaTypeService m = metatype;
        return m == null ? SettingsSchema.NONE : SettingsSchema.read(context, m);
    }

    /**
     * Has Configuration Admin deliver the pid's configuration again, through the overlay; creates an empty
     * one (any bundle may take it) when the pid has shared settings and no configuration yet.
     */
    private void redeliver(String pid) {
        Map<String, String> shared = overlay.settingsOf(pid);
        try {
            Configuration[] existing = admin.listConfigurations("(" + Constants.SERVICE_PID + "=" + pid + ")");
            if (existing != null) {
                for (Configuration configuration : existing) {
                    configuration.update(configuration.getProperties());
                }
            } else if (shared != null) {
                admin.getConfiguration(pid, "?").update(new Hashtable<>(Map.of()));
            }
            LOG.info("shared configuration: {} delivered again with shared settings {}", pid,
                    shared != null ? shared : "(none: its file's)");
        } catch (IOException | InvalidSyntaxException | RuntimeException e) {
            LOG.error("shared configuration: {} could not be delivered again: {}", pid, e.toString());
        }
    }

    @Override
    public List<PidSettings> list() {
        return settings.list();
    }

    @Override
    public PidSettings get(String pid) {
        return settings.get(pid);
    }

    @Override
    public PidSettings set(String pid, Map<String, String> values) {
        return settings.set(pid, values);
    }

    @Override
    public boolean delete(String pid) {
        return settings.delete(pid);
    }
}
