package dev.baton.core.auth;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The authenticated caller of a turn. Built from a verified token; the model never supplies any of it.
 *
 * @param userId the token subject
 * @param tenantId the tenant (organisation) the user belongs to; "default" when the token names none
 * @param displayName shown in the system prompt when present
 * @param roles roles from the token (student, teacher, admin, ...)
 * @param permissions permissions the roles map to (tasks:read:self, ...)
 * @param classes classes/groups from the token, for assignment checks
 */
public record Principal(
        String userId,
        String tenantId,
        String displayName,
        String email,
        Set<String> roles,
        Set<String> permissions,
        List<String> classes) {

    public Principal {
        Objects.requireNonNull(userId, "userId");
        if (userId.isBlank()) throw new IllegalArgumentException("userId is blank");
        tenantId = tenantId == null || tenantId.isBlank() ? "default" : tenantId;
        roles = Set.copyOf(roles == null ? Set.of() : roles);
        permissions = Set.copyOf(permissions == null ? Set.of() : permissions);
        classes = List.copyOf(classes == null ? List.of() : classes);
    }

    /** A user of a tenant with these permissions and no roles, name or classes (embedding, tests). */
    public static Principal of(String tenantId, String userId, Set<String> permissions) {
        return new Principal(userId, tenantId, null, null, Set.of(), permissions, List.of());
    }

    public boolean hasPermission(String permission) {
        return permissions.contains(permission);
    }

    public boolean hasAllPermissions(Set<String> required) {
        return permissions.containsAll(required);
    }
}
