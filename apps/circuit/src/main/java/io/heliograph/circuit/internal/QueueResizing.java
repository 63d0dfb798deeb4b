package io.heliograph.circuit.internal;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import io.heliograph.circuit.internal.exec.ResizePolicy;
import io.heliograph.circuit.internal.exec.TcQueueResize;

/**
 * Buffer resizing on the ToRs (spec §2.5's {@code resize(s, b, tau)}): each source rack's VOQs are the
 * queue of a device of the host that emulates its ToR, resized by a command ({@code tc}) as the executor
 * emits the changes. Off when no device is named or tau is 0.
 *
 * @param devices the queue's device by source rack, or empty (off)
 * @param command the command's arguments with {@code {dev}} and {@code {packets}} or {@code {bytes}}
 *                ({@code packets x 1500})
 */
record QueueResizing(ResizePolicy policy, List<String> devices, List<String> command) {

    static final QueueResizing OFF = new QueueResizing(ResizePolicy.etalon(0), List.of(), TcQueueResize.PFIFO);
    static final String DEFAULT_COMMAND = String.join(" ", TcQueueResize.PFIFO);
    /** The bytes of a packet when a command takes a queue's limit in bytes ({@code {bytes}}). */
    static final int PACKET_BYTES = 1500;

    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_.@-]{1,15}");

    QueueResizing {
        devices = List.copyOf(devices);
        command = List.copyOf(command);
    }

    /** The resizing of the configuration's values; the first bad one named. */
    static QueueResizing read(long tauMicros, int smallPackets, int bigPackets, String devices, String command,
            int racks) {
        ResizePolicy policy;
        try {
            policy = new ResizePolicy(smallPackets, bigPackets, tauMicros);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("resizeTauMicros, resizeSmallPackets, resizeBigPackets: "
                    + e.getMessage(), e);
        }
        String text = command == null || command.isBlank() ? DEFAULT_COMMAND : command.strip();
        List<String> arguments = Arrays.asList(text.split("\\s+"));
        if (!arguments.contains("{dev}") || !(arguments.contains("{packets}") || arguments.contains("{bytes}"))) {
            throw new IllegalArgumentException("resizeCommand must have the arguments {dev} and {packets} or {bytes}, "
                    + "not '" + text + "'");
        }
        String names = devices == null ? "" : devices.strip();
        if (names.isEmpty()) {
            return new QueueResizing(policy, List.of(), arguments);
        }
        List<String> byRack = Arrays.stream(names.split(",", -1)).map(String::strip).toList();
        if (byRack.size() != racks) {
            throw new IllegalArgumentException("resizeDevices names " + byRack.size() + " devices for " + racks
                    + " racks (one per source rack, in rack order)");
        }
        for (int r = 0; r < racks; r++) {
            if (!DEVICE.matcher(byRack.get(r)).matches()) {
                throw new IllegalArgumentException("resizeDevices: rack " + r + "'s device '" + byRack.get(r)
                        + "' is not a network device name");
            }
        }
        return new QueueResizing(policy, byRack, arguments);
    }

    boolean on() {
        return !devices.isEmpty() && policy.tauMicros() > 0;
    }

    /** A new action that runs the command on each source rack's device (close it after the executor). */
    TcQueueResize newAction() {
        return new TcQueueResize(List.of(), command, PACKET_BYTES, pair -> devices.get(pair.src()));
    }
}
