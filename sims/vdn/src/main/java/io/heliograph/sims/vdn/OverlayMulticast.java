package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.TreeOptimiser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * OM, Overlay Multicast (§4.7): VDN without coordination across channels. Each channel (a video, with
 * all the bitrates requested of it) gets its own best trees from the same optimiser, given only that
 * channel's requests and the capacity the channels before it left; the channels go in the order of
 * their first request in the window ([UNSPEC→REC] request-arrival order), so early channels can take
 * the links later ones needed.
 */
public final class OverlayMulticast implements TreeOptimiser {

    private final TreeOptimiser perChannel;

    public OverlayMulticast(TreeOptimiser perChannel) {
        this.perChannel = Objects.requireNonNull(perChannel, "perChannel");
    }

    @Override
    public String name() {
        return "OM";
    }

    @Override
    public Distribution optimise(Problem problem) {
        long start = System.nanoTime();
        Map<String, List<Request>> channels = new LinkedHashMap<>();
        for (Request request : problem.requests()) {
            channels.computeIfAbsent(request.object().video(), v -> new ArrayList<>()).add(request);
        }
        Topology topology = problem.topology();
        long[] residual = topology.links().stream().mapToLong(Link::capacityKbps).toArray();
        Map<String, BitSet> serves = new LinkedHashMap<>();
        for (List<Request> channel : channels.values()) {
            List<Link> left = new ArrayList<>();
            for (Link link : topology.links()) {
                left.add(new Link(link.index(), link.from(), link.to(), residual[link.index()], link.cost()));
            }
            Problem alone = new Problem(topology.withLinks(left), channel, problem.weights());
            Distribution trees = perChannel.optimise(alone);
            for (String key : alone.objects().keySet()) {
                BitSet links = trees.links(key);
                int bitrate = alone.objects().get(key).bitrateKbps();
                links.stream().forEach(i -> residual[i] = Math.max(0, residual[i] - bitrate));
                serves.put(key, links);
            }
        }
        return new Distribution(problem, serves, name(), Double.NaN, Duration.ofNanos(System.nanoTime() - start));
    }
}
