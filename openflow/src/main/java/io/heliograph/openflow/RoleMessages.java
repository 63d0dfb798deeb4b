package io.heliograph.openflow;

import java.util.concurrent.CompletableFuture;

import org.projectfloodlight.openflow.protocol.OFControllerRole;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRole;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRoleReply;
import org.projectfloodlight.openflow.protocol.OFRoleReply;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.Role;

/**
 * Role requests in the switch's version: OpenFlow 1.2+ ROLE_REQUEST with a generation id, or on 1.0
 * Nicira's NXT_ROLE_REQUEST (which Open vSwitch supports; it has no generation id).
 */
final class RoleMessages {

    private RoleMessages() {
    }

    static CompletableFuture<Role> request(SwitchConnection sw, OFFactory f, Role role, long generationId) {
        if (f.getVersion() == OFVersion.OF_10) {
            return sw.<OFNiciraControllerRoleReply>requestInternal(
                            f.buildNiciraControllerRoleRequest().setRole(nicira(role)).build())
                    .thenApply(reply -> fromNicira(reply.getRole()));
        }
        return sw.<OFRoleReply>requestInternal(
                        f.buildRoleRequest().setRole(openflow(role)).setGenerationId(U64.of(generationId)).build())
                .thenApply(reply -> fromOpenflow(reply.getRole()));
    }

    private static OFControllerRole openflow(Role role) {
        return switch (role) {
            case EQUAL -> OFControllerRole.ROLE_EQUAL;
            case MASTER -> OFControllerRole.ROLE_MASTER;
            case SLAVE -> OFControllerRole.ROLE_SLAVE;
        };
    }

    private static Role fromOpenflow(OFControllerRole role) {
        return switch (role) {
            case ROLE_MASTER -> Role.MASTER;
            case ROLE_SLAVE -> Role.SLAVE;
            default -> Role.EQUAL;
        };
    }

    private static OFNiciraControllerRole nicira(Role role) {
        return switch (role) {
            case EQUAL -> OFNiciraControllerRole.ROLE_OTHER;
            case MASTER -> OFNiciraControllerRole.ROLE_MASTER;
            case SLAVE -> OFNiciraControllerRole.ROLE_SLAVE;
        };
    }

    private static Role fromNicira(OFNiciraControllerRole role) {
        return switch (role) {
            case ROLE_MASTER -> Role.MASTER;
            case ROLE_SLAVE -> Role.SLAVE;
            default -> Role.EQUAL;
        };
    }
}
