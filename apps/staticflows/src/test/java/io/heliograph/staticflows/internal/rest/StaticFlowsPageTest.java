package io.heliograph.staticflows.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.heliograph.staticflows.internal.EntryCodec;

/** The static flows editor as the web UI takes it: an id for the address, and one ES module from this bundle. */
class StaticFlowsPageTest {

    private static final Pattern IMPORT = Pattern.compile("^import .* from '([^']+)';$", Pattern.MULTILINE);
    private static final Pattern FLOW_MEMBERS = Pattern.compile("const FLOW_MEMBERS = new Set\\(\\[([^\\]]*)\\]\\)");
    private static final Pattern QUOTED = Pattern.compile("'([a-z_]+)'");

    @Test
    void itsScriptIsAModuleOfThisBundleThatRendersAndImportsByAbsoluteAddress() throws IOException {
        StaticFlowsPage page = new StaticFlowsPage();
        assertEquals("static-flows", page.id());
        assertEquals("Static flows", page.title());
        String module = script(page);
        assertTrue(module.contains("export async function render(element, api)"), module);
        Matcher imports = IMPORT.matcher(module);
        assertEquals(List.of("/ui/dom.js", "/ui/table.js"), imports.results().map(m -> m.group(1)).toList());
        for (String path : List.of("'/api/v1/staticflows/'", "'/api/v1/switches'")) {
            assertTrue(module.contains(path), path);
        }
    }

    /**
     * The editor tells a flow's match fields from its other members as the API does: a member the
     * page took for a match field would be shown as one and written back under the match.
     */
    @Test
    void theEditorKnowsTheSameFlowMembersAsTheApi() throws Exception {
        Matcher list = FLOW_MEMBERS.matcher(script(new StaticFlowsPage()));
        assertTrue(list.find(), "FLOW_MEMBERS in the page");
        Set<String> page = new TreeSet<>(QUOTED.matcher(list.group(1)).results().map(m -> m.group(1)).toList());
        // the codec's own list: a flow's members that are not match fields
        Field keys = EntryCodec.class.getDeclaredField("FLOW_KEYS");
        keys.setAccessible(true);
        @SuppressWarnings("unchecked")
        Set<String> api = new TreeSet<>((Set<String>) keys.get(null));
        assertEquals(api, page);
    }

    private static String script(StaticFlowsPage page) throws IOException {
        URL script = page.script();
        assertNotNull(script, "static-flows-page.js next to StaticFlowsPage");
        try (InputStream in = script.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
