package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

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

    private static UiPage page(String id, String title, Path script) {
        return new UiPage() {
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
