package io.heliograph.testbed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Mutations of one encoded OpenFlow message. All but the {@linkplain Kind#breaksFraming framing
 * breakers} keep the header's length equal to the bytes sent, so the stream can still be cut into
 * messages after them and the connection must live on; the others leave a stream that cannot be framed
 * (a length under 8) or that is framed wrongly from there on (a length beyond the bytes sent, a message
 * cut off as the connection ends).
 */
public final class OpenFlowMutations {

    public enum Kind {
        /** Unchanged. */
        VALID,
        /** One to four bits flipped anywhere but in the header's length. */
        BIT_FLIP,
        /** The header's length made smaller, the message cut to it. */
        LENGTH_SHORT,
        /** The header's length made larger, the message padded to it with random bytes. */
        LENGTH_LONG,
        /** A nested length (of a TLV, OXM, action, instruction, bucket, band, port or property) set to 0. */
        NESTED_LENGTH_ZERO,
        /** A nested length made smaller. */
        NESTED_LENGTH_SHORT,
        /** A nested length made larger (up to 0xffff). */
        NESTED_LENGTH_LONG,
        /** The header's version byte changed. */
        VERSION_BYTE,
        /** The header's type byte changed. */
        TYPE_BYTE,
        /** The header's length is 0: nothing after it can be framed. */
        LENGTH_ZERO(true),
        /** The header's length is 1 to 7: nothing after it can be framed. */
        LENGTH_UNDER_HEADER(true),
        /** The header claims more bytes than the message has: what follows is framed from the wrong place. */
        LENGTH_OVERRUN(true),
        /** The message is cut off and the connection ends. */
        TRUNCATED_STREAM(true);

        private final boolean breaksFraming;

        Kind() {
            this(false);
        }

        Kind(boolean breaksFraming) {
            this.breaksFraming = breaksFraming;
        }

        public boolean breaksFraming() {
            return breaksFraming;
        }
    }

    /** What was done and the bytes to send. */
    public record Mutant(Kind kind, byte[] bytes) {
    }

    private OpenFlowMutations() {
    }

    /** {@code message} mutated as {@code kind} says; a nested-length kind falls back to a bit flip when the message has no nested length. */
    public static Mutant mutate(byte[] message, Kind kind, Random random) {
        byte[] m = message.clone();
        int length = m.length;
        switch (kind) {
            case VALID:
                return new Mutant(kind, m);
            case BIT_FLIP: {
                int flips = 1 + random.nextInt(4);
                for (int i = 0; i < flips; i++) {
                    int at = random.nextInt(length - 2);
                    at = at >= 2 ? at + 2 : at;   // never bytes 2-3, the header's length
                    m[at] ^= (byte) (1 << random.nextInt(8));
                }
                return new Mutant(kind, m);
            }
            case LENGTH_SHORT: {
                if (length <= 8) {
                    return mutate(message, Kind.BIT_FLIP, random);
                }
                int shorter = 8 + random.nextInt(length - 8);
                byte[] cut = Arrays.copyOf(m, shorter);
                setLength(cut, shorter);
                return new Mutant(kind, cut);
            }
            case LENGTH_LONG: {
                int longer = Math.min(0xffff, length + 1 + random.nextInt(random.nextBoolean() ? 8 : 512));
                if (longer == length) {
                    return mutate(message, Kind.LENGTH_SHORT, random);
                }
                byte[] padded = Arrays.copyOf(m, longer);
                for (int i = length; i < longer; i++) {
                    padded[i] = random.nextInt(3) == 0 ? (byte) random.nextInt(256) : 0;
                }
                setLength(padded, longer);
                return new Mutant(kind, padded);
            }
            case NESTED_LENGTH_ZERO, NESTED_LENGTH_SHORT, NESTED_LENGTH_LONG: {
                List<int[]> fields = nestedLengths(m);
                if (fields.isEmpty()) {
                    return new Mutant(Kind.BIT_FLIP, mutate(message, Kind.BIT_FLIP, random).bytes());
                }
                int[] field = fields.get(random.nextInt(fields.size()));
                int at = field[0];
                int width = field[1];
                int value = width == 2 ? u16(m, at) : m[at] & 0xff;
                int max = width == 2 ? 0xffff : 0xff;
                int next = switch (kind) {
                    case NESTED_LENGTH_ZERO -> 0;
                    case NESTED_LENGTH_SHORT -> Math.max(0, value - 1 - random.nextInt(Math.max(1, Math.min(value, 8))));
                    default -> random.nextInt(4) == 0 ? max : Math.min(max, value + 1 + random.nextInt(64));
                };
                if (width == 2) {
                    m[at] = (byte) (next >> 8);
                    m[at + 1] = (byte) next;
                } else {
                    m[at] = (byte) next;
                }
                return new Mutant(kind, m);
            }
            case VERSION_BYTE: {
                int[] versions = {0, 1, 2, 3, 4, 5, 6, 7, 0x7f, 0x80, 0xff};
                m[0] = (byte) versions[random.nextInt(versions.length)];
                return new Mutant(kind, m);
            }
            case TYPE_BYTE:
                m[1] = (byte) (random.nextInt(4) == 0 ? random.nextInt(256) : random.nextInt(36));
                return new Mutant(kind, m);
            case LENGTH_ZERO:
                setLength(m, 0);
                return new Mutant(kind, m);
            case LENGTH_UNDER_HEADER:
                setLength(m, 1 + random.nextInt(7));
                return new Mutant(kind, m);
            case LENGTH_OVERRUN:
                setLength(m, Math.min(0xffff, length + 1 + random.nextInt(2_000)));
                return new Mutant(kind, m);
            case TRUNCATED_STREAM:
                return new Mutant(kind, Arrays.copyOf(m, 1 + random.nextInt(Math.max(1, length - 1))));
            default:
                throw new IllegalArgumentException(kind.toString());
        }
    }

    /**
     * Where nested lengths probably are, as {offset, width}: a 16-bit word at an even offset past the
     * header whose value could be the length of a TLV starting two bytes before it (at least 4, a
     * multiple of 4, not beyond the message), and the one-byte length of an OXM (class 0x8000, 0x8001,
     * 0xffff or 0x0001 in front of it).
     */
    static List<int[]> nestedLengths(byte[] m) {
        List<int[]> fields = new ArrayList<>();
        for (int at = 10; at + 1 < m.length; at += 2) {
            int value = u16(m, at);
            if (value >= 4 && value % 4 == 0 && value <= m.length - (at - 2)) {
                fields.add(new int[] {at, 2});
            }
        }
        for (int at = 8; at + 3 < m.length; at++) {
            int oxmClass = u16(m, at);
            if ((oxmClass == 0x8000 || oxmClass == 0x8001 || oxmClass == 0xffff || oxmClass == 0x0001)
                    && (m[at + 3] & 0xff) > 0 && (m[at + 3] & 0xff) <= m.length - at - 4) {
                fields.add(new int[] {at + 3, 1});
            }
        }
        return fields;
    }

    private static int u16(byte[] m, int at) {
        return ((m[at] & 0xff) << 8) | (m[at + 1] & 0xff);
    }

    private static void setLength(byte[] m, int length) {
        m[2] = (byte) (length >> 8);
        m[3] = (byte) length;
    }
}
