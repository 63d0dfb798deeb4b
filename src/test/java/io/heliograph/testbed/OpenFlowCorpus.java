package io.heliograph.testbed;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.TransportPort;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Valid OpenFlow messages of every type Loxi can build, in every version it has (1.0 to 1.5), as
 * bytes: the seeds a fuzzer mutates. Each of a factory's message builders is built by reflection; a
 * property without a default gets a value of its type, and every list property gets one or two
 * elements (actions, instructions, buckets, bands, ports, properties...), so that the messages carry
 * the nested TLVs whose lengths a fuzzer breaks. PACKET_INs carry real frames (ARP, IPv4 TCP/UDP/ICMP,
 * IPv6, VLAN, LLDP) for the apps' packet parsers.
 */
public final class OpenFlowCorpus {

    /** One message: its version, type name (e.g. FLOW_MOD, STATS_REPLY/FLOW), builder, and bytes. */
    public record Seed(OFVersion version, String type, String builder, byte[] bytes) {
    }

    private static final Pattern MISSING = Pattern.compile("Property (\\w+) doesn't have default value");
    private static final int DEPTH = 3;

    private final OFFactory factory;
    private final long datapathId;

    private OpenFlowCorpus(OFVersion version, long datapathId) {
        this.factory = OFFactories.getFactory(version);
        this.datapathId = datapathId;
    }

    /**
     * Every message of {@code version} Loxi builds, with {@code datapathId} in the ones that carry one
     * (never a connected switch's: a fuzzed FEATURES_REPLY must not claim it).
     */
    public static List<Seed> of(OFVersion version, long datapathId) {
        return new OpenFlowCorpus(version, datapathId).seeds();
    }

    private List<Seed> seeds() {
        Map<String, Seed> seeds = new TreeMap<>();
        for (Method m : OFFactory.class.getMethods()) {
            if (!m.getName().startsWith("build") || m.getParameterCount() != 0) {
                continue;
            }
            Method build = buildMethod(m.getReturnType());
            if (build == null || !OFMessage.class.isAssignableFrom(build.getReturnType())) {
                continue;
            }
            // With elements in every list when it can be written (a flag or element of the wrong version
            // cannot), else with only what has no default.
            for (boolean rich : new boolean[] {true, false}) {
                OFMessage message = (OFMessage) make(m, factory, rich ? DEPTH : 0);
                byte[] bytes = message == null ? null : writable(message);
                if (bytes != null) {
                    seeds.put(m.getName(), new Seed(factory.getVersion(), typeName(message), m.getName(), bytes));
                    break;
                }
            }
        }
        List<Seed> all = new ArrayList<>(seeds.values());
        all.addAll(packetIns());
        return all;
    }

    private static String typeName(OFMessage message) {
        if (message instanceof org.projectfloodlight.openflow.protocol.OFStatsRequest<?> request) {
            return message.getType() + "/" + request.getStatsType();
        }
        if (message instanceof org.projectfloodlight.openflow.protocol.OFStatsReply reply) {
            return message.getType() + "/" + reply.getStatsType();
        }
        return message.getType().toString();
    }

    private static byte[] writable(OFMessage message) {
        try {
            return bytes(message);
        } catch (RuntimeException e) {
            return null;
        }
    }

    public static byte[] bytes(OFMessage message) {
        ByteBuf buf = Unpooled.buffer();
        try {
            message.writeTo(buf);
            byte[] out = new byte[buf.readableBytes()];
            buf.readBytes(out);
            return out;
        } finally {
            buf.release();
        }
    }

