package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void defaultsAreCbenchsExceptThePort() throws Exception {
        BenchOptions o = BenchOptions.parse();
        assertEquals("localhost", o.host());
        assertEquals(6653, o.port());
        assertEquals(16, o.switches());
        assertEquals(16, o.loops());
        assertEquals(1000, o.msPerTest());
        assertEquals(100_000, o.macsPerSwitch());
        assertFalse(o.throughput(), "latency mode by default");
        assertEquals(1, o.warmup());
        assertEquals(0, o.cooldown());
        assertEquals(0, o.delayMs());
        assertTrue(o.learnDstMacs());
        assertEquals(1, o.dpidOffset());
        assertEquals(OpenFlowVersion.OF_10, o.version());
    }

    @Test
    void everyFlagSetsItsValue() throws Exception {
        BenchOptions o = BenchOptions.parse("-c", "10.0.0.9", "-p", "6633", "-s", "4", "-l", "5", "-m", "200", "-M",
                "7", "-t", "-w", "2", "-C", "1", "-D", "50", "-L0", "-o", "100", "-V", "1.3");
        assertEquals(new BenchOptions("10.0.0.9", 6633, 4, 5, 200, 7, true, 2, 1, 50, false, 100,
                OpenFlowVersion.OF_13, SwitchBehaviour.DEFAULT, false), o);
    }

    @Test
    void getoptForms() throws Exception {
        BenchOptions attached = BenchOptions.parse("-s4", "-l3", "-V1.3");
        assertEquals(4, attached.switches());
        assertEquals(3, attached.loops());
        assertEquals(OpenFlowVersion.OF_13, attached.version());
        BenchOptions grouped = BenchOptions.parse("-tL", "-s", "8");
        assertTrue(grouped.throughput());
        assertTrue(grouped.learnDstMacs());
        assertEquals(8, grouped.switches());
        BenchOptions longNames = BenchOptions.parse("--switches=2", "--loops", "4", "--throughput",
                "--learn-dst-macs=off", "--of-version=1.3");
        assertEquals(2, longNames.switches());
        assertEquals(4, longNames.loops());
        assertTrue(longNames.throughput());
        assertFalse(longNames.learnDstMacs());
        assertEquals(OpenFlowVersion.OF_13, longNames.version());
        assertTrue(BenchOptions.parse("-h").help());
    }

    @Test
    void learningTakesAnOptionalAttachedValue() throws Exception {
        assertTrue(BenchOptions.parse("-L").learnDstMacs());
        assertTrue(BenchOptions.parse("-Lon").learnDstMacs());
        assertFalse(BenchOptions.parse("-Loff").learnDstMacs());
        assertFalse(BenchOptions.parse("-Lfalse").learnDstMacs());
        // -L never swallows the next argument: -s stays a flag.
        assertEquals(3, BenchOptions.parse("-L", "-s", "3").switches());
    }

    @Test
    void badFlagsAreNamed() {
        assertRefused("unknown flag '-x'", "-x");
        assertRefused("unknown flag '--frobnicate'", "--frobnicate=1");
        assertRefused("-s needs a number of switches (1-65535), got 'many'", "-s", "many");
        assertRefused("-s needs a number of switches (1-65535), got 0", "-s", "0");
        assertRefused("-p needs a TCP port number (1-65535), got 70000", "-p", "70000");
        assertRefused("-m needs a value", "-m");
        assertRefused("-V must be 1.0 or 1.3, got '1.4'", "-V", "1.4");
        assertRefused("--of-version must be 1.0 or 1.3, got '2'", "--of-version=2");
        assertRefused("-L takes on/off (1/0, true/false), got 'maybe'", "-Lmaybe");
        assertRefused("--throughput takes no value, got 'yes'", "--throughput=yes");
        assertRefused("-w 2 plus -C 1 must be less than -l 3: no test would be left to count",
                "-l", "3", "-w", "2", "-C", "1");
        assertRefused("unexpected argument 'localhost'", "localhost");
        assertRefused("-c needs a host name or address, got an empty value", "-c", "");
    }

    @Test
    void switchBehavioursAreLongFlags() throws Exception {
        assertEquals(SwitchBehaviour.DEFAULT, BenchOptions.parse().behaviour(), "every request answered at once");
        SwitchBehaviour silent = BenchOptions.parse("--stats", "ignore", "--role=ignore").behaviour();
        assertEquals(new SwitchBehaviour(SwitchBehaviour.Reply.IGNORE, SwitchBehaviour.StatsType.ALL, 0,
                SwitchBehaviour.Reply.IGNORE, 0), silent);
        assertFalse(silent.appliesToStats(SwitchMessages.STATS_DESC), "desc answered unless named");
        assertFalse(silent.appliesToStats(SwitchMessages.STATS_PORT_DESC), "the 1.3 handshake's port description");
        assertTrue(silent.appliesToStats(SwitchMessages.STATS_FLOW));
        assertTrue(silent.appliesToStats(SwitchMessages.STATS_METER));

        SwitchBehaviour late = BenchOptions.parse("--stats-delay=20000", "--role", "error", "--role-delay", "500",
                "--stats-types", "flow,port,all,desc").behaviour();
        assertEquals(SwitchBehaviour.Reply.ANSWER, late.stats());
        assertEquals(20_000, late.statsDelayMs());
        assertEquals(SwitchBehaviour.Reply.ERROR, late.role());
        assertEquals(500, late.roleDelayMs());
        assertTrue(late.appliesToStats(SwitchMessages.STATS_DESC));
        assertEquals(java.util.EnumSet.of(SwitchBehaviour.StatsType.FLOW, SwitchBehaviour.StatsType.GROUP_DESC),
                BenchOptions.parse("--stats-types=group-desc,flow").behaviour().statsTypes());
    }

    @Test
    void badBehavioursAreNamed() {
        assertRefused("--stats takes answer, error or ignore, got 'drop'", "--stats", "drop");
        assertRefused("--stats-types: port-desc is part of the OpenFlow 1.3 handshake and is always answered",
                "--stats-types=flow,port-desc");
        assertRefused("--stats-types takes all or statistics types separated by commas (desc, flow,",
                "--stats-types", "flows");
        assertRefused("--stats-delay needs a delay in ms (0 or more), got -1", "--stats-delay", "-1");
        assertRefused("--stats-delay 100 goes with --stats answer or error: an ignored request is never answered",
                "--stats=ignore", "--stats-delay=100");
        assertRefused("--role-delay 5 goes with --role answer or error", "--role", "ignore", "--role-delay", "5");
        assertRefused("unknown flag '--stats-type'", "--stats-type=flow");
    }

    @Test
    void describeSaysTheBehavioursOnlyWhenSet() throws Exception {
        assertFalse(BenchOptions.parse().describe().contains("requests"));
        String text = BenchOptions.parse("--stats=ignore", "--stats-types=flow,port", "--role=answer",
                "--role-delay=20000").describe();
        assertTrue(text.contains("   statistics requests (flow,port): ignored\n"), text);
        assertTrue(text.contains("   role requests: answered 20000 ms late\n"), text);
        assertTrue(BenchOptions.USAGE.contains("--stats-types LIST"), "documented in -h");
    }

    private static void assertRefused(String message, String... args) {
        BenchOptions.UsageException e = assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse(args));
        assertTrue(e.getMessage().startsWith(message), "'" + e.getMessage() + "' starts with '" + message + "'");
    }

    @Test
    void describeMatchesCbenchsSettingsBlock() throws Exception {
        String text = BenchOptions.parse("-s", "4", "-l", "3", "-m", "200", "-t").describe();
        assertTrue(text.contains("   running in mode 'throughput'\n"), text);
        assertTrue(text.contains("   faking 4 switches offset 1 :: 3 tests each; 200 ms per test\n"), text);
        assertTrue(text.contains("   ignoring first 1 \"warmup\" and last 0 \"cooldown\" loops\n"), text);
    }
}
