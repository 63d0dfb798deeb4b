package io.heliograph.sims.kit;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Reading a simulator's command line: the value after a flag, a whole number from 1, a seed. Each
 * refuses with an {@link IllegalArgumentException} whose message names the flag and what was given, the
 * line a simulator prints before its usage.
 */
public final class Flags {

    private Flags() {
    }

    /** {@code args[i]}, the value of {@code flag}. */
    public static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }

    /** A whole number from 1. */
    public static int positive(String text, String flag) {
        try {
            int value = Integer.parseInt(text);
            if (value < 1) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a whole number from 1, not '" + text + "'");
        }
    }

    /** Any whole number (a seed). */
    public static long whole(String text, String flag) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a whole number, not '" + text + "'");
        }
    }

    /**
     * A simulator's command line, read by {@code parse}: empty after printing the usage on stdout when
     * it asks for help; a mistake prints {@code tool: message} and the usage on stderr and exits 2.
     */
    public static <T> Optional<T> read(String tool, String[] args, Function<String[], T> parse, Predicate<T> help,
            Consumer<PrintStream> usage) {
        T options;
        try {
            options = parse.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println(tool + ": " + e.getMessage());
            usage.accept(System.err);
            System.exit(2);
            return Optional.empty();
        }
        if (help.test(options)) {
            usage.accept(System.out);
            return Optional.empty();
        }
        return Optional.of(options);
    }

    /** {@code given}, when it is one of {@code names} or "all"; {@code kind} names what is chosen in the messages. */
    public static String oneOrAll(String kind, String given, List<String> names) {
        if (given == null) {
            throw new IllegalArgumentException("which " + kind + "? one of " + String.join(", ", names) + ", all");
        }
        if (!given.equals("all") && !names.contains(given)) {
            throw new IllegalArgumentException("no " + kind + " '" + given + "': one of " + String.join(", ", names)
                    + ", all");
        }
        return given;
    }
}
