package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.heliograph.webui.api.UiPage;

/** The shell of the single-page app, and the pages apps contribute while they run. */
class UiResourceTest {

    @TempDir
    Path dataDir;
    private RunningServer server;

    @BeforeEach
    void start() throws IOException {
        server = new RunningServer(dataDir);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theShellIsServedWithoutCredentialsSoItCanShowItsLogin() {
        var index = server.getWithout("/");
        assertEquals(200, index.statusCode());
        assertTrue(index.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(index.body().contains("<form id=\"login\""), index.body());
        var app = server.getWithout("/ui/app.js");
        assertEquals(200, app.statusCode());
        assertTrue(app.headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
        assertTrue(app.body().contains("/api/v1/ui/pages"));

        var nested = server.getWithout("/ui/topology/topology-graph.js");   // the shell imports its parts by path
        assertEquals(200, nested.statusCode(), nested.body());
        assertTrue(nested.headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));

        assertEquals(404, server.getWithout("/ui/missing.js").statusCode());
        assertEquals(404, server.getWithout("/ui/Topology/x.js").statusCode());
        assertTrue(server.getWithout("/ui/%2e%2e%2fWebServer.class").statusCode() >= 400, "no way out of ui/");

        assertTrue(index.body().contains("href=\"/ui/favicon.svg\""), "the shell links its icon");
        for (String icon : List.of("/ui/favicon.svg", "/favicon.ico")) {
            var served = server.getWithout(icon);
            assertEquals(200, served.statusCode(), icon);
            assertEquals("image/svg+xml", served.headers().firstValue("Content-Type").orElse(""), icon);
            assertTrue(served.body().startsWith("<svg"), icon);
        }
    }

    @Test
    void anAppsPageIsListedWithAStableScriptUrlWhileItsServiceIsRegistered() throws IOException {
        Path script = dataDir.resolve("hosts.js");
        Files.writeString(script, "export function render(element, api) { element.textContent = 'hosts'; }\n");
        UiPage hosts = page("hosts", "Hosts", script);
        server.component.addPage(hosts);

        var listed = server.get(UiResource.PAGES);
        assertEquals(200, listed.statusCode());
        assertEquals("[{\"id\":\"hosts\",\"title\":\"Hosts\",\"script\":\"/ui/pages/hosts.js\"}]", listed.body());
        var module = server.getWithout("/ui/pages/hosts.js");
        assertEquals(200, module.statusCode());
        assertEquals(Files.readString(script), module.body());
        assertTrue(module.headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));

        server.component.addPage(page("hosts", "Other hosts", script));   // the id is taken: refused
        server.component.addPage(page("Bad Id!", "Bad", script));         // not an id: refused
        assertEquals(listed.body(), server.get(UiResource.PAGES).body());

        server.component.removePage(hosts);
        assertEquals("[]", server.get(UiResource.PAGES).body());
        assertEquals(404, server.getWithout("/ui/pages/hosts.js").statusCode());
        assertEquals(401, server.getWithout(UiResource.PAGES).statusCode(), "the list is API: it needs credentials");
    }

    /** A page of several modules imports its parts relatively: they are served from beside its script, and nothing else is. */
    @Test
    void thePartsBesideAPagesScriptAreServedUnderItsId() throws IOException {
        Path folder = Files.createDirectories(dataDir.resolve("app"));
        Path script = folder.resolve("virtue-page.js");
        Files.writeString(script, "import { chart } from './virtue/virtue-chart.js';\n");
        Files.writeString(folder.resolve("virtue-chart.js"), "export const chart = 1;\n");
        Files.writeString(folder.resolve("virtue.css"), ".x { color: red; }\n");
        Files.writeString(folder.resolve("secret.txt"), "not for the browser\n");
        Files.writeString(dataDir.resolve("outside.js"), "export const outside = 1;\n");
        UiPage virtue = page("virtue", "Virtue", script);
        server.component.addPage(virtue);

        var module = server.getWithout("/ui/pages/virtue/virtue-chart.js");
        assertEquals(200, module.statusCode(), module.body());
        assertEquals("export const chart = 1;\n", module.body());
        assertTrue(module.headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
        var css = server.getWithout("/ui/pages/virtue/virtue.css");
        assertEquals(200, css.statusCode());
        assertTrue(css.headers().firstValue("Content-Type").orElse("").startsWith("text/css"));

        assertEquals(404, server.getWithout("/ui/pages/virtue/missing.js").statusCode());
        assertEquals(404, server.getWithout("/ui/pages/virtue/secret.txt").statusCode());
        assertEquals(404, server.getWithout("/ui/pages/other/virtue-chart.js").statusCode());
        assertTrue(server.getWithout("/ui/pages/virtue/..%2foutside.js").statusCode() >= 400, "no way out of its folder");
        assertTrue(server.getWithout("/ui/pages/virtue/%2e%2e%2foutside.js").statusCode() >= 400, "no way out of its folder");

        server.component.removePage(virtue);
        assertEquals(404, server.getWithout("/ui/pages/virtue/virtue-chart.js").statusCode());
    }

    @Test
    void theNavigationListsPagesByRankThenByTitle() throws IOException {
        Path script = dataDir.resolve("page.js");
        Files.writeString(script, "export function render(element) {}\n");
        server.component.addPage(page("bundles", "Bundles", script));
        server.component.addPage(page("hosts", "Hosts", script, UiPage.HOSTS_RANK));
        server.component.addPage(page("cluster", "Cluster", script));
        server.component.addPage(page("switches", "Switches", script, UiPage.SWITCHES_RANK));
        server.component.addPage(page("topology", "Topology", script, UiPage.TOPOLOGY_RANK));

        String listed = server.get(UiResource.PAGES).body();
        List<String> ids = new ArrayList<>();
        Matcher id = Pattern.compile("\"id\":\"([a-z-]+)\"").matcher(listed);
        while (id.find()) {
            ids.add(id.group(1));
        }
        assertEquals(List.of("topology", "switches", "hosts", "bundles", "cluster"), ids, listed);
    }

    private static UiPage page(String id, String title, Path script) {
        return page(id, title, script, UiPage.DEFAULT_RANK);
    }

    private static UiPage page(String id, String title, Path script, int rank) {
        return new UiPage() {
            @Override
            public int rank() {
                return rank;
            }

            @Override
            public String id() {
                return id;
            }

            @Override
            public String title() {
                return title;
            }

            @Override
            public URL script() {
                try {
                    return script.toUri().toURL();
                } catch (MalformedURLException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }
}
