package io.heliograph.webui.cluster;

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
 * The cluster page is in the bundle, and every module it loads is too, at an address the shell serves:
 * the shell imports the page from /ui/pages/cluster.js, so a misspelt or relative import would only
 * show as a blank page in a browser.
 */
class ClusterPageTest {

    private static final Pattern LOADS = Pattern.compile("(?:from|stylesheet\\()\\s*'([^']+)'");
    private static final Pattern SERVED = Pattern.compile("/ui/([a-z0-9-]+/)*[a-z0-9-]+\\.(js|css)");

    private final ClusterPage page = new ClusterPage();

    @Test
    void isTheClusterPageOfTheNavigation() throws IOException {
        assertEquals("cluster", page.id());
        assertEquals("Cluster", page.title());
        assertNotNull(page.script(), "ui/cluster/cluster-page.js is in the bundle");
        assertTrue(read(page.script()).contains("export async function render(element, api"),
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
                URL resource = ClusterPage.class.getResource(address);
                assertNotNull(resource, module + " loads " + address + ", which is not in the bundle");
                if (loaded.add(address) && address.endsWith(".js")) {
                    toRead.add(resource);
                }
            }
        }
        for (String part : new String[] {"instance-table.js", "mastership-table.js", "cluster.css"}) {
            assertTrue(loaded.contains(ClusterPage.FOLDER + part), part + " is loaded: " + loaded);
        }
    }

    @Test
    void thePageUsesTheResourcesPaths() throws IOException {
        StringBuilder all = new StringBuilder();
        for (String part : new String[] {"cluster-page.js", "mastership-table.js"}) {
            all.append(read(ClusterPage.class.getResource(ClusterPage.FOLDER + part)));
        }
        for (String path : new String[] {ClusterResource.PATH + "'", ClusterResource.PATH + "/masterships'",
                ClusterResource.PATH + "/masterships/'", ClusterResource.PATH + "/rebalance'"}) {
            assertTrue(all.toString().contains("'" + path), "the page calls " + path);
        }
    }

    private static String read(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