    private static Method buildMethod(Class<?> builder) {
        try {
            return builder.getMethod("build");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** Invokes {@code factoryMethod} on {@code target} for a builder, fills it and builds; null if it cannot. */
    private Object make(Method factoryMethod, Object target, int depth) {
        Object builder;
        try {
            builder = factoryMethod.invoke(target);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;   // not in this version
        }
        // Through the declared builder interface: the implementations are not public.
        return fill(builder, factoryMethod.getReturnType(), depth);
    }

    private Object fill(Object builder, Class<?> builderType, int depth) {
        Method build = buildMethod(builderType);
        if (build == null) {
            return null;
        }
        for (Method setter : builderType.getMethods()) {
            // lists and sets get elements: the nested TLVs
            if (setter.getName().startsWith("set") && setter.getParameterCount() == 1
                    && Collection.class.isAssignableFrom(setter.getParameterTypes()[0])) {
                Object value = value(setter.getGenericParameterTypes()[0], depth - 1);
                if (value != null) {
                    invokeQuietly(setter, builder, value);
                }
            }
        }
        for (int attempt = 0; attempt < 12; attempt++) {
            try {
                return build.invoke(builder);
            } catch (InvocationTargetException e) {
                Matcher missing = e.getCause() == null ? null : MISSING.matcher(String.valueOf(e.getCause().getMessage()));
                if (missing == null || !missing.find() || !setMissing(builder, builderType, missing.group(1), depth)) {
                    return null;
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    private boolean setMissing(Object builder, Class<?> builderType, String property, int depth) {
        String name = "set" + Character.toUpperCase(property.charAt(0)) + property.substring(1);
        for (Method setter : builderType.getMethods()) {
            if (setter.getName().equals(name) && setter.getParameterCount() == 1) {
                Object value = value(setter.getGenericParameterTypes()[0], depth - 1);
                if (value != null && invokeQuietly(setter, builder, value)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean invokeQuietly(Method setter, Object target, Object value) {
        try {
            setter.invoke(target, value);
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /** A value of {@code type}, or null when none can be made. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private Object value(Type type, int depth) {
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            Type element = p.getActualTypeArguments()[0];
            if (List.class.isAssignableFrom(raw)) {
                if (depth < 0) {
                    return List.of();
                }
                Object one = value(element, depth);
                Object two = value(element, depth);
                return one == null ? List.of() : two == null ? List.of(one) : List.of(one, two);
            }
            if (Set.class.isAssignableFrom(raw) && depth < 0) {
                return Set.of();
            }
            if (Set.class.isAssignableFrom(raw) && element instanceof Class<?> c && c.isEnum()) {
                return EnumSet.of((Enum) c.getEnumConstants()[0]);
            }
            if (Set.class.isAssignableFrom(raw)) {
                Object one = value(element, depth);
                return one == null ? Set.of() : Set.of(one);
            }
            return value(raw, depth);
        }
        if (!(type instanceof Class<?> c)) {
            return null;
        }
        if (c == int.class || c == Integer.class) {
            return 1;
        }
        if (c == long.class || c == Long.class) {
            return 1L;
        }
        if (c == short.class || c == Short.class) {
            return (short) 1;
        }
        if (c == byte.class || c == Byte.class) {
            return (byte) 1;
        }
        if (c == boolean.class || c == Boolean.class) {
            return true;
        }
        if (c == String.class) {
            return "fuzz";
        }
        if (c == byte[].class) {
            return new byte[] {1, 2, 3, 4};
        }
        if (c.isEnum()) {
            return c.getEnumConstants()[0];
        }
        if (c == Match.class) {
            return match();
        }
        if (c == OFAction.class) {
            return factory.actions().output(OFPort.of(1), 0xffff);
        }
        if (c == org.projectfloodlight.openflow.types.DatapathId.class) {
            return org.projectfloodlight.openflow.types.DatapathId.of(datapathId);
        }
        if (depth < 0) {
            return null;
        }
        Object constant = constant(c);
        if (constant != null) {
            return constant;
        }
        if (c.isInterface() && c.getName().startsWith("org.projectfloodlight.openflow.protocol")) {
            return implementation(c, depth);
        }
        return null;
    }

    /** A value of a Loxi type from its own constants or factory method: OFPort.of(1), U32.of(1), TableId.of(1)... */
    private static Object constant(Class<?> c) {
        for (String name : List.of("of", "ofRaw", "ofInt", "ofLong")) {
            for (Class<?> arg : List.of(int.class, long.class, short.class)) {
                try {
                    Method of = c.getMethod(name, arg);
                    if (Modifier.isStatic(of.getModifiers()) && c.isAssignableFrom(of.getReturnType())) {
                        return of.invoke(null, arg == int.class ? (Object) 1 : arg == long.class ? (Object) 1L : (Object) (short) 1);
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // next form
                }
            }
        }
        for (java.lang.reflect.Field f : c.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == c) {
                try {
                    Object v = f.get(null);
                    if (v != null) {
                        return v;
                    }
                } catch (ReflectiveOperationException e) {
                    // next
                }
            }
        }
        return null;
    }

    /** An instance of a Loxi interface (OFInstruction, OFBucket, OFPortDescProp...) from the first builder that makes one. */
    private Object implementation(Class<?> iface, int depth) {
        for (Map.Entry<Object, Class<?>> source : sources().entrySet()) {
            for (Method m : source.getValue().getMethods()) {
                if (!m.getName().startsWith("build") || m.getParameterCount() != 0) {
                    continue;
                }
                Method build = buildMethod(m.getReturnType());
                if (build == null || !iface.isAssignableFrom(build.getReturnType())) {
                    continue;
                }
                Object made = make(m, source.getKey(), depth);
                if (made != null) {
                    return made;
                }
            }
        }
        return null;
    }

    /** The factory and its sub-factories, each with the interface to call it through. */
    private Map<Object, Class<?>> sources() {
        Map<Object, Class<?>> sources = new LinkedHashMap<>();
        sources.put(factory, OFFactory.class);
        for (String sub : List.of("actions", "instructions", "oxms", "meterBands", "errorMsgs", "oxss", "bsnTlvs",
                "portDescProps", "tableFeatureProps")) {
            try {
                Method m = OFFactory.class.getMethod(sub);
                sources.put(m.invoke(factory), m.getReturnType());
            } catch (ReflectiveOperationException | RuntimeException e) {
                // not in this version
            }
        }
        return sources;
    }

    private Match match() {
        // Statement by statement: some versions' match builders return null from their setters.
        Match.Builder m = factory.buildMatch();
        m.setExact(MatchField.IN_PORT, OFPort.of(1));
        m.setExact(MatchField.ETH_TYPE, EthType.IPv4);
        m.setExact(MatchField.ETH_SRC, MacAddress.of("02:00:00:00:00:01"));
        m.setExact(MatchField.IPV4_DST, IPv4Address.of("10.0.0.2"));
        m.setExact(MatchField.IP_PROTO, IpProtocol.TCP);
        m.setExact(MatchField.TCP_DST, TransportPort.of(80));
        if (factory.getVersion().compareTo(OFVersion.OF_12) >= 0) {
            m.setMasked(MatchField.IPV4_SRC, IPv4Address.of("10.0.0.0"), IPv4Address.of("255.255.255.0"));
        }
        return m.build();
    }

    private Match inPort() {
        Match.Builder m = factory.buildMatch();
        m.setExact(MatchField.IN_PORT, OFPort.of(1));
        return m.build();
    }

    private List<Seed> packetIns() {
        Map<String, byte[]> frames = new LinkedHashMap<>();
        frames.put("ARP", Frames.arpRequest());
        frames.put("IPv4 TCP", Frames.ipv4(6, 20));
        frames.put("IPv4 UDP", Frames.ipv4(17, 8));
        frames.put("IPv4 ICMP", Frames.ipv4(1, 8));
        frames.put("IPv6 ICMPv6", Frames.ipv6(58, 24));
        frames.put("VLAN IPv4", Frames.vlan(Frames.ipv4(17, 8)));
        frames.put("LLDP", Frames.lldp());
        frames.put("runt", new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        frames.put("jumbo", Frames.padded(Frames.ipv4(17, 8), 9000));
        List<Seed> seeds = new ArrayList<>();
        frames.forEach((name, frame) -> {
            org.projectfloodlight.openflow.protocol.OFPacketIn.Builder b = factory.buildPacketIn()
                    .setBufferId(OFBufferId.NO_BUFFER).setTotalLen(frame.length).setReason(OFPacketInReason.NO_MATCH)
                    .setData(frame);
            if (factory.getVersion() == OFVersion.OF_10) {
                b.setInPort(OFPort.of(1));
            } else if (factory.getVersion() == OFVersion.OF_11) {
                b.setInPort(OFPort.of(1)).setInPhyPort(OFPort.of(1));
            } else {
                b.setMatch(inPort());
                if (factory.getVersion().compareTo(OFVersion.OF_13) >= 0) {
                    b.setTableId(TableId.of(0));
                }
            }
            seeds.add(new Seed(factory.getVersion(), "PACKET_IN/" + name, "buildPacketIn", bytes(b.build())));
        });
        return seeds;
    }
}
