package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFBadPropertyCode;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFErrorType;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * D4: the answer to bad input is built in the connection's version, whatever error the offending
 * message (maybe of another version) called for; every one can be written.
 */
class ErrorAnswerTest {

    private static List<ErrorAnswer> everyAnswer() {
        List<ErrorAnswer> all = new ArrayList<>();
        for (OFBadRequestCode c : OFBadRequestCode.values()) {
            all.add(ErrorAnswer.badRequest(c));
        }
        for (OFBadPropertyCode c : OFBadPropertyCode.values()) {
            all.add(ErrorAnswer.badProperty(c));
        }
        return all;
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void everyAnswerIsWritableInEveryVersion(OFVersion version) {
        OFFactory f = OFFactories.getFactory(version);
        byte[] offending = new byte[64];
        for (ErrorAnswer answer : everyAnswer()) {
            OFErrorMsg error = answer.build(f, 0x77, offending);
            assertEquals(version, error.getVersion(), answer.toString());
            ByteBuf out = Unpooled.buffer();
            try {
                error.writeTo(out); // throws if the code does not exist in this version
            } finally {
                out.release();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13"})
    void aBadPropertyBeforeOpenFlow14IsABadRequest(OFVersion version) {
        OFFactory f = OFFactories.getFactory(version);
        OFErrorMsg type = ErrorAnswer.badProperty(OFBadPropertyCode.BAD_TYPE).build(f, 1, new byte[8]);
        assertEquals(OFErrorType.BAD_REQUEST, type.getErrType());
        assertEquals(OFBadRequestCode.BAD_LEN, ((OFBadRequestErrorMsg) type).getCode());
        OFErrorMsg experimenter = ErrorAnswer.badProperty(OFBadPropertyCode.BAD_EXPERIMENTER).build(f, 1, new byte[8]);
        assertEquals(OFBadRequestCode.BAD_EXPERIMENTER, ((OFBadRequestErrorMsg) experimenter).getCode());
        OFErrorMsg expType = ErrorAnswer.badProperty(OFBadPropertyCode.BAD_EXP_TYPE).build(f, 1, new byte[8]);
        assertEquals(version == OFVersion.OF_10 ? OFBadRequestCode.BAD_SUBTYPE : OFBadRequestCode.BAD_EXPERIMENTER_TYPE,
                ((OFBadRequestErrorMsg) expType).getCode());
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_14", "OF_15"})
    void fromOpenFlow14ABadPropertyIsABadProperty(OFVersion version) {
        OFErrorMsg error = ErrorAnswer.badProperty(OFBadPropertyCode.BAD_TYPE).build(OFFactories.getFactory(version), 1,
                new byte[8]);
        assertEquals(OFErrorType.BAD_PROPERTY, error.getErrType());
    }
}
