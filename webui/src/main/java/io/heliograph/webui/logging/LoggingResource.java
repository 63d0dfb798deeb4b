package io.heliograph.webui.logging;

import java.util.List;
import java.util.Map;

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
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.LogLevels;
import io.heliograph.core.LogLevels.LoggerLevel;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * {@code /api/v1/logging}: the controller's loggers and their levels, and {@code PUT /{logger}} with
 * {@code {"level": "debug"}} to change one at once, without a restart, {@code DELETE /{logger}} to take the
 * change back. A change lasts until etc/log4j2.xml changes or the controller restarts.
 */
@Component(service = RestResource.class)
@RestController
@ApiDescription("Log levels: every logger's level, changed at once without a restart")
@RequestMapping(path = "/api/v1/logging", produces = "application/json")
public class LoggingResource implements RestResource {

    static final String LOGGER = "a class or package name, e.g. io.heliograph.topology, or ROOT";

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile LogLevels levels;

    @ApiDescription("Every logger the controller has created or configured, ROOT first, the rest by name")
    @OperationId("listLoggers")
    @GetMapping
    public List<LoggerState> list() {
        return service().loggers().stream().map(LoggerState::of).toList();
    }

    @ApiDescription("One logger's level; a logger without a level of its own has its nearest parent's")
    @OperationId("getLogger")
    @GetMapping("/{logger}")
    public LoggerState one(@ApiDescription(LOGGER) @PathVariable String logger) {
        LogLevels service = service();
        return LoggerState.of(service.get(name(logger)));
    }

    @ApiDescription("Sets a logger's level, and so its children's that have none of their own; answers its new"
            + " state")
    @OperationId("setLoggerLevel")
    @PutMapping(path = "/{logger}", consumes = "application/json")
    public LoggerState set(@ApiDescription(LOGGER) @PathVariable String logger,
            @ApiDescription("{\"level\": \"debug\"}: one of trace, debug, info, warn, error, off")
            @ApiSchema(type = LevelChange.class) @RequestBody(required = false) Object body) {
        LogLevels service = service();
        String name = name(logger);
        return LoggerState.of(service.set(name, level(body)));
    }

    @ApiDescription("Takes back the level set on a logger: it logs again at what etc/log4j2.xml gives it; answers its"
            + " state (a logger never set is left as it is)")
    @OperationId("resetLoggerLevel")
    @DeleteMapping("/{logger}")
    public LoggerState reset(@ApiDescription(LOGGER) @PathVariable String logger) {
        LogLevels service = service();
        return LoggerState.of(service.reset(name(logger)));
    }

    private LogLevels service() {
        LogLevels service = levels;
        if (service == null) {
            throw ApiException.unavailable("the log level service is not running (LogLevels, io.heliograph.core):"
                    + " is Log4j on the launcher's class path?");
        }
        return service;
    }

    static String name(String logger) {
        try {
            return LogLevels.logger(logger);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("logger", e.getMessage());
        }
    }

    /** The body, as JSON reads into plain Java: an object whose one member is the level's name. */
    static String level(Object body) {
        if (!(body instanceof Map<?, ?> members)) {
            throw ApiException.badRequest("level", "the body must be a JSON object such as {\"level\": \"debug\"}"
                    + (body == null ? "" : "; it was a JSON " + (body instanceof List ? "array" : "value")));
        }
        for (Object key : members.keySet()) {
            if (!"level".equals(key)) {
                throw ApiException.badRequest(String.valueOf(key), "unknown member '" + key + "': the body is"
                        + " {\"level\": \"debug\"}");
            }
        }
        Object level = members.get("level");
        if (!(level instanceof String text)) {
            throw ApiException.badRequest("level", "level must be a string, one of "
                    + String.join(", ", LogLevels.LEVELS) + (level == null ? "; it is missing" : ""));
        }
        try {
            return LogLevels.level(text);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("level", e.getMessage());
        }
    }

    /** A logger as the resource writes it. */
    public record LoggerState(@ApiDescription("its name, ROOT for the root logger") @ApiSchema(required = true)
                                  String logger,
                         @ApiDescription("the level it logs at") @ApiSchema(values = {"trace", "debug", "info", "warn",
                                 "error", "off"}, required = true) String level,
                         @ApiDescription("the level set on this very logger; null when it has its nearest"
                                 + " parent's") @ApiSchema(values = {"trace", "debug", "info", "warn", "error", "off"})
                                 String configured) {

        static LoggerState of(LoggerLevel l) {
            return new LoggerState(l.logger(), l.level(), l.configured());
        }
    }

    /** The body of a level change, as the document describes it (the handler reads it itself, to name a bad member). */
    public record LevelChange(@ApiDescription("the new level") @ApiSchema(values = {"trace", "debug", "info", "warn",
            "error", "off"}, required = true) String level) {
    }
}
