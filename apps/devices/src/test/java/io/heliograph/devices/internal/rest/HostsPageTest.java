package io.heliograph.devices.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The hosts page as the web UI takes it: an id for the address, and one ES module from this bundle. */
class HostsPageTest {

    private static final Pattern IMPORT = Pattern.compile("^import .* from '([^']+)';$", Pattern.MULTILINE);

    @Test
    void itsScriptIsAModuleOfThisBundleThatRendersAndImportsByAbsoluteAddress() throws IOException {
        HostsPage page = new HostsPage();
        assertEquals("hosts", page.id());
        assertEquals("Hosts", page.title());
        URL script = page.script();
        assertNotNull(script, "hosts-page.js next to HostsPage");
        String module;
        try (InputStream in = script.openStream()) {
            module = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(module.contains("export async function render(element, api, rest)"), module);
        // served at /ui/pages/hosts.js, a relative import would resolve under /ui/pages/
        Matcher imports = IMPORT.matcher(module);
        List<String> from = imports.results().map(m -> m.group(1)).toList();
        assertEquals(List.of("/ui/dom.js", "/ui/table.js"), from);
        // the search runs on the controller, over every host
        assertTrue(module.contains("'/api/v1/hosts?'") && module.contains("query.set('search'"), module);
    }
}
