package io.heliograph.webui.events;

import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

/**
 * One client's open event stream: the frames published to it and not yet written (its backlog), written
 * with the servlet API's non-blocking output so that no thread ever waits for the client. A client that
 * reads slower than events come grows only its own backlog; past the bound it is dropped.
 */
final class EventStream implements WriteListener, AsyncListener {

    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final String client;
    private final BooleanSupplier credentialsStillValid;
    private final long maxBacklogBytes;
    private final Executor writer;
    private final Consumer<EventStream> whenEnded;

    private final Queue<byte[]> backlog = new ConcurrentLinkedQueue<>();
    private final AtomicLong backlogBytes = new AtomicLong();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set once the output is non-blocking: before that a write could block the writer thread. */
    private boolean listening;
    private boolean unflushed;

    EventStream(AsyncContext async, ServletOutputStream out, String client, BooleanSupplier credentialsStillValid,
            long maxBacklogBytes, Executor writer, Consumer<EventStream> whenEnded) {
        this.async = async;
        this.out = out;
        this.client = client;
        this.credentialsStillValid = credentialsStillValid;
        this.maxBacklogBytes = maxBacklogBytes;
        this.writer = writer;
        this.whenEnded = whenEnded;
    }

    /**
     * Appends {@code frame} to the backlog and has the writer send it. Returns false, appending nothing,
     * when the backlog would grow past its bound: the caller then drops the stream.
     */
    boolean offer(byte[] frame) {
        if (ended.get()) {
            return true;
        }
        if (backlogBytes.addAndGet(frame.length) > maxBacklogBytes) {
            backlogBytes.addAndGet(-frame.length);
            return false;
        }
        backlog.add(frame);
        if (drainQueued.compareAndSet(false, true)) {
            onWriter(() -> {
                drainQueued.set(false);
                drain();
            });
        }
        return true;
    }

    /** Whether the credentials the stream was opened with are still valid (not revoked, not expired). */
    boolean credentialsStillValid() {
        return credentialsStillValid.getAsBoolean();
    }

    /** Bytes published to this stream and not yet handed to the connection. */
    long backlogBytes() {
        return backlogBytes.get();
    }

    boolean isEnded() {
        return ended.get();
    }

    String client() {
        return client;
    }

    /** The response is in non-blocking mode (its write listener is set): frames queued so far may go out. */
    void listening() {
        synchronized (this) {
            listening = true;
        }
        drain();
    }

    @Override
    public void onWritePossible() {
        synchronized (this) {
            listening = true;
        }
        drain();
    }

    /** Writes while the connection takes more without waiting; the container calls back when it does again. */
    private synchronized void drain() {
        if (!listening || closed.get()) {
            return;
        }
        try {
            while (out.isReady()) {
                byte[] frame = backlog.poll();
                if (frame != null) {
                    backlogBytes.addAndGet(-frame.length);
                    out.write(frame);
                    unflushed = true;
                } else if (unflushed) {
                    unflushed = false;
                    out.flush();
                } else {
                    return;
                }
            }
        } catch (IOException | IllegalStateException e) {
            LOG.debug("event stream of {}: write failed: {}", client, e.toString());
            end(true);
        }
    }

    /**
     * Ends the stream: once only, releasing its backlog at once. {@code abort} closes the connection, for a
     * client that is not reading (a normal completion would wait for its pending write); otherwise the
     * response completes and the client sees the end of the stream.
     */
    void end(boolean abort) {
        if (release()) {
            close(abort);
        }
    }

    /** As {@link #end}, closing on the writer thread: the caller (a publisher) never waits for the stream's lock. */
    void endLater(boolean abort) {
        if (release() && !onWriter(() -> close(abort))) {
            close(abort);
        }
    }

    /** Stops taking frames and forgets those queued; true for the one call that does it. */
    private boolean release() {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        backlog.clear();
        backlogBytes.set(0);
        whenEnded.accept(this);
        return true;
    }

    private synchronized void close(boolean abort) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            if (abort) {
                ServletContextRequest.getServletContextRequest(async.getRequest()).getServletChannel().getEndPoint()
                        .close();
            } else {
                async.complete();
            }
        } catch (RuntimeException e) {
            // the request is over already (the client left, the server stopped): nothing more to end
            LOG.debug("event stream of {}: ending: {}", client, e.toString());
        }
    }

    private boolean onWriter(Runnable task) {
        try {
            writer.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false; // the streams are closing; close() ends every stream itself
        }
    }

    @Override
    public void onError(Throwable failure) {
        LOG.debug("event stream of {} failed: {}", client, failure.toString());
        end(true);
    }

    @Override
    public void onComplete(AsyncEvent event) {
        // completed by end(), or by the container (the server stops): either way it is over
        closed.set(true);
        release();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        end(false); // streams have no timeout; should the container still time one out, complete it
    }

    @Override
    public void onError(AsyncEvent event) {
        onError(event.getThrowable() != null ? event.getThrowable() : new IOException("the request failed"));
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // one asynchronous cycle per stream: nothing to renew
    }
}
