package io.heliograph.staticflows;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * Operator-defined flow entries, groups and meters, per switch. Entries are validated before
 * anything reaches a switch, kept in the cluster's shared store (every instance sees an entry as
 * soon as an add returns, and they survive the loss of any instance), installed at once by the
 * instance that writes to the switch (its master; every instance when no roles are used), and
 * re-installed and reconciled whenever a switch connects or gets a new master (missing entries
 * re-added, stale static entries removed; other apps' flows are never touched). Reconciliation
 * happens after the switch is announced, and a switch whose tables cannot be read is still served:
 * see {@link Reconciliation}. While the store
 * cannot be reached, adds and deletes change nothing and answer {@link Result.Outcome#UNAVAILABLE}.
 *
 * <p>Validation is synchronous and bounded: a refused entry's stage is already complete. An
 * accepted entry's stage completes when the switch confirms it (barrier), reports an error, or the
 * request timeout passes; it never hangs.
 */
public interface StaticFlowService {

    /**
     * Checks an entry against the OpenFlow rules and, when its switch is connected, against that
     * switch's version, tables and ports. Returns the problems; empty when the entry is acceptable.
     */
    List<String> validate(StaticEntry entry);

    /**
     * Adds an entry, or replaces the entry with the same switch and name. Completes once the store
     * has it, and on the instance that writes to the switch once the switch confirmed or refused it
     * (a refused entry is taken back out of the store, the previous definition staying in force).
     */
    CompletionStage<Result> add(StaticEntry entry);

    /** Deletes an entry by switch and name, from the store and from the switch. */
    CompletionStage<Result> delete(DatapathId dpid, String name);

    /** The entries of one switch, groups and meters first, then flows by table and priority. */
    List<EntryStatus> list(DatapathId dpid);

    /** Every entry of every switch. */
    List<EntryStatus> list();

    /** The reconciliation of every switch this instance writes to, by datapath id. */
    List<Reconciliation> reconciliations();

    /**
     * The reconciliation of one connected switch: as {@link #reconciliations()} lists it, or SLAVE
     * when this instance is its SLAVE. Empty when the switch is not connected to this instance (or
     * the entries are not loaded yet).
     */
    Optional<Reconciliation> reconciliation(DatapathId dpid);
}
