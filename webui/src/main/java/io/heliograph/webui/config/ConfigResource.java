package io.heliograph.webui.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.cluster.SharedConfigurationService;
import io.heliograph.core.cluster.SharedConfigurationService.InvalidSettingsException;
import io.heliograph.core.cluster.SharedConfigurationService.PidSettings;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.RestResource;

/**
 * {@code /api/v1/config}: the apps' settings shared by every instance of the cluster, which override
 * those of each instance's {@code etc/<pid>.cfg} and apply live. Writes are checked against the settings
 * the pid's bundle describes before anything is written; refusals name the pid or the setting. While the
 * cluster bundle (the service) or its ZooKeeper session is away, the resource answers 503.
 */
@Component(service = RestResource.class)
@RestController
@ApiDescription("App configuration shared by every instance of the cluster; it overrides the etc/<pid>.cfg files")
public class ConfigResource implements RestResource {

    static final String PATH = "/api/v1/config";
    static final String JSON = "application/json";
    static final String PID = "pid";

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile SharedConfigurationService shared;

    @ApiDescription("Every pid whose settings can be shared, and any the cluster holds settings for, sorted by pid")
    @GetMapping(path = PATH, produces = JSON)
    @OperationId("listSharedConfigurations")
    public List<PidConfig> all() {
        return call(SharedConfigurationService::list).stream().map(PidConfig::of).toList();
    }

    @ApiDescription("The settings shared for a pid, and every setting the pid takes")
    @GetMapping(path = PATH + "/{pid}", produces = JSON)
    @OperationId("getSharedConfiguration")
    public PidConfig one(@ApiDescription("the configuration pid, e.g. io.heliograph.forwarding") @PathVariable String pid) {
        return PidConfig.of(call(s -> s.get(pid)));
    }

    @ApiDescription("Replaces the settings shared for a pid; every instance applies them live. Answers the new state")
    @PutMapping(path = PATH + "/{pid}", consumes = JSON, produces = JSON)
    @OperationId("replaceSharedConfiguration")
    public PidConfig replace(
            @ApiDescription("the configuration pid, e.g. io.heliograph.forwarding") @PathVariable String pid,
            @ApiDescription("setting → value, each value a string as the cfg file would hold it (\"7\", \"true\")")
            @ApiSchema(type = Settings.class) @RequestBody(required = false) Object body) {
        Map<String, String> settings = settings(body);
        return PidConfig.of(call(s -> s.set(pid, settings)));
    }

    @ApiDescription("Stops sharing settings for a pid: every instance applies its own file's again. Answers the"
            + " new state")
    @DeleteMapping(path = PATH + "/{pid}", produces = JSON)
    @OperationId("deleteSharedConfiguration")
    public PidConfig delete(
            @ApiDescription("the configuration pid, e.g. io.heliograph.forwarding") @PathVariable String pid) {
        return PidConfig.of(call(s -> {
            s.delete(pid);
            return s.get(pid);
        }));
    }

    /**
     * The body's shape as the document describes it, an object of strings (the handler reads it itself, to
     * name a member that is not one).
     */
    public static final class Settings extends LinkedHashMap<String, String> {
        private static final long serialVersionUID = 1L;
    }

    /**
     * The body, as JSON reads into plain Java: an object whose members are strings. Malformed JSON never
     * gets here; the web bundle refuses it as a bad request.
     */
    static Map<String, String> settings(Object body) {
        if (!(body instanceof Map<?, ?> members)) {
            throw ApiException.badRequest(null, "the body must be a JSON object of setting → value, e.g. "
                    + "{\"idleTimeout\": \"7\"}" + (body == null ? "" : "; it was a JSON " + kind(body)));
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (Map.Entry<?, ?> member : members.entrySet()) {
            String key = String.valueOf(member.getKey());
            if (!(member.getValue() instanceof String value)) {
                throw ApiException.badRequest(key, key + " must be a string, as the cfg file would hold it (\""
                        + (member.getValue() instanceof Number || member.getValue() instanceof Boolean
                                ? member.getValue() : "...") + "\"); it was a JSON " + kind(member.getValue()));
            }
            settings.put(key, value);
        }
        return settings;
    }

    private static String kind(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Map) {
            return "object";
        }
        if (value instanceof List) {
            return "array";
        }
        return value instanceof String ? "string" : value instanceof Boolean ? "boolean" : "number";
    }

    /**
     * Calls the service: 503 while it or the store is away, 400 naming the pid or the setting for settings it
     * refuses.
     */
    private <T> T call(Function<SharedConfigurationService, T> operation) {
        SharedConfigurationService s = shared;
        if (s == null) {
            throw ApiException.unavailable("shared configuration is not running (SharedConfigurationService); the "
                    + "io.heliograph.cluster bundle provides it");
        }
        try {
            return operation.apply(s);
        } catch (InvalidSettingsException e) {
            throw ApiException.badRequest(e.key() == null ? PID : e.key(), e.getMessage());
        } catch (StoreUnavailableException e) {
            throw ApiException.unavailable("the cluster's shared store cannot be reached, nothing was changed: "
                    + e.getMessage());
        } catch (IllegalStateException e) {
            throw ApiException.unavailable(e.getMessage());
        }
    }

    /** A pid's shared settings as the resource writes them. */
    record PidConfig(@ApiDescription("the configuration pid") String pid,
                     @ApiDescription("the settings shared for it, which override its etc/<pid>.cfg on every"
                             + " instance; empty when none are") Map<String, String> settings,
                     @ApiDescription("the version of the last write of its shared settings, larger at every write;"
                             + " null when none are shared") Long version,
                     @ApiDescription("every setting the pid takes, as its bundle describes it; empty when no bundle"
                             + " of this instance describes the pid") List<Setting> known) {

        static PidConfig of(PidSettings s) {
            return new PidConfig(s.pid(), s.settings(), s.version() < 0 ? null : s.version(),
                    s.known().stream().map(k -> new Setting(k.id(), k.type(), k.defaultValue(), k.description()))
                            .toList());
        }
    }

    record Setting(@ApiDescription("the setting's key, as in the cfg file") String id,
                   @ApiDescription("its type (String, Integer, Long, Boolean, ...); values are given as strings")
                   String type,
                   @ApiDescription("its default, null when it has none") String defaultValue,
                   @ApiDescription("what it does") String description) {
    }
}
