package io.heliograph.webui.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.Mastership;
import io.heliograph.core.cluster.MastershipService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.Requests;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.cluster.ClusterJson.Cluster;
import io.heliograph.webui.cluster.ClusterJson.Move;
import io.heliograph.webui.cluster.ClusterJson.Role;
import io.heliograph.webui.cluster.ClusterJson.SwitchMastership;

/**
 * {@code /api/v1/cluster}: the instances of the cluster and which one is master of each switch, and the
 * operator's two levers: moving one switch's mastership and rebalancing them all. The services behind it
 * come from the cluster bundle; while one is absent the operations that need it answer 503 naming it.
 * A move or rebalance answers once the switches have confirmed their new masters, or 504 after a bound
 * (the change may still complete: the masterships show where it stands).
 *
 * <p>Waiting blocks the request's thread, as the other resources that wait for switches do: the
 * OpenAPI document describes a handler's return type, which a future would hide.
 */
@Component(service = RestResource.class)
@RestController
@ApiDescription("The controller instances of the cluster (ZooKeeper) and which one is master of each switch")
public class ClusterResource implements RestResource {

    static final String PATH = "/api/v1/cluster";
    static final String JSON = "application/json";
    static final String DPID = "dpid";
    static final String MASTER = "master";
    /**
     * Longer than the election's own bound on a move (10 s), so that its reason is the one answered;
     * below Jetty's 30 s idle timeout, so that the answer is ours and not a dropped connection.
     */
    static final Duration MOVE_WAIT = Duration.ofSeconds(15);
    static final Duration REBALANCE_WAIT = Duration.ofSeconds(20);

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile ClusterService cluster;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile MastershipService masterships;

    volatile Duration moveWait = MOVE_WAIT;
    volatile Duration rebalanceWait = REBALANCE_WAIT;

    @ApiDescription("This instance, its ZooKeeper connection and every live instance, with how many switches"
            + " each is master of")
    @GetMapping(path = PATH, produces = JSON)
    @OperationId("getCluster")
    public Cluster cluster() {
        Services s = services(true, false);
        return ClusterJson.cluster(s.cluster(), s.masterships() == null ? null : s.masterships().getMasterships());
    }

    @ApiDescription("Every switch an instance of the cluster is connected to: its master, the master's generation"
            + " id and the candidates, sorted by datapath id")
    @GetMapping(path = PATH + "/masterships", produces = JSON)
    @OperationId("listMasterships")
    public List<SwitchMastership> masterships() {
        return ClusterJson.masterships(services(false, true).masterships().getMasterships().values());
    }

    @ApiDescription("Moves a switch's mastership to another instance connected to it; answers the new mastership"
            + " once the switch has confirmed its new master")
    @PutMapping(path = PATH + "/masterships/{dpid}", consumes = JSON, produces = JSON)
    @OperationId("moveMastership")
    public SwitchMastership move(
            @ApiDescription("datapath id (00:00:00:00:00:00:00:01, 0x1 or 1)") @PathVariable String dpid,
            @ApiDescription("the instance to become master") @RequestBody(required = false) Move body) {
        Services s = services(true, true);
        DatapathId id = Requests.dpid(DPID, dpid);
        String master = master(body);
        MastershipService m = s.masterships();
        if (m.getMastership(id).isEmpty()) {
            throw unknownSwitch(id);
        }
        requireConnected(s.cluster(), "no mastership can be moved");
        CompletableFuture<Mastership> moving;
        try {
            moving = m.moveMastership(id, master);
        } catch (IllegalArgumentException e) {
            moving = CompletableFuture.failedFuture(e);
        }
        // refused: the switch left meanwhile (404), or the instance is not one connected to it (409)
        Mastership moved = await(moving, moveWait, "switch " + id + " to move to instance '" + abbreviate(master) + "'",
                refusal -> m.getMastership(id).isEmpty() ? unknownSwitch(id)
                        : Requests.conflict(MASTER, refusal.getMessage()));
        return ClusterJson.mastership(moved);
    }

