package io.heliograph.webui.rest;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * {@code /api/v1/bundles}: the OSGi bundles of the running controller, and their life cycle over
 * REST: install an uploaded jar ({@code POST}, multipart field {@code file} or the raw jar as
 * {@code application/java-archive}), start, stop, update with a new jar ({@code PUT /{id}}) and
 * uninstall ({@code DELETE /{id}}). The framework (bundle 0) and the web bundle serving this API
 * are refused (409): stopping either would take the API down with no way back over REST. The other
 * platform bundles (those the launcher installs from the distribution's {@code bundles/}: Guava,
 * Netty, SCR, the core...) are stopped or uninstalled only with {@code ?force=true}: the controller
 * cannot run without them, and nothing but a restart brings some of them back.
 */
@Component(service = RestResource.class)
@RestController
@ApiDescription("The OSGi bundles of the running controller and their life cycle (hot swap)")
@RequestMapping(path = "/api/v1/bundles", produces = "application/json")
public class BundleResource implements RestResource {

    static final String JAR = "application/java-archive";
    static final String OCTETS = "application/octet-stream";
    static final String MULTIPART = "multipart/form-data";
    static final String ID = "bundle id, as the list gives it";
    static final String START = "true (the default) to start the bundle once installed, false to install it only";
    static final String FORCE = "true to stop or uninstall a platform bundle too (the controller may stop "
            + "working); without it a platform bundle is refused with 409. Apps need no force";
    /** The framework property the launcher sets to the distribution's folder. */
    static final String HOME = "heliograph.home";
    /** The distribution's folder of platform bundles, which the launcher installs at every start. */
    static final String PLATFORM_FOLDER = "bundles";
    /** Where uploads are installed from, as far as the framework knows. */
    static final String LOCATION_PREFIX = "rest-upload:";
    /** How long an update or uninstall waits for the framework to refresh the bundle and its dependents. */
    static final Duration REFRESH_WAIT = Duration.ofSeconds(30);

    /** A bundle as the API shows it; state is the OSGi state name (ACTIVE, RESOLVED, INSTALLED...). */
    public record BundleInfo(long id, String symbolicName, String name, String version, String state,
            String location, boolean fragment,
            @ApiDescription("the controller's platform (the framework, or installed from the distribution's "
                    + "bundles/ folder), not an app: stopping or uninstalling it needs force=true") boolean platform) {
    }

    private BundleContext context;
    /** ${heliograph.home}/bundles, normalised; null outside a distribution (no home property). */
    private Path platformFolder;

    @Activate
    void activate(BundleContext context) {
        this.context = context;
        String home = context.getProperty(HOME);
        platformFolder = home == null || home.isBlank() ? null
                : Path.of(home).toAbsolutePath().normalize().resolve(PLATFORM_FOLDER);
    }

    @ApiDescription("Every bundle with its state and version")
    @GetMapping
    @OperationId("listBundles")
    public List<BundleInfo> list() {
        return Arrays.stream(context.getBundles()).sorted(Comparator.comparingLong(Bundle::getBundleId))
                .map(this::info).toList();
    }

    @ApiDescription("One bundle")
    @GetMapping("/{id}")
    @OperationId("getBundle")
    public BundleInfo one(@ApiDescription(ID) @PathVariable String id) {
        return info(find(id));
    }

    @ApiDescription("Installs the bundle jar uploaded as the multipart field file and starts it "
            + "(start=false: installs only)")
    @PostMapping(consumes = MULTIPART)
    @OperationId("installBundle")
    public ResponseEntity<BundleInfo> installUpload(@RequestParam(name = "file", required = false) MultipartFile file,
            @ApiDescription(START) @RequestParam(name = "start", required = false) String start) throws IOException {
        return install(BundleJarUpload.of(file == null ? null : file.getBytes()), startAfterInstall(start));
    }

    @ApiDescription("Installs the bundle jar sent as the body (application/java-archive) and starts it "
            + "(start=false: installs only)")
    @PostMapping(consumes = {JAR, OCTETS})
    @OperationId("installBundle")
    public ResponseEntity<BundleInfo> installBody(@RequestBody(required = false) byte[] jar,
            @ApiDescription(START) @RequestParam(name = "start", required = false) String start) {
        return install(BundleJarUpload.of(jar), startAfterInstall(start));
    }

    /** Absent or true: start the bundle once installed; false: leave it installed. */
    private static boolean startAfterInstall(String start) {
        if (start == null || start.equals("true")) {
            return true;
        }
        if (start.equals("false")) {
            return false;
        }
        throw ApiException.badRequest("start", "must be true or false, got '" + DatapathIds.abbreviate(start) + "'");
    }

    @ApiDescription("Starts a bundle")
    @PostMapping("/{id}/start")
    @OperationId("startBundle")
    public BundleInfo start(@ApiDescription(ID) @PathVariable String id) {
        Bundle bundle = changeable(id, "started");
        run(bundle, "start", bundle::start);
        return info(bundle);
    }

