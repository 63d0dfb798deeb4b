package io.heliograph.openflow;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFHelloFailedCode;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFErrorCauseData;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.SwitchInitializer;

/**
 * The controller side of the OpenFlow handshake, one per connection, on the switch's loop. It waits
 * only for what OpenFlow requires: HELLO (version negotiation) - FEATURES - the duplicate-datapath
 * check ({@link SwitchRegistry#admit}) - on 1.3+ the port description (on 1.0 the ports come with
 * FEATURES). The switch's description (DESC) is asked for with the port description and never waited
 * for: it fills in when it comes ({@link #describe}). Then SET_CONFIG(miss_send_len), optional flow
 * clearing and, on 1.3+, a table-miss flow to the controller are written, with a BARRIER after them
 * that is not waited for either: written first, they reach the switch before anything an app sends.
 * Last the initializers run in name order (they decide, they do not wait for the switch), and the
 * switch is announced. All of it must finish within the handshake timeout, or the switch is
 * disconnected with a log line naming the step it was stuck in.
 */
final class Handshake {

    private static final Logger LOG = LoggerFactory.getLogger(Handshake.class);

    /** Tries of the description request before the switch is left without one. */
    static final int DESCRIPTION_TRIES = 4;
    /** The pause before the second try; doubled before each later one. */
    static final long DESCRIPTION_BACKOFF_MS = 1_000;

    private final SwitchConnection sw;
    private final OpenFlowSettings settings;
    private volatile String step = "HELLO";
    private ScheduledFuture<?> timer;
    private boolean helloReceived;
    private boolean finished;

    Handshake(SwitchConnection sw, OpenFlowSettings settings) {
        this.sw = sw;
        this.settings = settings;
    }

    String step() {
        return step;
    }

    boolean isFinished() {
        return finished;
    }

    /** Connection is up: say HELLO with every version we offer, and start the clock. */
    void start() {
        timer = sw.loop().schedule(this::timedOut, settings.handshakeTimeout().toMillis(), TimeUnit.MILLISECONDS);
        OFFactory highest = OFFactory(settings.versions().last());
        sw.writeNow(helloFor(highest));
    }

    private static OFFactory OFFactory(OFVersion v) {
        return org.projectfloodlight.openflow.protocol.OFFactories.getFactory(v);
    }

    private OFMessage helloFor(OFFactory f) {
        if (f.getVersion() == OFVersion.OF_10) {
            return f.buildHello().setXid(sw.nextXid()).build(); // 1.0 has no hello elements
        }
        long bits = 0;
        for (OFVersion v : settings.versions()) {
            bits |= 1L << v.getWireVersion();
        }
        return f.buildHello().setXid(sw.nextXid())
                .setElements(List.of(f.buildHelloElemVersionbitmap().setBitmaps(List.of(U32.of(bits))).build()))
                .build();
    }

