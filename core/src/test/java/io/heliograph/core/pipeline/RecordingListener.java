package io.heliograph.core.pipeline;

import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFType;

import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;

/** A listener that appends its name to a shared journal and then does what the test says. */
class RecordingListener implements MessageListener {

    private final String name;
    private final Set<OFType> types;
    private final List<String> journal;
    private final BiFunction<OFSwitch, OFMessage, Command> behaviour;

    RecordingListener(String name, List<String> journal) {
        this(name, Set.of(OFType.PACKET_IN), journal, (sw, m) -> Command.CONTINUE);
    }

    RecordingListener(String name, Set<OFType> types, List<String> journal,
            BiFunction<OFSwitch, OFMessage, Command> behaviour) {
        this.name = name;
        this.types = types;
        this.journal = journal;
        this.behaviour = behaviour;
    }

    static RecordingListener stopping(String name, List<String> journal) {
        return new RecordingListener(name, Set.of(OFType.PACKET_IN), journal, (sw, m) -> Command.STOP);
    }

    /** Records "NAME prepared" when it prepares, and fails doing so. */
    static RecordingListener failingToPrepare(String name, List<String> journal, RuntimeException failure) {
        return new RecordingListener(name, Set.of(OFType.PACKET_IN), journal, (sw, m) -> Command.CONTINUE) {
            @Override
            public void prepare(OFSwitch sw, List<OFMessage> read) {
                super.prepare(sw, read);
                throw failure;
            }
        };
    }

    static RecordingListener throwing(String name, List<String> journal, RuntimeException failure) {
        return new RecordingListener(name, Set.of(OFType.PACKET_IN), journal, (sw, m) -> {
            throw failure;
        });
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public Set<OFType> getTypes() {
        return types;
    }

    @Override
    public void prepare(OFSwitch sw, List<OFMessage> read) {
        journal.add(name + " prepared " + read.size());
    }

    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        journal.add(name);
        return behaviour.apply(sw, message);
    }

    @Override
    public String toString() {
        return "RecordingListener[" + name + "]";
    }
}
