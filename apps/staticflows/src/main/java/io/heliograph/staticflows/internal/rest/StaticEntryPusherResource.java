package io.heliograph.staticflows.internal.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.staticflows.internal.EntryCodec;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.Requests;

/**
 * Floodlight's static entry pusher, under its current path {@code /wm/staticentrypusher} and the two
 * older ones ({@code /wm/staticflowpusher}, {@code /wm/staticflowentrypusher}), so scripts written
 * for Floodlight keep working: POST an entry (added, or replacing its namesake, as Floodlight does),
 * DELETE by name, list and clear per switch or {@code all}. Answers carry Floodlight's
 * {@code {"status": ...}}; refusals are the API's errors (400 naming the field, 409), where
 * Floodlight answered 200 with a warning.
 */
@RestController
@ApiDescription("Floodlight's static entry pusher, under its current and two older paths (static flows app)")
@Component(service = RestResource.class)
public final class StaticEntryPusherResource implements RestResource {

    private final StaticFlowService service;
    private final EntryWriter writer;

    @Activate
    public StaticEntryPusherResource(@Reference StaticFlowService service) {
        this.service = service;
        this.writer = new EntryWriter(service);
    }

    /** An entry as JSON, or as the form-encoded body {@code curl -d} sends (the way Floodlight's documentation shows). */
    @ApiDescription("Adds an entry, or replaces its namesake, as Floodlight's pusher does")
    @PostMapping({"/wm/staticentrypusher/json", "/wm/staticflowpusher/json", "/wm/staticflowentrypusher/json"})
    @OperationId(value = "floodlightPushStaticEntry", aliases = {
            @OperationId.Alias(path = "/wm/staticflowpusher/json", id = "floodlightPushStaticFlow"),
            @OperationId.Alias(path = "/wm/staticflowentrypusher/json", id = "floodlightPushStaticFlowEntry")})
    public Map<String, Object> push(@ApiSchema(type = StaticEntryBody.class) @RequestBody(required = false) String body) {
        writer.add(EntryDocument.parseForm(body), false);
        return status("Entry pushed");
    }

    /** Deletes the entries with this name: on the switch the body names, or on every switch. */
    @ApiDescription("Deletes the entries with the body's name (on the body's switch, or every switch)")
    @DeleteMapping({"/wm/staticentrypusher/json", "/wm/staticflowpusher/json", "/wm/staticflowentrypusher/json"})
    @OperationId(value = "floodlightDeleteStaticEntry", aliases = {
            @OperationId.Alias(path = "/wm/staticflowpusher/json", id = "floodlightDeleteStaticFlow"),
            @OperationId.Alias(path = "/wm/staticflowentrypusher/json", id = "floodlightDeleteStaticFlowEntry")})
    public Map<String, Object> delete(@ApiSchema(type = StaticEntryName.class) @RequestBody(required = false) String body) {
        EntryDocument document = EntryDocument.parseForm(body);
        Object name = document.members.get("name");
        if (!(name instanceof String)) {
            throw Requests.badRequest("name", "the body must name the entry to delete: {\"name\": \"...\"}");
        }
        Object dpid = document.members.get("switch");
        List<EntryStatus> named = (dpid == null ? service.list() : service.list(Requests.dpid("switch", dpid.toString())))
                .stream().filter(s -> s.entry().name().equals(name)).toList();
        if (named.isEmpty()) {
            throw Requests.notFound("name", "no static entry '" + name + "'" + (dpid == null ? "" : " on switch " + dpid));
        }
        for (EntryStatus s : named) {
            writer.delete(s.entry().dpid(), s.entry().name());
        }
        return status("Entry " + name + " deleted");
    }

    /** Floodlight's listing: per switch, a list of {name: entry} objects; numbers as strings, as Floodlight writes them. */
    @ApiDescription("Floodlight's listing of the static entries of a switch, or of all")
    @GetMapping({"/wm/staticentrypusher/list/{dpid}/json", "/wm/staticflowpusher/list/{dpid}/json",
        "/wm/staticflowentrypusher/list/{dpid}/json"})
    @OperationId(value = "floodlightListStaticEntries", aliases = {
            @OperationId.Alias(path = "/wm/staticflowpusher/list/{dpid}/json", id = "floodlightListStaticFlows"),
            @OperationId.Alias(path = "/wm/staticflowentrypusher/list/{dpid}/json", id = "floodlightListStaticFlowEntries")})
    public Map<String, Object> list(@PathVariable("dpid") String dpidText) {
        Map<String, Object> bySwitch = new TreeMap<>();
        List<EntryStatus> statuses = isAll(dpidText) ? service.list() : service.list(Requests.dpid("dpid", dpidText));
        if (!isAll(dpidText)) {
            bySwitch.put(Requests.dpid("dpid", dpidText).toString(), new ArrayList<>());
        }
        for (EntryStatus status : statuses) {
            StaticEntry entry = status.entry();
            @SuppressWarnings("unchecked")
            List<Object> entries = (List<Object>) bySwitch.computeIfAbsent(entry.dpid().toString(), d -> new ArrayList<>());
            entries.add(Map.of(entry.name(), floodlightEntry(entry)));
        }
        return bySwitch;
    }

