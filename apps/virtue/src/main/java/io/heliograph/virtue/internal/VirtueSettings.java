package io.heliograph.virtue.internal;

/**
 * The Virtue app's settings, checked: a bad value is refused with a message naming it (and the
 * settings in force stay, {@code ConfiguredSettings}).
 */
record VirtueSettings(int sampleSeconds, String databaseUrl, String databaseUser, String databasePassword,
        int vlanBase, int priority, int optimiserThreads, int maxPendingRows) {

    static final VirtueSettings DEFAULTS = new VirtueSettings(5, "", "", "", 1000, 40000, 1, 1_000_000);

    VirtueSettings {
        range("sampleSeconds", sampleSeconds, 1, 3600);
        range("vlanBase", vlanBase, 1, 4091);
        range("priority", priority, 1, 65535);
        range("optimiserThreads", optimiserThreads, 1, 64);
        range("maxPendingRows", maxPendingRows, 1000, 100_000_000);
        databaseUrl = databaseUrl == null ? "" : databaseUrl.strip();
        databaseUser = databaseUser == null ? "" : databaseUser;
        databasePassword = databasePassword == null ? "" : databasePassword;
        if (!databaseUrl.isEmpty() && !databaseUrl.startsWith("jdbc:postgresql:") && !databaseUrl.startsWith("jdbc:h2:")) {
            throw new IllegalArgumentException("databaseUrl must be empty (the embedded H2 database) or a "
                    + "jdbc:postgresql: or jdbc:h2: URL, not '" + databaseUrl + "'");
        }
    }

    private static void range(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be from " + min + " to " + max + ", not " + value);
        }
    }

    /** Whether the database to use is another than {@code other}'s. */
    boolean otherDatabase(VirtueSettings other) {
        return !databaseUrl.equals(other.databaseUrl) || !databaseUser.equals(other.databaseUser)
                || !databasePassword.equals(other.databasePassword);
    }

    @Override
    public String toString() {
        // never the password
        return "sampleSeconds=" + sampleSeconds + ", database=" + (databaseUrl.isEmpty() ? "embedded H2" : databaseUrl)
                + ", vlanBase=" + vlanBase + ", priority=" + priority + ", optimiserThreads=" + optimiserThreads
                + ", maxPendingRows=" + maxPendingRows;
    }
}
