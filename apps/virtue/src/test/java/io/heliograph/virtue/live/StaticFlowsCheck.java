package io.heliograph.virtue.live;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.StaticEntry;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The static flows app's own checks, run on an entry without OSGi: its validator against a switch of a
 * given OpenFlow version (tables and ports unknown), and its translator to that version's flow-add, encoded
 * to bytes. Both classes are internal to that bundle, so they are reached by reflection; a change to their
 * signatures fails these tests loudly rather than skipping them.
 */
final class StaticFlowsCheck {

    private static final String INTERNAL = "io.heliograph.staticflows.internal.";

    private StaticFlowsCheck() {
    }

    /** The validator's problems with the entry on a switch of this version; empty when it would be accepted. */
    @SuppressWarnings("unchecked")
    static List<String> problems(StaticEntry entry, OFVersion version) {
        try {
            Class<?> view = Class.forName(INTERNAL + "SwitchView");
            Constructor<?> newView = view.getDeclaredConstructor(OFVersion.class, int.class, Function.class,
                    Collection.class);
            newView.setAccessible(true);
            Class<?> definitions = Class.forName(INTERNAL + "EntryValidator$Definitions");
            Constructor<?> newDefinitions = definitions.getDeclaredConstructor(Set.class, Set.class);
            newDefinitions.setAccessible(true);
            Method validate = Class.forName(INTERNAL + "EntryValidator").getDeclaredMethod("validate",
                    StaticEntry.class, view, definitions);
            validate.setAccessible(true);
            return (List<String>) validate.invoke(null, entry, newView.newInstance(version, 0, null, null),
                    newDefinitions.newInstance(Set.of(), Set.of()));
        } catch (InvocationTargetException e) {
            throw new AssertionError("the validator threw", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the static flows app's validator has changed shape", e);
        }
    }

    /** The flow-add the static flows app would send a switch of this version, encoded; its length in bytes. */
    static int encodedFlowAdd(FlowEntry entry, OFVersion version) {
        try {
            Class<?> translator = Class.forName(INTERNAL + "Translator");
            Constructor<?> newTranslator = translator.getDeclaredConstructor(
                    org.projectfloodlight.openflow.protocol.OFFactory.class);
            newTranslator.setAccessible(true);
            Method flowAdd = translator.getDeclaredMethod("flowAdd", FlowEntry.class);
            flowAdd.setAccessible(true);
            OFFlowAdd add = (OFFlowAdd) flowAdd.invoke(newTranslator.newInstance(OFFactories.getFactory(version)), entry);
            ByteBuf bytes = Unpooled.buffer();
            add.writeTo(bytes);
            return bytes.readableBytes();
        } catch (InvocationTargetException e) {
            throw new AssertionError("the translator threw", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the static flows app's translator has changed shape", e);
        }
    }
}
