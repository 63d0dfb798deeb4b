package io.heliograph.webui.topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Map;
import java.util.regex.Pattern;

import org.osgi.service.component.annotations.Component;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.RestResource;

/**
 * The topology graph's modules ({@code /ui/topology/*.js}) and its benchmark page, from this bundle's
 * {@code ui/topology/} folder; the topology page's script (topology-page.js) imports them from here.
 * Public like the rest of {@code /ui/}: they hold code, never data.
 */
@Component(service = RestResource.class)
@RestController
public class TopologyGraphFiles implements RestResource {

    static final String FOLDER = "/ui/topology/";
    private static final Pattern FILE = Pattern.compile("[a-z0-9-]+\\.(js|html)");
    private static final Map<String, MediaType> TYPES = Map.of(
            "js", MediaType.valueOf("text/javascript;charset=utf-8"),
            "html", MediaType.valueOf("text/html;charset=utf-8"));

    @GetMapping(FOLDER + "{file}")
    public ResponseEntity<byte[]> file(@PathVariable("file") String file) {
        URL resource = FILE.matcher(file).matches() ? TopologyGraphFiles.class.getResource(FOLDER + file) : null;
        if (resource == null) {
            throw ApiException.notFound("file", "no topology graph file '" + file + "'");
        }
        try (InputStream in = resource.openStream()) {
            return ResponseEntity.ok().contentType(TYPES.get(file.substring(file.lastIndexOf('.') + 1)))
                    .cacheControl(CacheControl.noCache()).body(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
