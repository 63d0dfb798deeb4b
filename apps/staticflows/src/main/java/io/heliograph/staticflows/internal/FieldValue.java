package io.heliograph.staticflows.internal;

import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.protocol.oxm.OFOxm;
import org.projectfloodlight.openflow.protocol.oxm.OFOxms;
import org.projectfloodlight.openflow.types.OFValueType;

import com.google.common.hash.PrimitiveSink;

/** A parsed match field value; {@code mask} is null for an exact match (an all-ones mask counts as exact). */
record FieldValue(Field field, OFValueType<?> value, OFValueType<?> mask) {

    /**
     * Normalizes as switches do: an all-ones mask is an exact match, and value bits outside the mask
     * are cleared (10.0.0.1/24 is 10.0.0.0/24), so the flow reads back from a switch as it was sent.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static FieldValue of(Field field, OFValueType<?> value, OFValueType<?> mask) {
        if (mask != null && isAllOnes(mask)) {
            mask = null;
        }
        if (mask != null) {
            value = (OFValueType<?>) ((OFValueType) value).applyMask((OFValueType) mask);
        }
        return new FieldValue(field, value, mask);
    }

    boolean exact() {
        return mask == null;
    }

    /** True when the mask selects no bit: the field matches anything, as if absent. */
    boolean wildcard() {
        return mask != null && isAllZeros(mask);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    void applyTo(Match.Builder builder) {
        MatchField f = field.loxi;
        if (mask == null) {
            builder.setExact(f, (OFValueType) value);
        } else {
            builder.setMasked(f, (OFValueType) value, (OFValueType) mask);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    OFOxm<?> toOxm(OFOxms oxms) {
        return oxms.fromValue((OFValueType) value, (MatchField) field.loxi);
    }

    private static boolean isAllOnes(OFValueType<?> mask) {
        byte[] bytes = bytes(mask);
        for (byte b : bytes) {
            if (b != (byte) 0xff) {
                return false;
            }
        }
        return bytes.length > 0;
    }

    private static boolean isAllZeros(OFValueType<?> mask) {
        for (byte b : bytes(mask)) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The value's wire bytes. Every Loxi value type writes itself into a Guava sink, some in a wider
     * primitive than their wire length (a MAC address as a long): keep the low {@code getLength()} bytes.
     */
    private static byte[] bytes(OFValueType<?> v) {
        ByteSink sink = new ByteSink();
        v.putTo(sink);
        byte[] all = sink.out.toByteArray();
        int n = Math.min(v.getLength(), all.length);
        return java.util.Arrays.copyOfRange(all, all.length - n, all.length);
    }

    /** Collects what a value writes; only the primitive writes Loxi values use matter. */
    private static final class ByteSink implements PrimitiveSink {
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

        @Override
        public PrimitiveSink putByte(byte b) {
            out.write(b);
            return this;
        }

        @Override
        public PrimitiveSink putBytes(byte[] bytes) {
            out.writeBytes(bytes);
            return this;
        }

        @Override
        public PrimitiveSink putBytes(byte[] bytes, int off, int len) {
            out.write(bytes, off, len);
            return this;
        }

        @Override
        public PrimitiveSink putBytes(java.nio.ByteBuffer bytes) {
            while (bytes.hasRemaining()) {
                out.write(bytes.get());
            }
            return this;
        }

        @Override
        public PrimitiveSink putShort(short s) {
            return putLong(s, 2);
        }

        @Override
        public PrimitiveSink putInt(int i) {
            return putLong(i, 4);
        }

        @Override
        public PrimitiveSink putLong(long l) {
            return putLong(l, 8);
        }

        private PrimitiveSink putLong(long l, int n) {
            for (int shift = (n - 1) * 8; shift >= 0; shift -= 8) {
                out.write((int) (l >>> shift));
            }
            return this;
        }

        @Override
        public PrimitiveSink putFloat(float f) {
            return putInt(Float.floatToIntBits(f));
        }

        @Override
        public PrimitiveSink putDouble(double d) {
            return putLong(Double.doubleToLongBits(d));
        }

        @Override
        public PrimitiveSink putBoolean(boolean b) {
            return putByte(b ? (byte) 1 : 0);
        }

        @Override
        public PrimitiveSink putChar(char c) {
            return putLong(c, 2);
        }

        @Override
        public PrimitiveSink putUnencodedChars(CharSequence s) {
            for (int i = 0; i < s.length(); i++) {
                putChar(s.charAt(i));
            }
            return this;
        }

        @Override
        public PrimitiveSink putString(CharSequence s, java.nio.charset.Charset charset) {
            return putBytes(s.toString().getBytes(charset));
        }
    }
}
