package io.heliograph.cluster.internal;

/**
 * Checks a ZooKeeper connect string, {@code host:port,host:port,...} with an optional
 * {@code /chroot} after the last server, before ZooKeeper's client gets it: its own errors name
 * neither the property nor the bad part.
 */
final class ConnectString {

    private static final String SHAPE = "host:port,host:port,...";

    private ConnectString() {
    }

    static void check(String what, String connect) {
        String servers = connect;
        int slash = connect.indexOf('/');
        if (slash >= 0) {
            servers = connect.substring(0, slash);
            String chroot = connect.substring(slash);
            if (!chroot.equals("/")) {
                try {
                    StoreKeys.requireKey("chroot", chroot.substring(1));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(what + ": '" + connect + "' has a bad chroot: " + e.getMessage());
                }
            }
        }
        if (servers.isBlank()) {
            throw new IllegalArgumentException(what + ": '" + connect + "' names no server (" + SHAPE + ")");
        }
        for (String server : servers.split(",", -1)) {
            checkHostPort(what, connect, server.strip());
        }
    }

    /** One {@code host:port} ({@code [v6]:port} for an IPv6 address). */
    static void checkHostPort(String what, String whole, String server) {
        String problem = hostPortProblem(server);
        if (problem != null) {
            throw new IllegalArgumentException(what + ": '" + whole + "' is not " + SHAPE + ": " + problem);
        }
    }

    private static String hostPortProblem(String server) {
        if (server.isEmpty()) {
            return "an empty server (two ',' in a row?)";
        }
        int colon = server.lastIndexOf(':');
        if (colon < 0) {
            return "'" + server + "' has no port";
        }
        String host = server.substring(0, colon);
        String port = server.substring(colon + 1);
        if (host.startsWith("[") != host.endsWith("]")) {
            return "'" + server + "' has an unclosed IPv6 bracket";
        }
        if (host.isEmpty() || host.equals("[]") || host.chars().anyMatch(Character::isWhitespace)) {
            return "'" + server + "' has no host";
        }
        if (!host.startsWith("[") && host.contains(":")) {
            return "'" + server + "': write an IPv6 host in brackets, [" + host + "]:port";
        }
        try {
            int p = Integer.parseInt(port);
            if (p < 1 || p > 65535) {
                return "'" + server + "' has port " + p + " (1-65535)";
            }
        } catch (NumberFormatException e) {
            return "'" + server + "' has port '" + port + "', not a number";
        }
        return null;
    }
}
