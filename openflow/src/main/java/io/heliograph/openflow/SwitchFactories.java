package io.heliograph.openflow;

import java.util.function.LongSupplier;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.ver10.OFFactoryVer10;
import org.projectfloodlight.openflow.protocol.ver11.OFFactoryVer11;
import org.projectfloodlight.openflow.protocol.ver12.OFFactoryVer12;
import org.projectfloodlight.openflow.protocol.ver13.OFFactoryVer13;
import org.projectfloodlight.openflow.protocol.ver14.OFFactoryVer14;
import org.projectfloodlight.openflow.protocol.ver15.OFFactoryVer15;

/**
 * Loxi factories that take their xids from one switch connection. Every builder of Loxi's own
 * factories (and {@code nextXid()} itself) takes the next xid from one global counter that every I/O
 * thread increments, a cache line that travels between cores with each message an app builds. A
 * factory of this class builds the same messages with the connection's counter, which only the
 * connection's loop touches on the hot path. Loxi's factories ask {@code nextXid()} of themselves,
 * so overriding it is all it takes.
 */
final class SwitchFactories {

    private SwitchFactories() {
    }

    /** A factory of {@code version} whose builders and {@code nextXid()} take xids from {@code xids}. */
    static OFFactory of(OFVersion version, LongSupplier xids) {
        return switch (version) {
            case OF_10 -> new OFFactoryVer10() {
                @Override
                public long nextXid() {
                    return xids.getAsLong();
                }
            };
            case OF_11 -> new OFFactoryVer11() {
                @Override
                public long nextXid() {
                    return xids.getAsLong();
                }
            };
            case OF_12 -> new OFFactoryVer12() {
                @Override
                public long nextXid() {
                    return xids.getAsLong();
                }
            };
            case OF_13 -> new OFFactoryVer13() {
                @Override
                public long nextXid() {
                    return xids.getAsLong();
                }
            };
            case OF_14 -> new OFFactoryVer14() {
                @Override
                public long nextXid() {
                    return xids.getAsLong();
                }
            };
            case OF_15 -> new OFFactoryVer15() {
                @Override
                public long nextXid() {
                    return xids.getAsLong();
                }
            };
        };
    }
}
