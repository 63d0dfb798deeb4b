package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.DatapathIds;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.StaticFlowService;

/**
 * Gogo shell commands:
 * <pre>
 * staticflows [dpid]                                   list entries and their state
 * staticadd dpid name key=value ...                    add or replace (Floodlight's names), e.g.
 *   staticadd 1 web priority=100 eth_type=0x0800 ip_proto=6 tcp_dst=80 actions=output=2
 *   staticadd 1 g1 entry_type=group group_id=1 group_type=select bucket=weight=1;output=2 bucket=weight=1;output=3
 *   staticadd 1 m1 entry_type=meter meter_id=1 meter_flags=kbps band=drop;rate=10000
 * staticdel dpid name                                  delete
 * </pre>
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=staticflows",
    "osgi.command.function=staticadd",
    "osgi.command.function=staticdel",
    "heliograph.command.help=staticflows [DPID]|static entries and their state on the switch",
    "heliograph.command.help=staticadd DPID NAME FIELD=VALUE... actions=...|"
        + "add or replace a static flow (entry_type=group or meter for the others)",
    "heliograph.command.help=staticdel DPID NAME|delete a static entry"})
public final class StaticFlowsCommands {

    /** Longer than any request timeout: the service itself never waits longer than that. */
    private static final long WAIT_SECONDS = 60;

    private final StaticFlowService service;

    @Activate
    public StaticFlowsCommands(@Reference StaticFlowService service) {
        this.service = service;
    }

    public String staticflows() {
        return format(service.list());
    }

    public String staticflows(String dpid) {
        DatapathId id;
        try {
            id = DatapathIds.parse(dpid);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return format(service.list(id));
    }

    public String staticadd(String dpid, String name, String... settings) {
        StaticEntry entry;
        try {
            entry = CompactSyntax.parse(DatapathIds.parse(dpid), name, List.of(settings));
        } catch (IllegalArgumentException e) {
            return "REFUSED: " + e.getMessage();
        }
        return await(service.add(entry).toCompletableFuture());
    }

    public String staticdel(String dpid, String name) {
        DatapathId id;
        try {
            id = DatapathIds.parse(dpid);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return await(service.delete(id, name).toCompletableFuture());
    }

    private static String await(java.util.concurrent.CompletableFuture<Result> f) {
        try {
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS).message();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (ExecutionException | TimeoutException e) {
            return "FAILED: " + Errors.describe(e);
        }
    }

    static String format(List<EntryStatus> statuses) {
        if (statuses.isEmpty()) {
            return "no static entries";
        }
        StringBuilder out = new StringBuilder();
        DatapathId current = null;
        for (EntryStatus s : statuses) {
            if (!s.entry().dpid().equals(current)) {
                current = s.entry().dpid();
                out.append(current).append('\n');
            }
            out.append("  ").append(s.state()).append("  ").append(s.entry());
            if (!s.detail().isEmpty()) {
                out.append("\n      ").append(s.detail());
            }
            out.append('\n');
        }
        return out.toString().stripTrailing();
    }

    /** key=value settings into the JSON form the entry file uses, with repeatable bucket= and band=. */
    static final class CompactSyntax {
        private CompactSyntax() {
        }

        static StaticEntry parse(DatapathId dpid, String name, List<String> settings) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(EntryCodec.SWITCH, dpid.toString());
            m.put(EntryCodec.NAME, name);
            List<Object> buckets = new ArrayList<>();
            List<Object> bands = new ArrayList<>();
            for (String s : settings) {
                int eq = s.indexOf('=');
                if (eq < 1) {
                    throw new IllegalArgumentException("'" + s + "' is not key=value");
                }
                String key = s.substring(0, eq).trim();
                String value = s.substring(eq + 1).trim();
                switch (key) {
                    case "bucket" -> buckets.add(bucket(value));
                    case "band" -> bands.add(band(value));
                    case "meter_flags", "flags" -> m.put(key, List.of((Object[]) value.split(",")));
                    default -> m.put(key, value);
                }
            }
            if (!buckets.isEmpty()) {
                m.put("group_buckets", buckets);
            }
            if (!bands.isEmpty()) {
                m.put("meter_bands", bands);
            }
            return EntryCodec.fromJson(m);
        }

        /** {@code [weight=N;][watch_port=P;][watch_group=G;]actions}. */
        private static Map<String, Object> bucket(String value) {
            Map<String, Object> b = new LinkedHashMap<>();
            String[] parts = value.split(";");
            for (int i = 0; i < parts.length; i++) {
                String p = parts[i].trim();
                if (p.startsWith("weight=")) {
                    b.put("bucket_weight", p.substring(7));
                } else if (p.startsWith("watch_port=")) {
                    b.put("bucket_watch_port", p.substring(11));
                } else if (p.startsWith("watch_group=")) {
                    b.put("bucket_watch_group", p.substring(12));
                } else {
                    b.put("bucket_actions", p);
                }
            }
            return b;
        }

        /** {@code type;rate=R[;burst_size=B][;prec_level=P]}. */
        private static Map<String, Object> band(String value) {
            Map<String, Object> b = new LinkedHashMap<>();
            for (String p : value.split(";")) {
                int eq = p.indexOf('=');
                if (eq < 0) {
                    b.put("type", p.trim());
                } else {
                    b.put(p.substring(0, eq).trim(), p.substring(eq + 1).trim());
                }
            }
            return b;
        }
    }
}
