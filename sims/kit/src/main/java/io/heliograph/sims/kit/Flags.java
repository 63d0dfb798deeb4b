package io.heliograph.sims.kit;

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
}
