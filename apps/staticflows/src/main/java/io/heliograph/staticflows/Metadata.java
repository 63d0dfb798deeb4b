package io.heliograph.staticflows;

/** The operand of a write-metadata instruction: the bits of {@code value} selected by {@code mask}. */
public record Metadata(long value, long mask) {

    public static Metadata parse(String text) {
        String[] parts = text.trim().split("/", 2);
        try {
            long value = unsigned(parts[0].trim());
            long mask = parts.length == 2 ? unsigned(parts[1].trim()) : -1L;
            return new Metadata(value, mask);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("metadata '" + text + "' is not value[/mask] (e.g. 0x10/0xff)");
        }
    }

    private static long unsigned(String s) {
        return Long.parseUnsignedLong(strip(s), radix(s));
    }

    private static String strip(String s) {
        return s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
    }

    private static int radix(String s) {
        return s.startsWith("0x") || s.startsWith("0X") ? 16 : 10;
    }

    @Override
    public String toString() {
        return "0x" + Long.toHexString(value) + "/0x" + Long.toHexString(mask);
    }
}
