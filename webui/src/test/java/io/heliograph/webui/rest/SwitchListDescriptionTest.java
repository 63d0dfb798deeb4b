package io.heliograph.webui.rest;

import static io.heliograph.webui.rest.RestFixture.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.webui.rest.RestFixture.Answer;

/**
 * The switch list carries what each switch said it is, so the web UI's list shows manufacturer,
 * hardware and software without asking for every switch on its own.
 */
class SwitchListDescriptionTest {

    @Test
    void eachLineOfTheListHasItsSwitchsDescription() throws Exception {
        FakeSwitch s1 = OpenFlowReplies.fakeSwitch(1, OFVersion.OF_13);
        FakeSwitch s2 = OpenFlowReplies.fakeSwitch(2, OFVersion.OF_10);
        s2.setDescription(s2.getFactory().buildDescStatsReply().setMfrDesc("Acme").setHwDesc("Model 7")
                .setSwDesc("9.9").setSerialNum("A-17").setDpDesc("rack 4").build());
        SwitchResource resource = new SwitchResource();
        resource.switches = new FakeSwitchService().add(s1).add(s2);

        Answer list = call(RestFixture.mvc(resource), get("/api/v1/switches")).expect(200);

        assertEquals("Nicira, Inc.", list.text("/0/description/manufacturer"));
        assertEquals("Open vSwitch", list.text("/0/description/hardware"));
        assertEquals("s1", list.text("/0/description/datapath"));
        assertEquals("Acme", list.text("/1/description/manufacturer"));
        assertEquals("Model 7", list.text("/1/description/hardware"));
        assertEquals("9.9", list.text("/1/description/software"));
        assertEquals("A-17", list.text("/1/description/serialNumber"));
        assertEquals("rack 4", list.text("/1/description/datapath"));
    }
}
