package io.heliograph.vdn.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One decision's input (§4.5): the topology with this period's capacities and costs, the requests of
 * the client groups, and the operator's weights. The objects are those requested, each once (the same
 * key with two priorities is refused), in the order first requested. A client group asks for an object
 * at most once.
 */
public final class Problem {

    private final Topology topology;
    private final List<Request> requests;
    private final Map<String, VideoObject> objects;
    private final Weights weights;

    public Problem(Topology topology, List<Request> requests, Weights weights) {
        this.topology = Objects.requireNonNull(topology, "topology");
        this.weights = Objects.requireNonNull(weights, "weights");
        this.requests = List.copyOf(requests);
        Map<String, VideoObject> byKey = new LinkedHashMap<>();
        Map<String, Request> seen = new HashMap<>();
        for (Request request : this.requests) {
            Node group = topology.node(request.clientGroup()).orElseThrow(() -> new IllegalArgumentException(
                    "request for " + request.object().key() + ": no client group " + request.clientGroup()));
            if (group.tier() != Tier.CLIENT_GROUP) {
                throw new IllegalArgumentException("request for " + request.object().key() + " from "
                        + request.clientGroup() + ", which is a " + group.tier() + ", not a client group");
            }
            VideoObject known = byKey.putIfAbsent(request.object().key(), request.object());
            if (known != null && !known.equals(request.object())) {
                throw new IllegalArgumentException("object " + known.key() + " is requested with priorities "
                        + known.priority() + " and " + request.object().priority());
            }
            if (seen.putIfAbsent(request.clientGroup() + " " + request.object().key(), request) != null) {
                throw new IllegalArgumentException("client group " + request.clientGroup() + " requests "
                        + request.object().key() + " twice");
            }
        }
        this.objects = Collections.unmodifiableMap(byKey);
    }

    public Topology topology() {
        return topology;
    }

    public List<Request> requests() {
        return requests;
    }

    /** Every object requested, by key, in the order first requested. */
    public Map<String, VideoObject> objects() {
        return objects;
    }

    public Weights weights() {
        return weights;
    }

    /** The requests for each object, by key. */
    public Map<String, List<Request>> requestsByObject() {
        Map<String, List<Request>> byObject = new LinkedHashMap<>();
        for (Request request : requests) {
            byObject.computeIfAbsent(request.object().key(), k -> new ArrayList<>()).add(request);
        }
        return byObject;
    }

    @Override
    public String toString() {
        return "Problem(" + topology + ", " + objects.size() + " objects, " + requests.size() + " requests)";
    }
}
