/**
 * The OpenFlow channel layer: a Netty server that speaks OpenFlow 1.0, 1.3, 1.4 and 1.5 (Loxi)
 * and publishes connected switches through {@link io.heliograph.core.SwitchService}.
 *
 * <p>Each switch connection's pipeline, in order:
 * <pre>
 *   [tls]    SslHandler, on the TLS listener only
 *   frame    OFFrameDecoder      cuts messages by the header's length; closes only on length &lt; 8
 *   decode   OFMessageDecoder    Loxi message, HelloMessage, or UndecodableMessage (never throws)
 *   encode   OFMessageEncoder    Loxi message straight into a pooled buffer
 *   idle     IdleStateHandler    read silence triggers the ECHO keepalive
 *   switch   SwitchConnection    handshake, echo, xid futures, port table, pipeline dispatch; the OFSwitch
 *   errors   LastExceptionHandler  logs with the switch; closes only on I/O or TLS failure
 * </pre>
 * A connection lives on one event loop; the loop that decodes a message also runs the listener
 * pipeline for it (run-to-completion), and {@link io.heliograph.openflow.WriteBatcher} coalesces
 * the writes. {@link io.heliograph.openflow.OpenFlowServer} and its collaborators are plain Java;
 * {@link io.heliograph.openflow.OpenFlowController} is the Declarative Services shell.
 */
package io.heliograph.openflow;
