package io.heliograph.staticflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.OFPort;

class ActionTest {

    @Test
    void floodlightSyntaxParsesAndFormatsBack() {
        String text = "set_field=eth_dst->00:00:00:00:00:02,push_vlan=0x8100,pop_vlan,push_mpls=0x8847,"
                + "pop_mpls=0x800,set_queue=3,dec_nw_ttl,group=7,output=controller:128,output=in_port,output=5";
        List<Action> actions = Action.parseList(text);
        assertEquals(List.of(Action.setField("eth_dst", "00:00:00:00:00:02"), new Action.PushVlan(0x8100),
                new Action.PopVlan(), new Action.PushMpls(0x8847), new Action.PopMpls(0x800), new Action.SetQueue(3),
                new Action.DecNwTtl(), new Action.Group(7), new Action.Output(OFPort.CONTROLLER, 128),
                Action.output(OFPort.IN_PORT), Action.output(5)), actions);
        assertEquals(actions, Action.parseList(Action.format(actions)));
        assertEquals(List.of(), Action.parseList("drop"));
        assertEquals(new Action.PopVlan(), Action.parse("strip_vlan"), "Floodlight's OpenFlow 1.0 name");
    }

    @Test
    void mistakesAreNamed() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Action.parse("teleport=1")).getMessage()
                .contains("unknown action 'teleport'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Action.parse("output")).getMessage()
                .contains("output needs a value"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Action.parse("output=eth0")).getMessage()
                .contains("'eth0' is not a port"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Action.parse("set_field=eth_dst")).getMessage()
                .contains("field->value"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Action.parse("group=x")).getMessage()
                .contains("'x' is not a number"));
    }

    @Test
    void metadataTakesUnsigned64BitValues() {
        assertEquals(new Metadata(-1L, 0xffL), Metadata.parse("0xffffffffffffffff/0xff"));
        assertEquals(new Metadata(16, -1L), Metadata.parse("16"));
        assertThrows(IllegalArgumentException.class, () -> Metadata.parse("ten"));
    }
}
