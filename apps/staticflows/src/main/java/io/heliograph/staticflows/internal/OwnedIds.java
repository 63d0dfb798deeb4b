package io.heliograph.staticflows.internal;

import java.util.TreeSet;

/**
 * The group and meter ids this app has put on one switch, so the ones no entry defines any more
 * can be removed (groups and meters carry no cookie to recognise them by).
 */
record OwnedIds(TreeSet<Long> groups, TreeSet<Long> meters) {

    OwnedIds() {
        this(new TreeSet<>(), new TreeSet<>());
    }

    OwnedIds copy() {
        return new OwnedIds(new TreeSet<>(groups), new TreeSet<>(meters));
    }

    boolean isEmpty() {
        return groups.isEmpty() && meters.isEmpty();
    }
}
