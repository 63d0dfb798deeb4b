package io.heliograph.core.spi;

import java.util.List;

import org.projectfloodlight.openflow.protocol.OFMessage;

import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;

/**
 * The listener pipelines as the OpenFlow layer drives them: it hands over every message a switch
 * sends. Only the OpenFlow layer calls this; apps and the operator API see
 * {@link io.heliograph.core.PipelineService}, which is the same pipelines' order and contents.
 */
public interface PipelineDispatch {

    /**
     * Runs a message through its type's pipeline on the calling thread (the switch's I/O thread).
     * A listener that throws is logged with the switch and message and skipped.
     */
    void dispatch(OFSwitch sw, OFMessage message);

    /**
     * Lets the listeners of the read's message types {@linkplain MessageListener#prepare prepare} for
     * it: called with the messages of one read before the first of them is dispatched.
     */
    void prepare(OFSwitch sw, List<OFMessage> read);
}
