package io.heliograph.vdn.engine;

/**
 * The four tiers of VDN's overlay (spec §4.1, §4.5): video enters at sources, fans out through
 * reflectors to edge clusters, which serve client groups ((city, AS) pairs). Links only go from one tier
 * to the next, so requests only go up and video only comes down.
 */
public enum Tier {
    SOURCE, REFLECTOR, EDGE, CLIENT_GROUP;

    /** The tier below this one (links leave toward it); none below client groups. */
    public Tier below() {
        if (this == CLIENT_GROUP) {
            throw new IllegalStateException("no tier below client groups");
        }
        return values()[ordinal() + 1];
    }
}
