package io.heliograph.stats.internal;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFStatsType;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.testing.FakeSwitch;

/**
 * The shared fake switch answering statistics requests as the test scripted each type: with reply
 * parts (each request gets the parts the script builds for it), never (left pending), with an
 * OpenFlow error, or with the core's timeout (a switch that never answers, the core having given
 * up). Unscripted types stay pending.
 */
final class FakeStatsSwitch extends FakeSwitch {

    private final Map<OFStatsType, Function<OFFactory, List<? extends OFStatsReply>>> scripts =
            new EnumMap<>(OFStatsType.class);
    private final Set<OFStatsType> refusals = EnumSet.noneOf(OFStatsType.class);
    private final Set<OFStatsType> unanswered = EnumSet.noneOf(OFStatsType.class);
    final List<OFStatsRequest<?>> requests = new CopyOnWriteArrayList<>();
    final List<CompletableFuture<?>> pending = new CopyOnWriteArrayList<>();

    FakeStatsSwitch(long dpid, OFVersion version) {
        super(dpid, version);
        answerWith(this::answer);
    }

    /** Answers every request of this type with the parts {@code parts} builds at that moment. */
    synchronized FakeStatsSwitch answer(OFStatsType type, Function<OFFactory, List<? extends OFStatsReply>> parts) {
        scripts.put(type, parts);
        refusals.remove(type);
        unanswered.remove(type);
        return this;
    }

    /** Never answers this type: each request fails as the core fails it after its request timeout. */
    synchronized FakeStatsSwitch timeOut(OFStatsType type) {
        scripts.remove(type);
        refusals.remove(type);
        unanswered.add(type);
        return this;
    }

    /** Answers every request of this type with an OpenFlow error. */
    synchronized FakeStatsSwitch refuse(OFStatsType type) {
        scripts.remove(type);
        unanswered.remove(type);
        refusals.add(type);
        return this;
    }

    /** Requests of this type so far. */
    long requestCount(OFStatsType type) {
        return requests.stream().filter(r -> r.getStatsType() == type).count();
    }

    private synchronized CompletableFuture<List<OFMessage>> answer(OFMessage message) {
        if (!(message instanceof OFStatsRequest<?> request)) {
            throw new UnsupportedOperationException("statistics are all this switch answers, not " + message.getType());
        }
        requests.add(request);
        if (refusals.contains(request.getStatsType())) {
            return CompletableFuture.failedFuture(new OFErrorException(getFactory().errorMsgs()
                    .buildBadRequestErrorMsg().setCode(OFBadRequestCode.BAD_STAT).build()));
        }
        if (unanswered.contains(request.getStatsType())) {
            return CompletableFuture.failedFuture(new TimeoutException(request.getType() + " xid " + request.getXid()
                    + " to " + this + " unanswered after 10000 ms"));
        }
        if (scripts.containsKey(request.getStatsType())) {
            return CompletableFuture.completedFuture(List.copyOf(scripts.get(request.getStatsType()).apply(getFactory())));
        }
        CompletableFuture<List<OFMessage>> future = new CompletableFuture<>();
        pending.add(future);
        return future;
    }
}