    /** Deletes every entry of a switch, or of every switch: flows first, then the groups and meters they used. */
    @ApiDescription("Deletes every static entry of a switch, or of all")
    @GetMapping({"/wm/staticentrypusher/clear/{dpid}/json", "/wm/staticflowpusher/clear/{dpid}/json",
        "/wm/staticflowentrypusher/clear/{dpid}/json"})
    @OperationId(value = "floodlightClearStaticEntries", aliases = {
            @OperationId.Alias(path = "/wm/staticflowpusher/clear/{dpid}/json", id = "floodlightClearStaticFlows"),
            @OperationId.Alias(path = "/wm/staticflowentrypusher/clear/{dpid}/json", id = "floodlightClearStaticFlowEntries")})
    public Map<String, Object> clear(@PathVariable("dpid") String dpidText) {
        DatapathId only = isAll(dpidText) ? null : Requests.dpid("dpid", dpidText);
        for (String kind : List.of("flow", "group", "meter")) {
            // Groups may forward to groups: a round deletes those no other group uses, until none is left.
            boolean progress = true;
            while (progress) {
                progress = false;
                List<String> refused = new ArrayList<>();
                for (EntryStatus s : only == null ? service.list() : service.list(only)) {
                    if (!s.entry().kind().equals(kind)) {
                        continue;
                    }
                    if (writer.deleteUnlessInUse(s.entry().dpid(), s.entry().name())) {
                        progress = true;
                    } else {
                        refused.add(s.entry().name());
                    }
                }
                if (!progress && !refused.isEmpty()) {
                    throw Requests.conflict(null, "could not delete " + kind + "s " + refused);
                }
            }
        }
        return status(only == null ? "Deleted all entries." : "Deleted all entries for switch " + only + ".");
    }

    private static boolean isAll(String dpid) {
        return "all".equals(dpid.toLowerCase(Locale.ROOT));
    }

    private static Map<String, Object> status(String text) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", text);
        return m;
    }

    /** A flow as Floodlight's flow-mod serializer shows it; groups and meters as the API's members. */
    private static Map<String, Object> floodlightEntry(StaticEntry entry) {
        if (!(entry instanceof FlowEntry f)) {
            Map<String, Object> m = new LinkedHashMap<>();
            EntryCodec.toJson(entry).forEach((k, v) -> m.put(k, v instanceof Number ? v.toString() : v));
            return m;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "ADD");
        m.put("cookie", Long.toString(f.cookie()));
        m.put("priority", Integer.toString(f.priority()));
        m.put("idleTimeoutSec", Integer.toString(f.idleTimeout()));
        m.put("hardTimeoutSec", Integer.toString(f.hardTimeout()));
        m.put("outPort", "any");
        m.put("tableId", "0x" + Integer.toHexString(f.table()));
        m.put("match", new LinkedHashMap<>(f.match()));
        Map<String, Object> instructions = new LinkedHashMap<>();
        if (!f.applyActions().isEmpty()) {
            instructions.put("instruction_apply_actions", Map.of("actions", actions(f.applyActions())));
        }
        if (!f.writeActions().isEmpty()) {
            instructions.put("instruction_write_actions", Map.of("actions", actions(f.writeActions())));
        }
        if (f.clearActions()) {
            instructions.put("instruction_clear_actions", Map.of());
        }
        if (f.gotoTable() != null) {
            instructions.put("instruction_goto_table", Map.of("table_id", Integer.toString(f.gotoTable())));
        }
        if (f.meter() != null) {
            instructions.put("instruction_goto_meter", Map.of("meter_id", Long.toString(f.meter())));
        }
        if (f.writeMetadata() != null) {
            instructions.put("instruction_write_metadata", Map.of("metadata", f.writeMetadata().toString()));
        }
        m.put("instructions", instructions);
        return m;
    }

    private static String actions(List<Action> actions) {
        return String.join(",", actions.stream().map(Action::toString).toList());
    }
}
