package io.heliograph.solver.internal;

import io.heliograph.solver.SolverService;
import java.io.IOException;
import java.net.URL;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads OR-Tools' natives when the solver bundle starts and, once they are in, registers the
 * {@link SolverService}. Where they cannot load (another platform, a too old C library) it logs why and
 * registers nothing: apps that need the solver wait for it, and the rest of the controller runs on.
 * The service is registered here rather than by DS, so that it exists only while the natives do.
 */
@Component(immediate = true)
public final class SolverComponent {

    private static final Logger LOG = LoggerFactory.getLogger(SolverComponent.class);
    static final String NATIVES_ENTRY = "natives/ortools-" + NativeLibraries.PLATFORM + ".jar";

    private ServiceRegistration<SolverService> registration;

    @Activate
    void activate(BundleContext context) {
        URL natives = context.getBundle().getEntry(NATIVES_ENTRY);
        long start = System.nanoTime();
        try {
            int files = NativeLibraries.load(natives);
            OrToolsSolverService service = new OrToolsSolverService();
            if (files > 0) {
                LOG.info("OR-Tools {} native libraries loaded ({} files, {}) in {} ms", service.version(), files,
                        NativeLibraries.PLATFORM, (System.nanoTime() - start) / 1_000_000);
            }
            registration = context.registerService(SolverService.class, service, null);
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            LOG.error("Solver service unavailable: OR-Tools' native libraries ({}) cannot be loaded: {}",
                    NativeLibraries.PLATFORM, e.toString());
        }
    }

    @Deactivate
    void deactivate() {
        if (registration != null) {
            registration.unregister();
            registration = null;
        }
    }
}
