package io.heliograph.webui.switches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The switches page is in the bundle, and every module it loads is too: the shell imports the page
 * script from /ui/pages/switches.js, which imports its parts by absolute address under /ui/, so a
 * misspelt import would only show as a blank page in a browser.
 */
class SwitchesPageTest {

    /** {@code import ... from '/ui/...';} and {@code stylesheet('/ui/...')}: the addresses a module loads. */
    private static final Pattern LOADS = Pattern.compile("(?:from|stylesheet\\()\\s*'(/ui/[^']+)'");
    /** What UiResource serves from /ui/: folders and names of lower-case letters, digits and dashes. */
    private static final Pattern SERVED = Pattern.compile("/ui/([a-z0-9-]+/)*[a-z0-9-]+\\.(js|css)");

    private final SwitchesPage page = new SwitchesPage();

    @Test
    void isTheSwitchesPageOfTheNavigation() throws IOException {
        assertEquals("switches", page.id());
        assertEquals("Switches", page.title());
        assertNotNull(page.script(), "ui/switches/switches-page.js is in the bundle");
        assertTrue(read(page.script()).contains("export async function render(element, api, rest"),
                "the shell calls render(element, api, rest)");
    }

    @Test
    void everyModuleThePageLoadsIsInTheBundleAtAnAddressTheShellServes() throws IOException {
        Set<String> loaded = new LinkedHashSet<>();
        Deque<URL> toRead = new ArrayDeque<>();
        toRead.add(page.script());
        while (!toRead.isEmpty()) {
            URL module = toRead.pop();
            Matcher m = LOADS.matcher(read(module));
            while (m.find()) {
                String address = m.group(1);
                assertTrue(SERVED.matcher(address).matches(), module + " loads " + address + ", which /ui/ does not serve");
                URL resource = SwitchesPage.class.getResource(address);
                assertNotNull(resource, module + " loads " + address + ", which is not in the bundle");
                if (loaded.add(address) && address.endsWith(".js")) {
                    toRead.add(resource);
                }
            }
        }
        for (String part : new String[] {"switch-list.js", "switch-detail.js", "ports-tab.js", "flows-tab.js",
                "tables-tab.js", "groups-tab.js", "meters-tab.js", "switches.css"}) {
            assertTrue(loaded.contains(SwitchesPage.FOLDER + part), part + " is loaded: " + loaded);
        }
        assertTrue(loaded.contains("/ui/table.js") && loaded.contains("/ui/dom.js"), loaded.toString());
    }

    private static String read(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
