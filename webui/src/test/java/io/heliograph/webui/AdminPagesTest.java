package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.heliograph.webui.bundles.BundlesPage;
import io.heliograph.webui.pipelines.PipelinesPage;

/**
 * The bundles and pipelines pages as a browser loads them: listed in the navigation, each script at
 * its stable address, and every module and stylesheet those scripts load served from this bundle. The
 * shell imports a page from /ui/pages/, so a relative import would resolve there and fail: every
 * import must be absolute.
 */
class AdminPagesTest {

    private static final Pattern IMPORT = Pattern.compile("\\bfrom\\s+'([^']+)'");
    private static final Pattern STYLESHEET = Pattern.compile("\\bstylesheet\\('([^']+)'\\)");

    @TempDir
    Path dataDir;
    private RunningServer server;

    @BeforeEach
    void start() throws IOException {
        server = new RunningServer(dataDir);
        server.component.addPage(new BundlesPage());
        server.component.addPage(new PipelinesPage());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void bothPagesAreInTheNavigationWithTheirScripts() {
        HttpResponse<String> listed = server.get(UiResource.PAGES);
        assertEquals(200, listed.statusCode(), listed.body());
        assertEquals("[{\"id\":\"bundles\",\"title\":\"Bundles\",\"script\":\"/ui/pages/bundles.js\"},"
                + "{\"id\":\"pipelines\",\"title\":\"Pipelines\",\"script\":\"/ui/pages/pipelines.js\"}]", listed.body());
    }

    @Test
    void everythingTheBundlesPageLoadsIsServed() {
        Set<String> loaded = loadedBy("/ui/pages/bundles.js");
        assertTrue(loaded.containsAll(Set.of("/ui/dom.js", "/ui/table.js", "/ui/bundles/bundle-client.js",
                "/ui/bundles/confirm-dialog.js", "/ui/bundles/bundle-warnings.js", "/ui/bundles/bundles.css")),
                loaded.toString());
        assertTrue(server.getWithout("/ui/pages/bundles.js").body().contains("export async function render("));
    }

    @Test
    void everythingThePipelinesPageLoadsIsServed() {
        Set<String> loaded = loadedBy("/ui/pages/pipelines.js");
        assertTrue(loaded.containsAll(Set.of("/ui/dom.js", "/ui/pipelines/listener-order.js",
                "/ui/pipelines/pipelines.css")), loaded.toString());
        assertTrue(server.getWithout("/ui/pages/pipelines.js").body().contains("export async function render("));
    }

    /** Every address the module at script loads, directly or through its imports; each one answered. */
    private Set<String> loadedBy(String script) {
        Set<String> seen = new LinkedHashSet<>();
        Deque<String> pending = new ArrayDeque<>();
        pending.add(script);
        while (!pending.isEmpty()) {
            String address = pending.poll();
            if (!seen.add(address)) {
                continue;
            }
            HttpResponse<String> response = server.getWithout(address);
            assertEquals(200, response.statusCode(), address + ": " + response.body());
            String type = response.headers().firstValue("Content-Type").orElse("");
            if (address.endsWith(".css")) {
                assertTrue(type.startsWith("text/css"), address + " is " + type);
                continue;
            }
            assertTrue(type.startsWith("text/javascript"), address + " is " + type);
            for (Pattern reference : new Pattern[] {IMPORT, STYLESHEET}) {
                Matcher m = reference.matcher(response.body());
                while (m.find()) {
                    assertFalse(!m.group(1).startsWith("/ui/"), address + " loads '" + m.group(1)
                            + "' by a relative address, which resolves against /ui/pages/ when the shell imports the page");
                    pending.add(m.group(1));
                }
            }
        }
        return seen;
    }
}