    @ApiDescription("Spreads mastership evenly over the instances; answers every switch's mastership once the"
            + " moves are done")
    @PostMapping(path = PATH + "/rebalance", produces = JSON)
    @OperationId("rebalanceMasterships")
    public List<SwitchMastership> rebalance() {
        Services s = services(true, true);
        requireConnected(s.cluster(), "masterships cannot be rebalanced");
        MastershipService m = s.masterships();
        await(m.rebalance(), rebalanceWait, "the masterships to be rebalanced",
                refusal -> Requests.conflict(null, refusal.getMessage()));
        return ClusterJson.masterships(m.getMasterships().values());
    }

    @ApiDescription("Floodlight's role of this controller: ACTIVE while it takes part in the cluster, STANDBY"
            + " while its ZooKeeper session is down. Floodlight's POST, which set the role, is not served: the"
            + " cluster decides each switch's master (move one with PUT /api/v1/cluster/masterships/{dpid})")
    @GetMapping(path = "/wm/core/role/json", produces = JSON)
    @OperationId("floodlightGetRole")
    public Role floodlightRole() {
        Services s = services(true, false);
        return ClusterJson.role(s.cluster(), s.masterships() == null ? null : s.masterships().getMasterships());
    }

    /** The services as they are now, each read once; either may be null unless the operation needs it. */
    private record Services(ClusterService cluster, MastershipService masterships) {
    }

    /** 503 naming each service the operation needs that is not running. */
    private Services services(boolean needsCluster, boolean needsMasterships) {
        Services s = new Services(cluster, masterships);
        List<String> missing = new ArrayList<>();
        if (needsCluster && s.cluster() == null) {
            missing.add("cluster membership (ClusterService)");
        }
        if (needsMasterships && s.masterships() == null) {
            missing.add("mastership election (MastershipService)");
        }
        if (!missing.isEmpty()) {
            throw ApiException.unavailable("the cluster is not running: no " + String.join(" and no ", missing)
                    + "; the io.heliograph.cluster bundle provides " + (missing.size() == 1 ? "it" : "them"));
        }
        return s;
    }

    private static String master(Move body) {
        if (body == null) {
            throw Requests.badRequest(MASTER, "the body must be a JSON object {\"master\": \"<instance id>\"}");
        }
        if (body.master() == null || body.master().isBlank()) {
            throw Requests.badRequest(MASTER, "master is required: the id of the instance to become the switch's"
                    + " master");
        }
        return body.master();
    }

    private static void requireConnected(ClusterService cluster, String consequence) {
        if (!cluster.isConnected()) {
            throw ApiException.unavailable("this instance (" + cluster.getLocalInstance().id() + ") has no ZooKeeper"
                    + " session with " + cluster.getConnectString() + ": " + consequence + " until it reconnects");
        }
    }

    private static RuntimeException unknownSwitch(DatapathId id) {
        return Requests.notFound(DPID, "no instance of the cluster is connected to switch " + id);
    }

    /**
     * What the service's future gives, waited for at most {@code bound}: 504 past it (the change may still
     * complete), {@code refused} for the service's IllegalArgumentException, 502 for any other failure.
     */
    private static <T> T await(CompletableFuture<T> pending, Duration bound, String what,
            Function<IllegalArgumentException, RuntimeException> refused) {
        try {
            return pending.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new ApiException(HttpStatus.GATEWAY_TIMEOUT, null, "waited " + bound.toMillis() + " ms for " + what
                    + " in vain; it may still happen: GET " + PATH + "/masterships shows where it stands");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted waiting for " + what);
        } catch (CancellationException e) {
            throw Requests.switchFailed("waiting for " + what + ": the cluster gave up on it");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IllegalArgumentException refusal) {
                throw refused.apply(refusal);
            }
            if (cause instanceof TimeoutException) {
                throw new ApiException(HttpStatus.GATEWAY_TIMEOUT, null, "waiting for " + what + ": "
                        + cause.getMessage());
            }
            throw Requests.switchFailed("waiting for " + what + ": it failed: "
                    + (cause == null || cause.getMessage() == null ? String.valueOf(cause) : cause.getMessage()));
        }
    }

    /** Bad input is echoed back, but never at any length. */
    private static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 61) + "...";
    }
}
