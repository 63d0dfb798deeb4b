package io.heliograph.webui.console;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Converter;

/**
 * Runs one console command line for a remote operator, as the local console ({@code --console}) would:
 * in a session of the framework's own shell (Gogo) that has run the console's login script first (so
 * {@code help} is Heliograph's and unscoped names look in the same scopes), with no input, its output
 * and its result's text captured. Bounded: at most {@link #MAX_RUNNING} lines at once, each for at most
 * its time limit and {@link #MAX_OUTPUT} bytes of output; a session lives for one line.
 */
public final class RemoteConsole implements AutoCloseable {

    /** Lines run at once; another one is refused until one ends. */
    public static final int MAX_RUNNING = 4;
    /** Output kept of one line; the rest is cut, and the result says so. */
    public static final int MAX_OUTPUT = 1 << 20;

    private final String loginScript;
    private final Duration timeLimit;
    private final Semaphore running = new Semaphore(MAX_RUNNING);
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService executor = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "heliograph-remote-console-" + threads.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param loginScript the console's login script (etc/gosh_profile), run in each session before the
     *                    line; empty for none
     */
    public RemoteConsole(String loginScript, Duration timeLimit) {
        this.loginScript = loginScript;
        this.timeLimit = timeLimit;
    }

    /** What one line did: its output (printed text, then its result's), and the error that ended it, or null. */
    public record Outcome(String output, String error) {
    }

    /** Thrown when {@link #MAX_RUNNING} lines are running already. */
    public static final class BusyException extends Exception {
        private static final long serialVersionUID = 1L;

        BusyException() {
            super(MAX_RUNNING + " console commands are running already; try again when one has ended");
        }
    }

    /**
     * Runs the line in a new session of the shell and answers what it did; a command that fails is an
     * outcome with an error, not an exception.
     */
    public Outcome run(CommandProcessor shell, String line) throws BusyException {
        if (!running.tryAcquire()) {
            throw new BusyException();
        }
        try {
            CappedOutput output = new CappedOutput(MAX_OUTPUT);
            CommandSession session = shell.createSession(new ByteArrayInputStream(new byte[0]), output, output);
            Future<String> result = executor.submit(() -> execute(session, line));
            try {
                String text = result.get(timeLimit.toMillis(), TimeUnit.MILLISECONDS);
                output.append(text);
                return new Outcome(output.text(), null);
            } catch (TimeoutException e) {
                result.cancel(true);
                return new Outcome(output.text(), "the command did not end within " + timeLimit.toSeconds()
                        + " s and was interrupted");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                return new Outcome(output.text(), cause.getMessage() == null ? cause.toString() : cause.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                result.cancel(true);
                return new Outcome(output.text(), "interrupted");
            } finally {
                session.close();
            }
        } finally {
            running.release();
        }
    }

    private String execute(CommandSession session, String line) throws Exception {
        if (!loginScript.isBlank()) {
            session.execute(loginScript);
        }
        Object result = session.execute(line);
        return result == null ? "" : session.format(result, Converter.INSPECT).toString();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** The session's output, up to a limit; what comes after it is dropped and the text says so. */
    static final class CappedOutput extends OutputStream {
        private final int limit;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private boolean cut;
        private int last = '\n';

        CappedOutput(int limit) {
            this.limit = limit;
        }

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            int room = limit - bytes.size();
            if (len > room) {
                cut = true;
            }
            int kept = Math.max(0, Math.min(len, room));
            bytes.write(b, off, kept);
            if (kept > 0) {
                last = b[off + kept - 1];
            }
        }

        synchronized void append(String text) {
            if (text.isEmpty()) {
                return;
            }
            if (last != '\n') {
                write('\n');
            }
            byte[] encoded = text.getBytes(StandardCharsets.UTF_8);
            write(encoded, 0, encoded.length);
        }

        synchronized String text() {
            String text = bytes.toString(StandardCharsets.UTF_8);
            return cut ? text + "\n[output cut at " + limit + " bytes]" : text;
        }
    }
}
