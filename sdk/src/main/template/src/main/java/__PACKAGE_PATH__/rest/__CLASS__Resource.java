package __PACKAGE__.rest;

import java.util.LinkedHashMap;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import __PACKAGE__.__CLASS__Counter;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * GET /api/v1/__NAME__: the packet-ins counted per switch. The controller's web bundle maps it while
 * this component is registered (it appears in /api/v1/openapi.json) and unmaps it when it goes.
 */
@Component(service = RestResource.class)
@RestController
@ApiDescription("__NAME__: packet-ins counted per switch")
@RequestMapping(path = "/api/v1/__NAME__", produces = "application/json")
public class __CLASS__Resource implements RestResource {

    /** The answer: every switch's count, by datapath id. */
    public record Counts(String app, long total, Map<String, Long> switches) {
    }

    private final __CLASS__Counter counter;

    /** A service the resource cannot answer without: a constructor parameter, bound before it starts. */
    @Activate
    public __CLASS__Resource(@Reference __CLASS__Counter counter) {
        this.counter = counter;
    }

    @ApiDescription("The packet-ins counted per switch since the app started")
    @GetMapping
    @OperationId("list__CLASS__Counts")
    public Counts counts() {
        Map<String, Long> switches = new LinkedHashMap<>();
        counter.counts().forEach((dpid, count) -> switches.put(dpid.toString(), count));
        long total = switches.values().stream().mapToLong(Long::longValue).sum();
        return new Counts(__CLASS__Counter.NAME, total, switches);
    }
}
