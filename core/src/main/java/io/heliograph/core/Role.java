package io.heliograph.core;

/**
 * This controller's role for one switch: OpenFlow 1.2+ controller roles, or Nicira roles on
 * OpenFlow 1.0. In a cluster exactly one instance is {@link #MASTER} of each switch and the others
 * are {@link #SLAVE}; a controller that never asks for a role stays {@link #EQUAL}.
 */
public enum Role {

    /** No role asked for: full access, as every controller has by default (Nicira's OTHER). */
    EQUAL,

    /** Full access; the switch demotes its previous master to SLAVE when another becomes MASTER. */
    MASTER,

    /** Read-only: the switch refuses this controller's writes and sends it no packet-ins. */
    SLAVE
}
