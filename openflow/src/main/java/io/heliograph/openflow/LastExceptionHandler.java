package io.heliograph.openflow;

import java.io.IOException;

import javax.net.ssl.SSLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The last handler of every switch pipeline, so no exception reaches Netty's default handler. It
 * logs with the switch's name and closes only when the connection cannot go on: an I/O error (the
 * socket is broken) or a TLS failure. Anything else is logged (once per kind per switch) and the
 * connection stays up.
 */
@Sharable
final class LastExceptionHandler extends ChannelInboundHandlerAdapter {

    static final LastExceptionHandler INSTANCE = new LastExceptionHandler();

    private static final Logger LOG = LoggerFactory.getLogger(LastExceptionHandler.class);

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Object who = who(ctx);
        if (isTls(cause)) {
            if (cause.getCause() instanceof javax.net.ssl.SSLHandshakeException) {
                // already logged with the peer by SwitchConnection, from the handshake-completion event
                LOG.debug("TLS handshake failure with {}: {}", ctx.channel().remoteAddress(), rootMessage(cause));
                ctx.close();
                return;
            }
            LOG.warn("TLS failure with {}: {}; closing", ctx.channel().remoteAddress(), rootMessage(cause));
            ctx.close();
        } else if (cause instanceof java.nio.channels.ClosedChannelException) {
            LOG.debug("{}: write after close", who); // a write raced with the disconnect: nothing to do
        } else if (cause instanceof IOException) {
            if (ctx.channel().isOpen()) {
                LOG.info("{}: I/O error, closing: {}", who, cause.toString());
                ctx.close();
            } else {
                // the writes that were queued when the socket broke fail one by one: said once above
                LOG.debug("{}: I/O error after close: {}", who, cause.toString());
            }
        } else if (who instanceof SwitchConnection sw) {
            sw.unexpected(cause); // once per kind per switch: a bug triggered by every message must not flood the log
        } else {
            LOG.warn("{}: unexpected error; connection stays up", who, cause);
        }
    }

    private static Object who(ChannelHandlerContext ctx) {
        SwitchConnection sw = ctx.pipeline().get(SwitchConnection.class);
        return sw != null ? sw : "connection from " + ctx.channel().remoteAddress();
    }

    private static boolean isTls(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c.toString();
    }
}
