package io.heliograph.staticflows.internal.rest;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.Requests;

/**
 * Static flows, groups and meters under {@code /api/v1/staticflows/{kind}} ({@code flows},
 * {@code groups}, {@code meters}): list, get one, create (POST; a name in use is a conflict),
 * replace (PUT by switch and name), delete. Bodies use Floodlight's member names and are validated
 * exactly as the static flow service validates, before anything reaches a switch. Registered while
 * the static flows app runs, so its paths go with it.
 */
@RestController
@ApiDescription("Operator-defined flows, groups and meters, validated before they reach a switch and kept across restarts (static flows app)")
@Component(service = RestResource.class)
public final class StaticEntriesResource implements RestResource {

    /**
     * The path's kinds: plural, and the singular an entry's {@code kind} says, so a client can use what
     * it read in the next request's path.
     */
    private static final Map<String, String> KINDS = Map.of("flows", "flow", "groups", "group", "meters", "meter",
            "flow", "flow", "group", "group", "meter", "meter");
    private static final String KIND = "flows, groups or meters; the singular an entry's kind says (flow, group,"
            + " meter) is taken too";

    private final StaticFlowService service;
    private final EntryWriter writer;

    @Activate
    public StaticEntriesResource(@Reference StaticFlowService service) {
        this.service = service;
        this.writer = new EntryWriter(service);
    }

    /**
     * Every entry of every kind, or of one switch: groups and meters first, then flows by table and
     * priority. Each with its state and its switch's reconciliation (NOT_POSSIBLE: the switch's tables
     * cannot be read, and entries pushed to it are UNVERIFIED).
     */
    @ApiDescription("Every static entry of every kind, or of one switch (dpid)")
    @GetMapping("/api/v1/staticflows")
    @OperationId("listAllStaticEntries")
    public List<StaticEntryView> all(@RequestParam(name = "dpid", required = false) String dpid) {
        return StaticEntryView.of(statuses(dpid), service);
    }

    @ApiDescription("The static entries of one kind (flows, groups, meters), or of one switch (dpid)")
    @GetMapping("/api/v1/staticflows/{kind}")
    @OperationId("listStaticEntries")
    public List<StaticEntryView> list(@ApiDescription(KIND) @ApiSchema(values = {"flows", "groups", "meters", "flow", "group", "meter"})
            @PathVariable("kind") String kindPath,
            @RequestParam(name = "dpid", required = false) String dpid) {
        String kind = kind(kindPath);
        return StaticEntryView.of(statuses(dpid).stream().filter(s -> s.entry().kind().equals(kind)).toList(), service);
    }

    @ApiDescription("One static entry, its definition and its state on the switch")
    @GetMapping("/api/v1/staticflows/{kind}/{dpid}/{name}")
    @OperationId("getStaticEntry")
    public StaticEntryView one(@ApiDescription(KIND) @ApiSchema(values = {"flows", "groups", "meters", "flow", "group", "meter"})
            @PathVariable("kind") String kindPath, @PathVariable("dpid") String dpidText,
            @PathVariable("name") String name) {
        return StaticEntryView.of(existing(kind(kindPath), Requests.dpid("dpid", dpidText), name), service::reconciliation);
    }

    /** Creates an entry; the body names its switch and name. 201 with the entry as stored. */
    @ApiDescription("Creates a static entry (Floodlight's member names); a name the switch already uses is a conflict")
    @PostMapping("/api/v1/staticflows/{kind}")
    @ResponseStatus(HttpStatus.CREATED)
    @OperationId("createStaticEntry")
    public WriteOutcome create(@ApiDescription(KIND) @ApiSchema(values = {"flows", "groups", "meters", "flow", "group", "meter"})
            @PathVariable("kind") String kindPath, @ApiSchema(type = StaticEntryBody.class) @RequestBody(required = false) String body) {
        String kind = kind(kindPath);
        EntryDocument document = EntryDocument.parse(body);
        document.requireKind(kind, "the path's kind");
        return writer.add(document, true);
    }

    /** Creates or replaces the entry the path names; the body's switch and name, if given, must agree. */
    @ApiDescription("Creates or replaces the static entry the path names")
    @PutMapping("/api/v1/staticflows/{kind}/{dpid}/{name}")
    @OperationId("replaceStaticEntry")
    public WriteOutcome replace(@ApiDescription(KIND) @ApiSchema(values = {"flows", "groups", "meters", "flow", "group", "meter"})
            @PathVariable("kind") String kindPath, @PathVariable("dpid") String dpidText,
            @PathVariable("name") String name, @ApiSchema(type = StaticEntryBody.class) @RequestBody(required = false) String body) {
        String kind = kind(kindPath);
        DatapathId dpid = Requests.dpid("dpid", dpidText);
        EntryDocument document = EntryDocument.parse(body);
        document.requireKind(kind, "the path's kind");
        document.require("name", name, "the path's name");
        document.require("switch", dpid.toString(), "the path's switch");
        return writer.add(document, false);
    }

    @ApiDescription("Deletes a static entry from the store and the switch; one that others still use is a conflict")
    @DeleteMapping("/api/v1/staticflows/{kind}/{dpid}/{name}")
    @OperationId("deleteStaticEntry")
    public WriteOutcome delete(@ApiDescription(KIND) @ApiSchema(values = {"flows", "groups", "meters", "flow", "group", "meter"})
            @PathVariable("kind") String kindPath, @PathVariable("dpid") String dpidText,
            @PathVariable("name") String name) {
        String kind = kind(kindPath);
        DatapathId dpid = Requests.dpid("dpid", dpidText);
        existing(kind, dpid, name);
        return writer.delete(dpid, name);
    }

    private List<EntryStatus> statuses(String dpid) {
        return dpid == null ? service.list() : service.list(Requests.dpid("dpid", dpid));
    }

    private EntryStatus existing(String kind, DatapathId dpid, String name) {
        EntryStatus status = writer.find(dpid, name);
        if (status == null || !status.entry().kind().equals(kind)) {
            throw Requests.notFound("name", "switch " + dpid + " has no static " + kind + " '" + name + "'");
        }
        return status;
    }

    private static String kind(String path) {
        String kind = KINDS.get(path);
        if (kind == null) {
            throw Requests.notFound("kind", "'" + path + "' is not flows, groups or meters");
        }
        return kind;
    }
}