    @ApiDescription("Stops a bundle (a platform bundle only with force=true)")
    @PostMapping("/{id}/stop")
    @OperationId("stopBundle")
    public BundleInfo stop(@ApiDescription(ID) @PathVariable String id,
            @ApiDescription(FORCE) @ApiSchema(values = {"true", "false"})
            @RequestParam(name = "force", required = false) String force) {
        Bundle bundle = changeable(id, "stopped");
        unlessPlatform(bundle, forced(force), "stop");
        run(bundle, "stop", bundle::stop);
        return info(bundle);
    }

    @ApiDescription("Updates a bundle from the jar uploaded as the multipart field file (same symbolic name)")
    @PutMapping(path = "/{id}", consumes = MULTIPART)
    @OperationId("updateBundle")
    public BundleInfo updateUpload(@ApiDescription(ID) @PathVariable String id,
            @RequestParam(name = "file", required = false) MultipartFile file) throws IOException {
        return update(id, BundleJarUpload.of(file == null ? null : file.getBytes()));
    }

    @ApiDescription("Updates a bundle from the jar sent as the body (same symbolic name)")
    @PutMapping(path = "/{id}", consumes = {JAR, OCTETS})
    @OperationId("updateBundle")
    public BundleInfo updateBody(@ApiDescription(ID) @PathVariable String id,
            @RequestBody(required = false) byte[] jar) {
        return update(id, BundleJarUpload.of(jar));
    }

    @ApiDescription("Uninstalls a bundle (a platform bundle only with force=true)")
    @DeleteMapping("/{id}")
    @OperationId("uninstallBundle")
    public BundleInfo uninstall(@ApiDescription(ID) @PathVariable String id,
            @ApiDescription(FORCE) @ApiSchema(values = {"true", "false"})
            @RequestParam(name = "force", required = false) String force) {
        Bundle bundle = changeable(id, "uninstalled");
        unlessPlatform(bundle, forced(force), "uninstall");
        synchronized (this) {
            run(bundle, "uninstall", bundle::uninstall);
        }
        refresh(bundle);
        return info(bundle);
    }

    /**
     * Installs the jar and, if asked and it is not a fragment (a fragment is never started), starts it.
     * A bundle that installs but cannot start (a package it imports is missing, its activator throws)
     * is uninstalled again and the upload refused naming why: nothing is left half done. Upload with
     * start=false to keep such a bundle installed and look at it.
     */
    private synchronized ResponseEntity<BundleInfo> install(BundleJarUpload jar, boolean start) {
        for (Bundle b : context.getBundles()) {
            if (jar.symbolicName().equals(b.getSymbolicName()) && jar.version().equals(b.getVersion().toString())) {
                throw ApiException.conflict(BundleJarUpload.FIELD, jar.symbolicName() + " " + jar.version()
                        + " is already installed as bundle " + b.getBundleId() + "; update that one (PUT "
                        + "/api/v1/bundles/" + b.getBundleId() + ") or upload another version");
            }
        }
        String location = LOCATION_PREFIX + jar.symbolicName() + "/" + jar.version();
        if (context.getBundle(location) != null) {
            location = location + "#" + System.nanoTime();
        }
        Bundle installed;
        try {
            installed = context.installBundle(location, jar.stream());
        } catch (BundleException e) {
            throw refused("install " + jar.symbolicName() + " " + jar.version(), e);
        }
        if (start && !info(installed).fragment()) {
            try {
                installed.start();
            } catch (BundleException e) {
                run(installed, "uninstall", installed::uninstall);
                throw new ApiException(HttpStatus.CONFLICT, BundleJarUpload.FIELD, "cannot start "
                        + jar.symbolicName() + " " + jar.version() + ", so it was not kept installed (upload with "
                        + "start=false to keep it installed): " + e.getMessage()
                        + (e.getCause() != null && e.getCause() != e ? ": " + e.getCause() : ""));
            }
        }
        return ResponseEntity.created(URI.create("/api/v1/bundles/" + installed.getBundleId())).body(info(installed));
    }

    private BundleInfo update(String id, BundleJarUpload jar) {
        Bundle bundle = changeable(id, "updated");
        if (!jar.symbolicName().equals(bundle.getSymbolicName())) {
            throw ApiException.badRequest(BundleJarUpload.FIELD, "the jar is bundle " + jar.symbolicName()
                    + ", but bundle " + bundle.getBundleId() + " is " + bundle.getSymbolicName()
                    + "; an update must keep the symbolic name");
        }
        synchronized (this) {
            run(bundle, "update", () -> bundle.update(jar.stream()));
        }
        refresh(bundle);
        return info(bundle);
    }

    /** The bundle the path names, if it may be changed: not the framework, not the bundle serving this API. */
    private Bundle changeable(String id, String change) {
        Bundle bundle = find(id);
        if (bundle.getBundleId() == Constants.SYSTEM_BUNDLE_ID) {
            throw ApiException.conflict("id", "bundle 0 is the OSGi framework itself; it cannot be " + change
                    + " over REST (stop the controller instead)");
        }
        if (bundle.getBundleId() == context.getBundle().getBundleId()) {
            throw ApiException.conflict("id", "bundle " + bundle.getBundleId() + " (" + bundle.getSymbolicName()
                    + ") serves this API; it cannot be " + change + " over REST (use the console)");
        }
        return bundle;
    }

