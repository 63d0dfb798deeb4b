package io.heliograph.webui.rest;

import static io.heliograph.webui.rest.RestFixture.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.multipart;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.springframework.http.HttpMethod;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.test.web.servlet.MockMvc;

import io.heliograph.webui.rest.RestFixture.Answer;

/**
 * The bundles resource against a real OSGi framework (Equinox, as the distribution runs), with a
 * stand-in for the web bundle whose context the resource gets, and jars built in the test. The
 * framework has a distribution home, as the launcher gives it, so that jars installed from its
 * bundles/ folder are platform bundles.
 */
class BundleResourceTest {

    private static final String JAR = "application/java-archive";

    @TempDir
    static Path storage;
    private static Framework framework;
    private static Bundle webStandIn;

    private final BundleResource resource = new BundleResource();
    private MockMvc mvc;

    @BeforeAll
    static void startFramework() throws BundleException {
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class).iterator().next();
        framework = factory.newFramework(Map.of(Constants.FRAMEWORK_STORAGE, storage.resolve("osgi").toString(),
                Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT,
                BundleResource.HOME, home().toString()));
        framework.start();
        webStandIn = framework.getBundleContext().installBundle("test:webui",
                new ByteArrayInputStream(TestJars.bundle("io.heliograph.webui.standin", "1.0.0")));
        webStandIn.start();
    }

    @AfterAll
    static void stopFramework() throws Exception {
        framework.stop();
        framework.waitForStop(10_000);
    }

    @BeforeEach
    void activate() {
        resource.activate(webStandIn.getBundleContext());
        mvc = RestFixture.mvc(resource);
    }

    /** The distribution's folder, as the launcher sets heliograph.home (a path with a dot, not normalised). */
    private static Path home() {
        return storage.resolve("dist").resolve(".").resolve("heliograph");
    }

    @AfterEach
    void uninstallWhatTheTestInstalled() throws BundleException {
        for (Bundle b : framework.getBundleContext().getBundles()) {
            if (b.getLocation().startsWith(BundleResource.LOCATION_PREFIX) || b.getLocation().startsWith("file:")) {
                b.uninstall();
            }
        }
    }

    private Answer upload(byte[] jar) throws Exception {
        return call(mvc, post("/api/v1/bundles").contentType(JAR).content(jar));
    }

    @Test
    void listsTheBundlesWithStateAndVersion() throws Exception {
        Answer a = call(mvc, get("/api/v1/bundles")).expect(200);
        assertEquals(0, a.number("/0/id"));
        assertEquals("ACTIVE", a.text("/0/state"));
        assertEquals("org.eclipse.osgi", a.text("/0/symbolicName"));
        assertFalse(a.text("/0/name").startsWith("%"), "the framework's name, not its localisation key: " + a.text("/0/name"));
        Answer one = call(mvc, get("/api/v1/bundles/" + webStandIn.getBundleId())).expect(200);
        assertEquals("io.heliograph.webui.standin", one.text("/symbolicName"));
        assertEquals("1.0.0", one.text("/version"));
        assertEquals("test:webui", one.text("/location"));
        assertEquals("test bundle io.heliograph.webui.standin", one.text("/name"));
    }

    @Test
    void anUploadIsStartedUnlessAskedNotTo() throws Exception {
        Answer started = upload(TestJars.bundle("io.heliograph.test.started", "1.0.0")).expect(201);
        assertEquals("ACTIVE", started.text("/state"));
        assertEquals(Bundle.ACTIVE, framework.getBundleContext().getBundle(started.number("/id")).getState());
        call(mvc, post("/api/v1/bundles").param("start", "maybe").contentType(JAR)
                .content(TestJars.bundle("io.heliograph.test.maybe", "1.0.0"))).refused(400, "start", "true or false");
        assertTrue(List.of(framework.getBundleContext().getBundles()).stream()
                .noneMatch(b -> "io.heliograph.test.maybe".equals(b.getSymbolicName())),
                "a refused upload installs nothing");
    }

    @Test
    void installStartStopUpdateAndUninstall() throws Exception {
        Answer installed = call(mvc, post("/api/v1/bundles").param("start", "false").contentType(JAR)
                .content(TestJars.bundle("io.heliograph.test.app", "1.0.0"))).expect(201);
        long id = installed.number("/id");
        assertEquals("/api/v1/bundles/" + id, installed.location());
        assertEquals("INSTALLED", installed.text("/state"));
        Bundle bundle = framework.getBundleContext().getBundle(id);
        assertEquals("io.heliograph.test.app", bundle.getSymbolicName());

        assertEquals("ACTIVE", call(mvc, post("/api/v1/bundles/" + id + "/start")).expect(200).text("/state"));
        assertEquals(Bundle.ACTIVE, bundle.getState());
        assertEquals("RESOLVED", call(mvc, post("/api/v1/bundles/" + id + "/stop")).expect(200).text("/state"));
        assertEquals(Bundle.RESOLVED, bundle.getState());

        Answer updated = call(mvc, put("/api/v1/bundles/" + id).contentType(JAR)
                .content(TestJars.bundle("io.heliograph.test.app", "1.1.0"))).expect(200);
        assertEquals("1.1.0", updated.text("/version"));
        assertEquals(id, updated.number("/id"), "an update keeps the bundle id");
        assertEquals("1.1.0", bundle.getVersion().toString());

        assertEquals("UNINSTALLED", call(mvc, delete("/api/v1/bundles/" + id)).expect(200).text("/state"));
        assertNull(framework.getBundleContext().getBundle(id));
        call(mvc, get("/api/v1/bundles/" + id)).refused(404, "id", "no bundle " + id + " is installed");
    }

    @Test
    void anUpdateAnswersOnceTheFrameworkHasRefreshedTheBundle() throws Exception {
        long id = upload(TestJars.bundle("io.heliograph.test.refreshed", "1.0.0")).expect(201).number("/id");
        call(mvc, post("/api/v1/bundles/" + id + "/start")).expect(200);
        // synchronous: delivered on the thread that makes the change, the framework's refresh thread included
        List<String> events = new CopyOnWriteArrayList<>();
        SynchronousBundleListener recorder = e -> {
            if (e.getBundle().getBundleId() == id) {
                events.add(EVENTS.getOrDefault(e.getType(), Integer.toString(e.getType())));
            }
        };
        framework.getBundleContext().addBundleListener(recorder);
        try {
            Answer updated = call(mvc, put("/api/v1/bundles/" + id).contentType(JAR)
                    .content(TestJars.bundle("io.heliograph.test.refreshed", "1.0.1"))).expect(200);
            List<String> seen = List.copyOf(events);
            // the update restarts the bundle; the refresh after it stops, unresolves and starts it again
            int refresh = seen.lastIndexOf("UNRESOLVED");
            assertTrue(seen.indexOf("UPDATED") >= 0 && refresh > seen.indexOf("UPDATED"),
                    "the refresh had run when the answer came: " + seen);
            assertEquals("STARTED", seen.get(seen.size() - 1), seen.toString());
            assertEquals("ACTIVE", updated.text("/state"));
            assertEquals("1.0.1", updated.text("/version"));
        } finally {
            framework.getBundleContext().removeBundleListener(recorder);
        }
    }

    private static final Map<Integer, String> EVENTS = Map.of(BundleEvent.UPDATED, "UPDATED",
            BundleEvent.UNRESOLVED, "UNRESOLVED", BundleEvent.RESOLVED, "RESOLVED", BundleEvent.STARTED, "STARTED",
            BundleEvent.STOPPED, "STOPPED", BundleEvent.STARTING, "STARTING", BundleEvent.STOPPING, "STOPPING");

    @Test
    void installsAndUpdatesFromAMultipartUpload() throws Exception {
        Answer installed = call(mvc, multipart("/api/v1/bundles").file(new MockMultipartFile("file", "app.jar", JAR,
                TestJars.bundle("io.heliograph.test.multipart", "2.0.0")))).expect(201);
        long id = installed.number("/id");
        assertEquals("io.heliograph.test.multipart", installed.text("/symbolicName"));
        Answer updated = call(mvc, multipart(HttpMethod.PUT, "/api/v1/bundles/" + id).file(new MockMultipartFile(
                "file", "app.jar", JAR, TestJars.bundle("io.heliograph.test.multipart", "2.0.1")))).expect(200);
        assertEquals("2.0.1", updated.text("/version"));
        call(mvc, multipart("/api/v1/bundles").file(new MockMultipartFile("jar", "app.jar", JAR,
                TestJars.bundle("io.heliograph.test.other", "1.0.0")))).refused(400, "file", "no jar uploaded");
    }

    @Test
    void uploadsThatAreNotBundlesAre400NamingTheProblem() throws Exception {
        List<Long> before = bundleIds();
        upload(new byte[0]).refused(400, "file", "no jar uploaded");
        upload("hello, I am a text file".getBytes()).refused(400, "file", "does not start like a zip archive");
        upload(TestJars.zipWithoutManifest()).refused(400, "file", "the jar has no META-INF/MANIFEST.MF");
        upload(TestJars.jarWithManifest(Map.of("Main-Class", "x.Y"))).refused(400, "file", "no Bundle-SymbolicName");
        byte[] truncated = Arrays.copyOf(TestJars.bundle("io.heliograph.test.cut", "1.0.0"), 40);
        upload(truncated).refused(400, "file", "");
        upload(TestJars.bundle("io.heliograph.test.badversion", "not-a-version")).refused(400, "file",
                "its manifest is invalid");
        assertEquals(before, bundleIds(), "a refused upload installed something");
    }

    @Test
    void theSameBundleTwiceIs409() throws Exception {
        byte[] jar = TestJars.bundle("io.heliograph.test.twice", "1.0.0");
        long id = upload(jar).expect(201).number("/id");
        List<Long> before = bundleIds();
        upload(jar).refused(409, "file", "is already installed as bundle " + id);
        assertEquals(before, bundleIds());
    }

    @Test
    void anUpdateMustKeepTheSymbolicName() throws Exception {
        long id = upload(TestJars.bundle("io.heliograph.test.keep", "1.0.0")).expect(201).number("/id");
        call(mvc, put("/api/v1/bundles/" + id).contentType(JAR).content(TestJars.bundle("io.heliograph.test.other",
                "1.0.1"))).refused(400, "file", "an update must keep the symbolic name");
        assertEquals("1.0.0", framework.getBundleContext().getBundle(id).getVersion().toString());
        call(mvc, put("/api/v1/bundles/" + id).contentType(JAR).content("garbage".getBytes()))
                .refused(400, "file", "not a jar");
    }

    @Test
    void aBundleThatCannotResolveIs409WithTheMissingPackage() throws Exception {
        byte[] unresolved = TestJars.bundle("io.heliograph.test.unresolved", "1.0.0",
                Map.of("Import-Package", "io.heliograph.no.such.pkg"));
        upload(unresolved).refused(409, "file", "io.heliograph.no.such.pkg");
        assertTrue(List.of(framework.getBundleContext().getBundles()).stream()
                .noneMatch(b -> "io.heliograph.test.unresolved".equals(b.getSymbolicName())),
                "an upload that cannot start is not left installed");

        long id = call(mvc, post("/api/v1/bundles").param("start", "false").contentType(JAR).content(unresolved))
                .expect(201).number("/id");
        call(mvc, post("/api/v1/bundles/" + id + "/start")).refused(409, "id", "io.heliograph.no.such.pkg");
        assertEquals(Bundle.INSTALLED, framework.getBundleContext().getBundle(id).getState());
    }

    @Test
    void theFrameworkAndTheWebBundleAreNotTouched() throws Exception {
        for (long id : List.of(0L, webStandIn.getBundleId())) {
            String expected = id == 0 ? "OSGi framework itself" : "serves this API";
            call(mvc, post("/api/v1/bundles/" + id + "/stop")).refused(409, "id", expected);
            call(mvc, post("/api/v1/bundles/" + id + "/start")).refused(409, "id", expected);
            call(mvc, put("/api/v1/bundles/" + id).contentType(JAR)
                    .content(TestJars.bundle("io.heliograph.webui.standin", "9.0.0"))).refused(409, "id", expected);
            call(mvc, delete("/api/v1/bundles/" + id)).refused(409, "id", expected);
        }
        assertEquals(Bundle.ACTIVE, framework.getState());
        assertEquals(Bundle.ACTIVE, webStandIn.getState());
        assertEquals("1.0.0", webStandIn.getVersion().toString());
    }

    /** Installs the jar from the distribution's folder as the launcher (bundles/) or FileInstall (hot/) does. */
    private static Bundle installFrom(String folder, String symbolicName) throws IOException, BundleException {
        Path jar = home().resolve(folder).resolve(symbolicName + ".jar");
        Files.createDirectories(jar.getParent());
        Files.write(jar, TestJars.bundle(symbolicName, "1.0.0"));
        // the launcher installs Path.toUri() (file:///...), FileInstall File.toURI() (file:/...)
        String location = folder.equals("bundles") ? jar.toUri().toString() : jar.toFile().toURI().toString();
        Bundle bundle = framework.getBundleContext().installBundle(location);
        bundle.start();
        return bundle;
    }

    @Test
    void theFrameworkAndTheDistributionsBundlesFolderArePlatformAppsAndUploadsAreNot() throws Exception {
        Bundle guava = installFrom("bundles", "io.heliograph.test.guava");
        Bundle hotApp = installFrom("hot", "io.heliograph.test.hotapp");
        long upload = upload(TestJars.bundle("io.heliograph.test.uploaded", "1.0.0")).expect(201).number("/id");
        Answer list = call(mvc, get("/api/v1/bundles")).expect(200);
        Map<Long, Boolean> platform = new HashMap<>();
        list.json().forEach(b -> platform.put(b.get("id").asLong(), b.get("platform").asBoolean()));
        assertEquals(Boolean.TRUE, platform.get(0L), "the framework");
        assertEquals(Boolean.TRUE, platform.get(guava.getBundleId()), "from bundles/: " + guava.getLocation());
        assertEquals(Boolean.FALSE, platform.get(hotApp.getBundleId()), "from hot/: " + hotApp.getLocation());
        assertEquals(Boolean.FALSE, platform.get(upload), "an upload");
        assertEquals(Boolean.FALSE, platform.get(webStandIn.getBundleId()), "installed from elsewhere");
        assertEquals("true", call(mvc, get("/api/v1/bundles/" + guava.getBundleId())).expect(200).text("/platform"));
    }

    @Test
    void aPlatformBundleIsStoppedOrUninstalledOnlyWhenForced() throws Exception {
        Bundle guava = installFrom("bundles", "io.heliograph.test.guava");
        long id = guava.getBundleId();
        call(mvc, post("/api/v1/bundles/" + id + "/stop")).refused(409, "force", "bundle " + id
                + " (io.heliograph.test.guava) is a platform bundle");
        call(mvc, post("/api/v1/bundles/" + id + "/stop").param("force", "false")).refused(409, "force",
                "send force=true to stop it anyway");
        call(mvc, post("/api/v1/bundles/" + id + "/stop").param("force", "yes")).refused(400, "force",
                "must be true or false");
        assertEquals(Bundle.ACTIVE, guava.getState(), "refused: still running");

        assertEquals("RESOLVED", call(mvc, post("/api/v1/bundles/" + id + "/stop").param("force", "true"))
                .expect(200).text("/state"));
        assertEquals(Bundle.RESOLVED, guava.getState());
        assertEquals("ACTIVE", call(mvc, post("/api/v1/bundles/" + id + "/start")).expect(200).text("/state"),
                "starting needs no force");

        call(mvc, delete("/api/v1/bundles/" + id)).refused(409, "force", "send force=true to uninstall it anyway");
        assertEquals(guava, framework.getBundleContext().getBundle(id), "refused: still installed");
        assertEquals("UNINSTALLED", call(mvc, delete("/api/v1/bundles/" + id).param("force", "true")).expect(200)
                .text("/state"));
        assertNull(framework.getBundleContext().getBundle(id));
    }

    @Test
    void anAppNeedsNoForce() throws Exception {
        long id = installFrom("hot", "io.heliograph.test.hotapp").getBundleId();
        assertEquals("RESOLVED", call(mvc, post("/api/v1/bundles/" + id + "/stop")).expect(200).text("/state"));
        assertEquals("ACTIVE", call(mvc, post("/api/v1/bundles/" + id + "/start")).expect(200).text("/state"));
        assertEquals("RESOLVED", call(mvc, post("/api/v1/bundles/" + id + "/stop").param("force", "true"))
                .expect(200).text("/state"), "force changes nothing for an app");
        assertEquals("UNINSTALLED", call(mvc, delete("/api/v1/bundles/" + id)).expect(200).text("/state"));
    }

    @Test
    void badAndUnknownIds() throws Exception {
        for (var request : List.of(get("/api/v1/bundles/abc"), post("/api/v1/bundles/1.5/start"),
                post("/api/v1/bundles/x/stop"), delete("/api/v1/bundles/-"))) {
            call(mvc, request).refused(400, "id", "is not a bundle id");
        }
        call(mvc, post("/api/v1/bundles/99999/start")).refused(404, "id", "no bundle 99999 is installed");
        call(mvc, delete("/api/v1/bundles/99999")).refused(404, "id", "no bundle 99999 is installed");
    }

    @Test
    void randomAndMutatedUploadsAreRefusedCleanly() throws Exception {
        Random random = new Random(11);
        byte[] valid = TestJars.bundle("io.heliograph.test.fuzz", "1.0.0");
        List<Long> before = bundleIds();
        for (int i = 0; i < 300; i++) {
            byte[] body = i % 3 == 0 ? randomBytes(random) : mutate(valid, random);
            Answer a = upload(body);
            assertTrue(a.status() == 400 || a.status() == 409 || a.status() == 201,
                    "status " + a.status() + " for upload " + i + ": " + a.body());
            if (a.status() == 201) {
                // a mutation that left the jar valid: it installed; take it out again
                framework.getBundleContext().getBundle(a.number("/id")).uninstall();
            } else {
                assertEquals(before, bundleIds(), "refused upload " + i + " changed the bundles");
            }
        }
    }

    private static byte[] mutate(byte[] jar, Random random) {
        byte[] copy = jar.clone();
        int flips = 1 + random.nextInt(8);
        for (int f = 0; f < flips; f++) {
            copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
        }
        return random.nextInt(4) == 0 ? Arrays.copyOf(copy, random.nextInt(copy.length)) : copy;
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(2048)];
        random.nextBytes(bytes);
        if (bytes.length > 4 && random.nextBoolean()) {
            bytes[0] = 'P';
            bytes[1] = 'K';
            bytes[2] = 3;
            bytes[3] = 4;
        }
        return bytes;
    }

    private static List<Long> bundleIds() {
        return Arrays.stream(framework.getBundleContext().getBundles()).map(Bundle::getBundleId).toList();
    }
}
