package io.heliograph.circuit.engine;

/**
 * reHDFS's placement advice (spec §2.8): the rack that a writer in rack i should put its remote replicas
 * in is {@code (i + offset) mod N}, the same for every writer of a rack, so every circuit group sends its
 * large flows to exactly one other group and the racks' demand is one ring, which one configuration
 * serves. The thesis's text says offset 1, its Fig 2.19 offset 2: the offset is a parameter. Against
 * simultaneous rack failures the mapping rotates on a seconds timescale: in period p = time / rotation,
 * the offset is {@code 1 + (offset - 1 + p) mod (N - 1)}, so it runs through 1 to N - 1 and never
 * names the writer's own rack. {@code rotationMillis} 0 never rotates. Deterministic: the same rack and
 * time give the same advice on every instance.
 */
public final class ReplicaPlacement {

    private final int racks;
    private final int offset;
    private final long rotationMillis;

    public ReplicaPlacement(int racks, int offset, long rotationMillis) {
        if (racks < 2) {
            throw new IllegalArgumentException("racks: a replica rack other than the writer's needs 2 racks or more, not "
                    + racks);
        }
        if (offset < 1 || offset >= racks) {
            throw new IllegalArgumentException("offset must be from 1 to " + (racks - 1) + " (never the writer's own rack),"
                    + " not " + offset);
        }
        if (rotationMillis < 0) {
            throw new IllegalArgumentException("rotationMillis must be 0 (never) or more, not " + rotationMillis);
        }
        this.racks = racks;
        this.offset = offset;
        this.rotationMillis = rotationMillis;
    }

    /** The thesis's text: rack i to rack i + 1, never rotating. */
    public static ReplicaPlacement ring(int racks) {
        return new ReplicaPlacement(racks, 1, 0);
    }

    public int racks() {
        return racks;
    }

    public int offset() {
        return offset;
    }

    public long rotationMillis() {
        return rotationMillis;
    }

    /** The offset in force at {@code epochMillis} (from 1 to N - 1). */
    public int offsetAt(long epochMillis) {
        if (rotationMillis == 0) {
            return offset;
        }
        long period = Math.floorDiv(epochMillis, rotationMillis);
        return 1 + (int) Math.floorMod(offset - 1 + period, (long) (racks - 1));
    }

    /** The replica rack for a writer in {@code writerRack} at {@code epochMillis}. */
    public int replicaRack(int writerRack, long epochMillis) {
        if (writerRack < 0 || writerRack >= racks) {
            throw new IllegalArgumentException("writerRack must be from 0 to " + (racks - 1) + ", not " + writerRack);
        }
        return (writerRack + offsetAt(epochMillis)) % racks;
    }

    /** When the advice next changes after {@code epochMillis}; Long.MAX_VALUE if it never rotates. */
    public long nextRotationMillis(long epochMillis) {
        return rotationMillis == 0 ? Long.MAX_VALUE : (Math.floorDiv(epochMillis, rotationMillis) + 1) * rotationMillis;
    }
}
