package io.heliograph.testbed;

import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Short names for the kernel objects of one testbed (bridges, veths, namespaces), unique per run so
 * that testbeds side by side never collide.
 *
 * <p>Every name is {@code hg} + a 4-character random token + a local suffix ({@code s1}, {@code s1s2},
 * {@code h3}); Linux limits interface names to 15 characters, which {@link #name} enforces.
 */
public final class InterfaceNames {

    public static final int MAX_INTERFACE_NAME = 15;
    private static final Pattern SUFFIX = Pattern.compile("[a-z0-9]+");
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Prefixes this JVM handed out: two testbeds started at once both see a prefix unused before either uses it. */
    private static final Set<String> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private final String prefix;

    private InterfaceNames(String prefix) {
        this.prefix = prefix;
    }

    /** A fresh prefix that no existing interface or namespace name starts with. */
    public static InterfaceNames fresh(Set<String> existingNames) {
        for (int attempt = 0; attempt < 100; attempt++) {
            String candidate = "hg" + token(4);
            if (existingNames.stream().noneMatch(n -> n.startsWith(candidate)) && HANDED_OUT.add(candidate)) {
                return new InterfaceNames(candidate);
            }
        }
        throw new IllegalStateException("no unused interface name prefix after 100 attempts");
    }

    static InterfaceNames withPrefix(String prefix) {
        return new InterfaceNames(prefix);
    }

    public String prefix() {
        return prefix;
    }

    public String name(String suffix) {
        if (!SUFFIX.matcher(suffix).matches()) {
            throw new IllegalArgumentException("interface name suffix must be lower-case letters and digits: '" + suffix + "'");
        }
        String name = prefix + suffix;
        if (name.length() > MAX_INTERFACE_NAME) {
            throw new IllegalArgumentException("interface name '" + name + "' is longer than "
                    + MAX_INTERFACE_NAME + " characters (Linux's limit)");
        }
        return name;
    }

    public boolean owns(String name) {
        return name.startsWith(prefix);
    }

    private static String token(int length) {
        StringBuilder token = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            token.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return token.toString();
    }
}
