package io.heliograph.launcher;

import java.lang.reflect.Array;
import java.lang.reflect.Method;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.util.tracker.ServiceTracker;

/**
 * Waits until FileInstall has put every etc/*.cfg into Configuration Admin. The launcher's class
 * path has no Configuration Admin API (it lives in a bundle), so the service is called through its
 * interface as loaded by the bundle that registered it.
 */
final class ConfigurationBarrier {

    private static final String CONFIGURATION_ADMIN = "org.osgi.service.cm.ConfigurationAdmin";
    /** FileInstall marks the configurations it created with the file they came from. */
    private static final String FROM_FILEINSTALL = "(felix.fileinstall.filename=*)";
    private static final long POLL_MS = 20;

    private final BundleContext context;
    private final LauncherLog log;

    ConfigurationBarrier(BundleContext context, LauncherLog log) {
        this.context = context;
        this.log = log;
    }

    /** Returns once {@code expected} file-backed configurations exist, or warns after the timeout. */
    void await(int expected, long timeoutMs) throws InterruptedException {
        if (expected == 0) {
            return;
        }
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        ServiceTracker<Object, Object> tracker = new ServiceTracker<>(context, CONFIGURATION_ADMIN, null);
        tracker.open(true);
        try {
            int loaded = 0;
            while (System.nanoTime() < deadline) {
                ServiceReference<Object> reference = tracker.getServiceReference();
                Object admin = reference == null ? null : tracker.getService(reference);
                if (admin != null) {
                    loaded = countFileConfigurations(reference, admin);
                    if (loaded >= expected) {
                        return;
                    }
                }
                Thread.sleep(POLL_MS);
            }
            log.warn("only " + loaded + " of " + expected + " etc/*.cfg files reached Configuration Admin within "
                    + timeoutMs + " ms; starting components anyway (check the FileInstall messages above)");
        } finally {
            tracker.close();
        }
    }

    private int countFileConfigurations(ServiceReference<Object> reference, Object admin) {
        try {
            Class<?> api = reference.getBundle().loadClass(CONFIGURATION_ADMIN);
            Method list = api.getMethod("listConfigurations", String.class);
            Object configurations = list.invoke(admin, FROM_FILEINSTALL);
            return configurations == null ? 0 : Array.getLength(configurations);
        } catch (ReflectiveOperationException | RuntimeException e) {
            log.warn("cannot list configurations: " + e);
            return 0;
        }
    }
}