    /** The switch's HELLO: pick the version, or refuse with HELLO_FAILED. */
    void onHello(HelloMessage hello) {
        if (helloReceived) {
            return; // a repeated HELLO changes nothing
        }
        helloReceived = true;
        Optional<OFVersion> agreed = OpenFlowVersions.negotiate(settings.versions(), hello);
        if (agreed.isEmpty()) {
            String theirs = hello.bitmapVersions() != null ? "bitmap " + hello.bitmapVersions()
                    : "header version " + hello.wireVersion();
            String text = "no common OpenFlow version: we offer " + names() + ", switch offers wire versions " + theirs;
            LOG.warn("{}: version negotiation failed ({}); disconnecting", sw, text);
            OFFactory f = OFFactory(settings.versions().first());
            sw.writeNow(f.errorMsgs().buildHelloFailedErrorMsg().setXid(hello.xid())
                    .setCode(OFHelloFailedCode.INCOMPATIBLE)
                    .setData(OFErrorCauseData.of(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII), f.getVersion()))
                    .build());
            finish();
            sw.closeAfterFlush();
            return;
        }
        sw.setVersion(agreed.get());
        LOG.debug("{}: negotiated OpenFlow {}", sw, OpenFlowVersions.name(agreed.get()));
        features();
    }

    private String names() {
        List<String> n = new ArrayList<>();
        settings.versions().forEach(v -> n.add(OpenFlowVersions.name(v)));
        return String.join(",", n);
    }

    private void features() {
        OFFactory f = sw.getFactory();
        step = "FEATURES";
        sw.<OFFeaturesReply>requestInternal(f.buildFeaturesRequest().build())
                .thenCompose(features -> {
                    sw.setFeatures(features);
                    step = "DUPLICATE_DATAPATH";
                    return sw.registry().admit(sw).thenApply(v -> features);
                })
                .thenCompose(features -> {
                    describe(f, 1); // asked for now, with the port description; never waited for
                    if (f.getVersion() == OFVersion.OF_10) {
                        sw.setPorts(features.getPorts());
                        return CompletableFuture.completedFuture(null);
                    }
                    step = "PORT_DESC";
                    return sw.requestStatisticsInternal(f.buildPortDescStatsRequest().build()).thenAccept(parts -> {
                        List<OFPortDesc> ports = new ArrayList<>();
                        for (OFPortDescStatsReply part : parts) {
                            ports.addAll(part.getEntries());
                        }
                        sw.setPorts(ports);
                    });
                })
                .thenCompose(v -> {
                    if (finished) {
                        return CompletableFuture.completedFuture(null); // timed out meanwhile: nothing more to do
                    }
                    configure(f);
                    return runInitializers(sw.registry().initializersInOrder().iterator());
                })
                .whenComplete((v, e) -> {
                    if (e != null) {
                        failed(e);
                    } else if (!finished) {
                        finish();
                        sw.registry().announce(sw);
                    }
                });
    }

    /**
     * What the switch must have before any app writes to it, written in this order: SET_CONFIG, the
     * flow clearing, the table-miss flow, then a BARRIER that makes the switch finish them before
     * what follows. Nothing here is waited for: a switch that ignores the barrier is served anyway.
     */
    private void configure(OFFactory f) {
        step = "CONFIG";
        sw.writeNow(f.buildSetConfig().setMissSendLen(settings.missSendLen()).build());
        // In a cluster the switch may hold another instance's state: its master reconciles instead.
        if (settings.clearFlowsOnConnect() && !sw.registry().isClustered()) {
            clearFlows(f);
        }
        installTableMiss(f);
        sw.<OFBarrierReply>requestInternal(f.buildBarrierRequest().build()).whenComplete((reply, e) -> {
            if (e != null) {
                LOG.debug("{}: no answer to the handshake's BARRIER ({}); served all the same", sw, e.toString());
            }
        });
    }

    /**
     * Asks for the switch's description (try {@code attempt} of {@link #DESCRIPTION_TRIES}), and
     * records it whenever it comes. Unanswered, it is asked again after a pause that doubles each
     * time; refused (an OpenFlow error) or unanswered every time, the switch is served without one.
     */
    private void describe(OFFactory f, int attempt) {
        sw.requestStatisticsInternal(f.buildDescStatsRequest().build()).whenComplete((parts, e) -> {
            if (e == null) {
                if (!parts.isEmpty()) {
                    sw.setDescription(parts.get(0));
                    if (attempt > 1 || finished) {
                        LOG.debug("{}: description arrived after the handshake (try {})", sw, attempt);
                    }
                }
                return;
            }
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (!sw.isConnected()) {
                return;
            }
            if (!(cause instanceof TimeoutException) || attempt >= DESCRIPTION_TRIES) {
                LOG.info("{}: no description from the switch ({} after {} tr{}); it is served without one", sw,
                        cause.toString(), attempt, attempt == 1 ? "y" : "ies");
                return;
            }
            long pause = DESCRIPTION_BACKOFF_MS << (attempt - 1);
            sw.loop().schedule(() -> {
                if (sw.isConnected()) {
                    describe(f, attempt + 1);
                }
            }, pause, TimeUnit.MILLISECONDS);
        });
    }

    private void clearFlows(OFFactory f) {
        if (f.getVersion() == OFVersion.OF_10) {
            sw.writeNow(f.buildFlowDelete().setOutPort(OFPort.ANY).build());
            return;
        }
        sw.writeNow(f.buildFlowDelete().setTableId(TableId.ALL).setOutPort(OFPort.ANY).setOutGroup(OFGroup.ANY).build());
    }

    /**
     * From 1.3 on a switch drops table misses unless told otherwise: send them to us, unbuffered.
     * Whether or not the flows were cleared: a switch keeping its flows may never have had this one.
     * Adding it again replaces it in place (same match and priority), counters kept.
     */
    private void installTableMiss(OFFactory f) {
        if (f.getVersion() == OFVersion.OF_10) {
            return;
        }
        sw.writeNow(f.buildFlowAdd()
                .setTableId(TableId.of(0))
                .setPriority(0)
                .setBufferId(OFBufferId.NO_BUFFER)
                .setMatch(f.buildMatch().build())
                .setInstructions(List.of(f.instructions().applyActions(
                        List.of(f.actions().output(OFPort.CONTROLLER, 0xffff)))))
                .build());
    }

    private CompletionStage<Void> runInitializers(Iterator<SwitchInitializer> next) {
        if (!next.hasNext() || finished) {
            return CompletableFuture.completedFuture(null);
        }
        SwitchInitializer initializer = next.next();
        step = "initializer " + initializer.getName();
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            // Initializers may complete on any thread; come back to the switch's loop for the next step.
            initializer.initialize(sw).whenComplete((v, e) -> sw.runOnLoop(() -> {
                if (e != null) {
                    done.completeExceptionally(e);
                } else {
                    done.complete(null);
                }
            }));
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
        }
        return done.thenCompose(v -> runInitializers(next));
    }

    private void failed(Throwable e) {
        if (finished) {
            return;
        }
        finish();
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof SwitchRegistry.Refused refused) {
            sw.disconnect(refused.getMessage()); // logged by the registry, which knows both connections
        } else if (sw.isConnected()) {
            LOG.warn("{}: handshake failed in step {}: {}; disconnecting", sw, step, cause.toString());
            sw.disconnect("handshake failed in step " + step);
        } else {
            LOG.info("{}: connection lost during handshake step {}", sw, step);
        }
    }

    private void timedOut() {
        if (finished) {
            return;
        }
        finish();
        LOG.warn("{}: handshake timed out after {} ms in step {}; disconnecting", sw,
                settings.handshakeTimeout().toMillis(), step);
        sw.disconnect("handshake timed out in step " + step);
    }

    /** The connection is gone; stop the clock. */
    void finish() {
        finished = true;
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
