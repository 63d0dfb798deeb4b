package io.heliograph.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.startlevel.FrameworkStartLevel;
import org.osgi.framework.wiring.BundleRevision;

/**
 * One controller: an Equinox framework with the distribution's bundles. Start order matters in two
 * places. Declarative Services starts after Configuration Admin holds every etc/*.cfg, so that
 * components activate once with their configuration (a listener never binds the default port
 * first and moves later). And the applications in hot/ (installed by FileInstall at start level
 * {@value #APPS_START_LEVEL}, see etc/org.apache.felix.fileinstall-hot.cfg) start only once the
 * platform's components are active: an app is a listener of the switch or topology service and
 * also uses it, so if Declarative Services met both at once, activating one would activate the
 * other in the middle of its own activation (a circular activation that SCR refuses, with errors,
 * depending on the order it happens to meet the bundles in).
 */
public final class ControllerRuntime {

    static final String SCR = "org.apache.felix.scr";
    private static final long CONFIGURATION_WAIT_MS = 10_000;
    private static final long STOP_WAIT_MS = 30_000;
    private static final long APPS_START_WAIT_MS = 30_000;
    /** The start level of the hot/ applications; the platform's bundles run at level 1. */
    static final int APPS_START_LEVEL = 2;

    private final Distribution distribution;
    private final Map<String, String> properties;
    private final LauncherLog log;
    private Framework framework;

    public ControllerRuntime(Distribution distribution, Map<String, String> properties, LauncherLog log) {
        this.distribution = distribution;
        this.properties = properties;
        this.log = log;
    }

    /** Starts the framework and every bundle of bundles/. Returns the bundles that failed to start. */
    public synchronized List<String> start() throws BundleException, IOException, InterruptedException {
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class).findFirst()
                .orElseThrow(() -> new IllegalStateException("no OSGi framework on the class path (lib/)"));
        framework = factory.newFramework(properties);
        framework.init();
        BundleContext context = framework.getBundleContext();
        FrameworkLogForwarder.attach(context, log);
        framework.start();
        log.debug("framework started");

        List<Bundle> installed = new ArrayList<>();
        for (Path jar : distribution.bundleJars()) {
            installed.add(context.installBundle(jar.toUri().toString()));
        }

        log.debug(installed.size() + " bundles installed");

        List<String> failed = new ArrayList<>();
        Bundle scr = null;
        for (Bundle bundle : installed) {
            if (isFragment(bundle)) {
                continue;
            }
            if (SCR.equals(bundle.getSymbolicName())) {
                scr = bundle;
                continue;
            }
            startBundle(bundle, failed);
        }
        log.debug("bundles started; waiting for etc/ in Configuration Admin");
        new ConfigurationBarrier(context, log).await(distribution.configFiles().size(), CONFIGURATION_WAIT_MS);
        log.debug("configuration loaded; starting components");
        if (scr == null) {
            log.warn("no " + SCR + " in " + distribution.bundles() + ": no component will start");
        } else {
            startBundle(scr, failed);
        }
        startApplications();
        return failed;
    }

    /** Raises the framework to the applications' start level and waits until Equinox has started them. */
    private void startApplications() throws InterruptedException {
        FrameworkStartLevel levels = framework.adapt(FrameworkStartLevel.class);
        CountDownLatch raised = new CountDownLatch(1);
        levels.setStartLevel(APPS_START_LEVEL, event -> raised.countDown());
        if (!raised.await(APPS_START_WAIT_MS, TimeUnit.MILLISECONDS)) {
            log.warn("the applications in hot/ did not all start within " + APPS_START_WAIT_MS / 1000 + " s");
        } else {
            log.debug("start level " + APPS_START_LEVEL + " reached: applications started");
        }
    }

    private void startBundle(Bundle bundle, List<String> failed) {
        try {
            bundle.start();
        } catch (BundleException | RuntimeException e) {
            failed.add(bundle.getSymbolicName());
            log.error("bundle " + bundle.getSymbolicName() + " " + bundle.getVersion() + " did not start: "
                    + e.getMessage(), null);
        }
    }

    private static boolean isFragment(Bundle bundle) {
        BundleRevision revision = bundle.adapt(BundleRevision.class);
        return revision != null && (revision.getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
    }

    /**
     * Whether the framework was started and has since been asked to stop (by the console, a bundle or a
     * signal): a start that fails then was cut short on purpose, not broken.
     */
    public synchronized boolean stopRequested() {
        return framework != null && (framework.getState() & (Bundle.STOPPING | Bundle.RESOLVED)) != 0;
    }

    /** Blocks until the framework stops, for whatever reason (shutdown hook, console, a bundle). */
    public FrameworkEvent awaitStop() throws InterruptedException {
        return framework.waitForStop(0);
    }

    /** Stops every bundle and the framework, waiting a bounded time. Safe to call more than once. */
    public void stop() {
        Framework f;
        synchronized (this) {
            f = framework;
        }
        if (f == null || (f.getState() & (Bundle.STARTING | Bundle.ACTIVE | Bundle.STOPPING)) == 0) {
            return;
        }
        try {
            log.info("stopping");
            f.stop();
            FrameworkEvent event = f.waitForStop(STOP_WAIT_MS);
            if (event.getType() == FrameworkEvent.WAIT_TIMEDOUT) {
                log.warn("the framework did not stop within " + TimeUnit.MILLISECONDS.toSeconds(STOP_WAIT_MS)
                        + " s; exiting anyway");
            } else {
                log.info("stopped");
            }
        } catch (BundleException e) {
            log.error("stopping the framework failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
