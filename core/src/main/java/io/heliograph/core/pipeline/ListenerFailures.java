package io.heliograph.core.pipeline;

import org.projectfloodlight.openflow.protocol.OFMessage;

import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;

/** Told when a listener throws while handling a message; the pipeline then goes on without it. */
@FunctionalInterface
public interface ListenerFailures {

    void listenerFailed(OFSwitch sw, OFMessage message, MessageListener listener, Throwable failure);
}