    /** Absent or false: refuse a platform bundle; true: the operator accepts the risk. */
    private static boolean forced(String force) {
        if (force == null || force.equals("false")) {
            return false;
        }
        if (force.equals("true")) {
            return true;
        }
        throw ApiException.badRequest("force", "must be true or false, got '" + DatapathIds.abbreviate(force) + "'");
    }

    /** Refuses the operation on a platform bundle unless forced: the controller may not survive it. */
    private void unlessPlatform(Bundle bundle, boolean force, String operation) {
        if (!force && platform(bundle)) {
            throw ApiException.conflict("force", "bundle " + bundle.getBundleId() + " (" + bundle.getSymbolicName()
                    + ") is a platform bundle (from the distribution's " + PLATFORM_FOLDER + "/): the controller may "
                    + "stop working without it; send force=true to " + operation + " it anyway");
        }
    }

    /**
     * Whether the bundle is part of the controller's platform: the framework, or a jar the launcher
     * installed from the distribution's bundles/ (its location is that jar's file: URI, and stays so
     * across updates). Apps from hot/ and uploads (rest-upload:) are not.
     */
    boolean platform(Bundle bundle) {
        if (bundle.getBundleId() == Constants.SYSTEM_BUNDLE_ID) {
            return true;
        }
        if (platformFolder == null) {
            return false;
        }
        try {
            URI location = new URI(bundle.getLocation());
            if (!"file".equalsIgnoreCase(location.getScheme())) {
                return false;
            }
            Path jar = Path.of(location).toAbsolutePath().normalize();
            return platformFolder.equals(jar.getParent());
        } catch (URISyntaxException | IllegalArgumentException | FileSystemNotFoundException e) {
            return false;   // a location that is not a file's URI is nothing the launcher installed
        }
    }

    private Bundle find(String id) {
        long number;
        try {
            number = Long.parseLong(id.strip());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("id", "'" + DatapathIds.abbreviate(id) + "' is not a bundle id (a number)");
        }
        Bundle bundle = context.getBundle(number);
        if (bundle == null) {
            throw ApiException.notFound("id", "no bundle " + number + " is installed");
        }
        return bundle;
    }

    /**
     * Lets an updated or uninstalled bundle and its dependents rewire to what is there now, and waits
     * until the framework has done so (it refreshes on a thread of its own, stopping and starting them
     * again), so that the answer shows the state the bundle settles in, not one the refresh is about to
     * change. A refresh that restarts this web bundle is not waited for: it stops the server this
     * request runs in.
     */
    private void refresh(Bundle bundle) {
        FrameworkWiring wiring = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION).adapt(FrameworkWiring.class);
        if (wiring == null) {
            return;
        }
        if (wiring.getDependencyClosure(List.of(bundle)).contains(context.getBundle())) {
            wiring.refreshBundles(List.of(bundle));
            return;
        }
        CountDownLatch refreshed = new CountDownLatch(1);
        wiring.refreshBundles(List.of(bundle), event -> refreshed.countDown());
        try {
            // past the wait the answer shows the state now; the refresh goes on
            refreshed.await(REFRESH_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private interface BundleOperation {
        void run() throws BundleException;
    }

    private static void run(Bundle bundle, String operation, BundleOperation op) {
        try {
            op.run();
        } catch (BundleException e) {
            throw refused(operation + " bundle " + bundle.getBundleId() + " (" + bundle.getSymbolicName() + ")", e);
        } catch (IllegalStateException e) {
            throw ApiException.notFound("id", "bundle " + bundle.getBundleId() + " was uninstalled meanwhile");
        }
    }

    /** A framework refusal: a bad manifest is the upload's fault (400), anything else clashes with state (409). */
    private static ApiException refused(String what, BundleException e) {
        String reason = e.getMessage() + (e.getCause() != null && e.getCause() != e ? ": " + e.getCause() : "");
        if (e.getType() == BundleException.MANIFEST_ERROR) {
            return ApiException.badRequest(BundleJarUpload.FIELD, "cannot " + what + ", its manifest is invalid: "
                    + reason);
        }
        return new ApiException(HttpStatus.CONFLICT, e.getType() == BundleException.DUPLICATE_BUNDLE_ERROR
                ? BundleJarUpload.FIELD : "id", "cannot " + what + ": " + reason);
    }

    BundleInfo info(Bundle b) {
        String name = b.getHeaders().get(Constants.BUNDLE_NAME); // localised: "%systemBundle" is a key
        boolean fragment = b.getHeaders("").get(Constants.FRAGMENT_HOST) != null;
        return new BundleInfo(b.getBundleId(), b.getSymbolicName(), name, b.getVersion().toString(),
                state(b.getState()), b.getLocation(), fragment, platform(b));
    }

    static String state(int state) {
        return switch (state) {
            case Bundle.UNINSTALLED -> "UNINSTALLED";
            case Bundle.INSTALLED -> "INSTALLED";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            case Bundle.ACTIVE -> "ACTIVE";
            default -> "UNKNOWN(" + state + ")";
        };
    }
}
