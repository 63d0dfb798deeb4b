package io.heliograph.webui.rest;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.http.HttpStatus;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;
import io.heliograph.webui.api.ApiException;

/**
 * How a resource reaches a switch: by the datapath id of its path (400 when malformed, 404 when no
 * such switch is connected, 503 when the OpenFlow layer is not running), and with requests whose
 * answer is waited for at most {@link #timeout} (504 after that, 502 when the switch answers with an
 * OpenFlow error). Shared by the {@code /api/v1} resources and the Floodlight aliases.
 */
final class SwitchQueries {

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    private final SwitchService switches;
    private final Duration timeout;

    SwitchQueries(SwitchService switches, Duration timeout) {
        if (switches == null) {
            throw ApiException.unavailable("the OpenFlow layer is not running: no switch service");
        }
        this.switches = switches;
        this.timeout = timeout;
    }

    SwitchService service() {
        return switches;
    }

    /** The connected switch the path's {@code dpid} names. */
    OFSwitch find(String dpid) {
        DatapathId id = DatapathIds.parse(dpid);
        OFSwitch sw = switches.getSwitch(id);
        if (sw == null) {
            throw ApiException.notFound(DatapathIds.FIELD, "no switch " + id + " is connected");
        }
        return sw;
    }

    /** Refuses, with 409, what a switch of an older OpenFlow version cannot answer. */
    static void requireVersion(OFSwitch sw, OFVersion least, String what) {
        if (sw.getVersion().compareTo(least) < 0) {
            throw ApiException.conflict(DatapathIds.FIELD, "switch " + sw.getId() + " speaks "
                    + VersionNames.of(sw.getVersion()) + ", which has no " + what + " (they need "
                    + VersionNames.of(least) + " or later)");
        }
    }

    /** What the switch says it is; 504 while it has not answered the description request (it is asked again). */
    SwitchJson.Description description(OFSwitch sw) {
        SwitchJson.Description d = SwitchViews.description(sw.getDescription());
        if (d == null) {
            throw new ApiException(HttpStatus.GATEWAY_TIMEOUT, null, "switch " + sw.getId()
                    + " has not answered the description request (yet)");
        }
        return d;
    }

    /** Every part of a statistics reply. */
    <R extends OFStatsReply> List<R> statistics(OFSwitch sw, OFStatsRequest<R> request) {
        return await(sw, request.getStatsType().name().toLowerCase() + " statistics",
                sw.requestStatistics(request));
    }

    /** An answer of the switch (a reply, or a list of statistics parts), waited for at most the timeout. */
    <T> T await(OFSwitch sw, String what, CompletableFuture<T> answer) {
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(false);
            throw timedOut(sw, what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, null, "interrupted waiting for " + what);
        } catch (ExecutionException e) {
            throw failed(sw, what, e.getCause());
        }
    }

    ApiException failed(OFSwitch sw, String what, Throwable cause) {
        if (cause instanceof TimeoutException) {
            return timedOut(sw, what);
        }
        if (cause instanceof OFErrorException error) {
            return new ApiException(HttpStatus.BAD_GATEWAY, null, "switch " + sw.getId() + " refused the "
                    + what + " request: " + error.getMessage());
        }
        return new ApiException(HttpStatus.BAD_GATEWAY, null, "no " + what + " from switch " + sw.getId() + ": "
                + (cause == null ? "no reason given" : cause.getMessage()));
    }

    private ApiException timedOut(OFSwitch sw, String what) {
        return new ApiException(HttpStatus.GATEWAY_TIMEOUT, null, "switch " + sw.getId() + " did not answer the "
                + what + " request within " + timeout.toMillis() + " ms");
    }
}
