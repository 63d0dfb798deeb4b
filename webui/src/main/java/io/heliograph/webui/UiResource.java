package io.heliograph.webui;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.UiPage;

/**
 * The web UI: the single-page app's shell ({@code /}, {@code /ui/<path>}, from this bundle), the
 * list of pages apps contribute ({@code /api/v1/ui/pages}) and each page's script at a stable URL
 * ({@code /ui/pages/<id>.js}), with the modules and stylesheets beside that script in its bundle at
 * {@code /ui/pages/<id>/<name>.js|css}, so that a page of several parts imports them relatively
 * ({@code ./<id>/<name>.js}). Scripts and the shell are public: the browser loads ES modules with
 * {@code import()}, which sends no Authorization header; the data they show comes from the API, which
 * needs authentication.
 */
@RestController
@ApiDescription("The web UI's pages")
final class UiResource {

    static final String PAGES = "/api/v1/ui/pages";
    /** A file of the shell: folders and a name of lower-case letters, digits and dashes; nothing else. */
    private static final Pattern SHELL_FILE = Pattern.compile("([a-z0-9-]+/)*[a-z0-9-]+\\.(js|css|html|svg|json)");
    /** A file beside a page's script: one name of lower-case letters, digits and dashes, a module or a stylesheet. */
    private static final Pattern PAGE_FILE = Pattern.compile("[a-z0-9-]+\\.(js|css)");
    private static final Map<String, MediaType> TYPES = Map.of(
            "js", MediaType.valueOf("text/javascript;charset=utf-8"),
            "css", MediaType.valueOf("text/css;charset=utf-8"),
            "html", MediaType.valueOf("text/html;charset=utf-8"),
            "svg", MediaType.valueOf("image/svg+xml"),
            "json", MediaType.APPLICATION_JSON);

    /** A page as the navigation lists it: {@code script} is where the UI imports it from. */
    record Page(String id, String title, String script) {
    }

    private final UiPages pages;

    UiResource(UiPages pages) {
        this.pages = pages;
    }

    @GetMapping(PAGES)
    @ApiDescription("The pages apps add to the web UI now; a stopped app's page is not listed")
    @OperationId("listUiPages")
    public List<Page> pages() {
        return pages.list().stream().map(p -> new Page(p.id(), p.title(), "/ui/pages/" + p.id() + ".js")).toList();
    }

    @GetMapping(path = "/ui/pages/{id}.js", produces = "text/javascript;charset=utf-8")
    public ResponseEntity<byte[]> pageScript(@PathVariable String id) {
        UiPage page = pages.find(id).orElseThrow(() -> ApiException.notFound("id", "no UI page '" + id + "'"));
        URL script = page.script();
        if (script == null) {
            throw ApiException.notFound("id", "UI page '" + id + "' has no script");
        }
        try (InputStream in = script.openStream()) {
            return ResponseEntity.ok().cacheControl(CacheControl.noCache()).body(in.readAllBytes());
        } catch (IOException e) {
            // Its bundle is stopping or was updated: the page is on its way out.
            throw ApiException.notFound("id", "the script of UI page '" + id + "' is gone: " + e.getMessage());
        }
    }

    /** A module or stylesheet next to a page's script in the page's bundle (the script's own folder only). */
    @GetMapping("/ui/pages/{id}/{file:.+}")
    public ResponseEntity<byte[]> pageFile(@PathVariable String id, @PathVariable String file) {
        UiPage page = pages.find(id).orElseThrow(() -> ApiException.notFound("id", "no UI page '" + id + "'"));
        URL script = page.script();
        if (!PAGE_FILE.matcher(file).matches() || script == null) {
            throw ApiException.notFound("file", "no file '" + file + "' of UI page '" + id + "'");
        }
        try (InputStream in = new URL(script, file).openStream()) {
            return ResponseEntity.ok().contentType(TYPES.get(file.substring(file.lastIndexOf('.') + 1)))
                    .cacheControl(CacheControl.noCache()).body(in.readAllBytes());
        } catch (IOException e) {
            // not there, or its bundle is stopping or was updated
            throw ApiException.notFound("file", "no file '" + file + "' of UI page '" + id + "'");
        }
    }

    @GetMapping({"/", "/index.html"})
    public ResponseEntity<byte[]> shell() {
        return shellFile("index.html");
    }

    /** The icon, also where browsers and bookmarks look for it without reading the shell's link to it. */
    @GetMapping("/favicon.ico")
    public ResponseEntity<byte[]> favicon() {
        return shellFile("favicon.svg");
    }

    @GetMapping("/ui/{*file}")
    public ResponseEntity<byte[]> shellFile(@PathVariable String file) {
        if (file.startsWith("/")) {
            file = file.substring(1);   // a catch-all variable keeps its leading slash
        }
        if (!SHELL_FILE.matcher(file).matches()) {
            throw ApiException.notFound("file", "no UI file '" + file + "'");
        }
        URL resource = UiResource.class.getResource("/ui/" + file);
        if (resource == null) {
            throw ApiException.notFound("file", "no UI file '" + file + "'");
        }
        try (InputStream in = resource.openStream()) {
            return ResponseEntity.ok().contentType(TYPES.get(file.substring(file.lastIndexOf('.') + 1)))
                    .cacheControl(CacheControl.noCache()).body(in.readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the UI file " + resource, e);
        }
    }
}
