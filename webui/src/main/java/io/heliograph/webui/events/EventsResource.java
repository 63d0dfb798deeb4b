package io.heliograph.webui.events;

import java.io.IOException;
import java.util.function.Supplier;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.webui.HeldConnections;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.LiveEvents;
import io.heliograph.webui.api.RestResource;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code GET /api/v1/events}, the live events, and the {@link LiveEvents} service apps publish them
 * through: one component, so both live exactly as long as the web bundle runs, and its streams are
 * completed when it stops.
 */
@RestController
@ApiDescription("Live events: switches, links and hosts as they change, as server-sent events")
@Component(service = {LiveEvents.class, RestResource.class})
public final class EventsResource implements LiveEvents, RestResource, HeldConnections {

    public static final String PATH = "/api/v1/events";

    private final EventStreams streams;

    public EventsResource() {
        this(EventStreams.Limits.DEFAULTS);
    }

    public EventsResource(EventStreams.Limits limits) {
        streams = new EventStreams(limits);
    }

    @ApiDescription("A text/event-stream of 'event: switch|link|host' each with one JSON 'data:' line"
            + " ({action, ...} and the thing's REST view); a comment line every 15 s. At most 64 streams"
            + " (503 beyond); a client 1 MiB behind is disconnected: reconnect and reload")
    @GetMapping(value = PATH, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @OperationId("streamEvents")
    public void events(HttpServletRequest request, HttpServletResponse response) throws IOException {
        streams.open(request, response);
    }

    @Override
    public void publish(String type, Supplier<?> payload) {
        streams.publish(type, payload);
    }

    /** Streams open now. */
    public int openStreams() {
        return streams.openStreams();
    }

    /** Completes the streams open now: the server they came through is stopping (its port may move). */
    @Override
    public void endHeldConnections() {
        streams.endAll();
    }

    /** Completes every stream: the web bundle is stopping (or a test is done). */
    @Deactivate
    public void close() {
        streams.close();
    }
}
