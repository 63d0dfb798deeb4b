package io.heliograph.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -jar heliograph-bench.jar [cbench flags]} runs the load generator;
 * {@code java -jar heliograph-bench.jar --responder [-p PORT]} runs the trivial responder until
 * it is killed; {@code java -jar heliograph-bench.jar --topology SPEC [flags]} emulates a fabric
 * of switches for link discovery ({@link EmulatedFabric}). Exit status: 0 done, 1 the run failed
 * (connection, protocol), 2 bad command line.
 */
public final class Main {

    static final String RESPONDER = "--responder";

    private Main() {
    }

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> list = Arrays.asList(args);
        if (list.contains(RESPONDER)) {
            return responder(list.stream().filter(a -> !a.equals(RESPONDER)).toArray(String[]::new), err);
        }
        if (list.stream().anyMatch(a -> a.equals(FabricOptions.TOPOLOGY) || a.startsWith(FabricOptions.TOPOLOGY + "="))) {
            return fabric(args, out, err);
        }
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (BenchOptions.UsageException e) {
            err.println("heliograph bench: " + e.getMessage());
            err.println("Try -h.");
            return 2;
        }
        if (options.help()) {
            out.println(BenchOptions.USAGE);
            return 0;
        }
        try (LoadGenerator generator = new LoadGenerator(options, out, err)) {
            generator.run();
            return 0;
        } catch (LoadGenerator.BenchException e) {
            err.println("heliograph bench: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("heliograph bench: " + e);
            return 1;
        }
    }

    private static int fabric(String[] args, PrintStream out, PrintStream err) {
        FabricOptions options;
        try {
            options = FabricOptions.parse(args);
        } catch (BenchOptions.UsageException e) {
            err.println("heliograph bench --topology: " + e.getMessage());
            err.println("Try --topology fattree:4 -h.");
            return 2;
        }
        if (options.help()) {
            out.println(FabricOptions.USAGE);
            return 0;
        }
        try (EmulatedFabric fabric = new EmulatedFabric(options, out)) {
            if (options.health() != null) {
                fabric.watch(ControllerHealth.start(options.health(), options.fabric().switches()));
            }
            fabric.run();
            return 0;
        } catch (LoadGenerator.BenchException e) {
            out.flush();
            err.println("heliograph bench --topology: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            out.flush();
            err.println("heliograph bench --topology: " + e);
            return 1;
        }
    }

    private static int responder(String[] args, PrintStream err) {
        int port;
        try {
            port = responderPort(args);
        } catch (BenchOptions.UsageException e) {
            err.println("heliograph bench --responder: " + e.getMessage());
            return 2;
        }
        if (port < 0) {
            err.println("Usage: heliograph bench --responder [-p PORT]   (default port " + BenchOptions.DEFAULT_PORT
                    + ")\nAnswers every PACKET_IN with one fixed FLOW_MOD, until killed.");
            return 0;
        }
        try (TrivialResponder responder = TrivialResponder.listen(port, err)) {
            err.println("heliograph bench responder: listening on port " + responder.port()
                    + "; every PACKET_IN gets one FLOW_MOD");
            responder.run();
            return 0;
        } catch (IOException e) {
            err.println("heliograph bench --responder: " + e.getMessage());
            return 1;
        }
    }

    /** The responder's port from {@code -p N}; -1 for {@code -h}. */
    static int responderPort(String[] args) throws BenchOptions.UsageException {
        int port = BenchOptions.DEFAULT_PORT;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    return -1;
                }
                case "-p", "--port" -> {
                    if (i + 1 >= args.length) {
                        throw new BenchOptions.UsageException(args[i] + " needs a value");
                    }
                    port = BenchOptions.parse("-p", args[++i]).port();
                }
                default -> throw new BenchOptions.UsageException("unknown flag '" + args[i]
                        + "' (the responder takes only -p PORT)");
            }
        }
        return port;
    }
}
