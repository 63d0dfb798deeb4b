package io.heliograph.testbed;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One port's packet and byte counters as Open vSwitch counts them: the output of
 * {@code ovs-ofctl dump-ports BRIDGE PORT}, e.g.
 * <pre>
 *   port  1: rx pkts=10, bytes=860, drop=0, errs=0, frame=0, over=0, crc=0
 *            tx pkts=9, bytes=770, drop=0, errs=0, coll=0
 * </pre>
 */
public record PortCounters(long rxPackets, long rxBytes, long txPackets, long txBytes) {

    private static final Pattern RX = Pattern.compile("rx pkts=(\\d+), bytes=(\\d+)");
    private static final Pattern TX = Pattern.compile("tx pkts=(\\d+), bytes=(\\d+)");

    /** The counters of the one port in {@code dumpPorts}; throws if it holds no rx or tx counters. */
    public static PortCounters parse(String dumpPorts) {
        Matcher rx = RX.matcher(dumpPorts);
        Matcher tx = TX.matcher(dumpPorts);
        if (!rx.find() || !tx.find()) {
            throw new IllegalArgumentException("no rx and tx counters in dump-ports output: " + dumpPorts);
        }
        return new PortCounters(Long.parseLong(rx.group(1)), Long.parseLong(rx.group(2)),
                Long.parseLong(tx.group(1)), Long.parseLong(tx.group(2)));
    }
}
