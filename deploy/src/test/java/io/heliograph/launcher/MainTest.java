package io.heliograph.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Properties;

import org.junit.jupiter.api.Test;

class MainTest {

    @Test
    void nettysLeakDetectorIsOffUnlessALevelIsGiven() {
        Properties none = new Properties();
        Main.leakDetectionOffUnlessAsked(none);
        assertEquals("disabled", none.getProperty(Main.NETTY_LEAK_DETECTION));

        Properties asked = new Properties();
        asked.setProperty(Main.NETTY_LEAK_DETECTION, "paranoid");
        Main.leakDetectionOffUnlessAsked(asked);
        assertEquals("paranoid", asked.getProperty(Main.NETTY_LEAK_DETECTION), "-D on the command line wins");
    }
}
