package dev.baton.tasks.domain;

import dev.baton.core.auth.Principal;
import java.util.Objects;

/** Whose tasks: every repository read and write is scoped to one owner. Always taken from the principal. */
public record TaskOwner(String tenantId, String userId) {
    public TaskOwner {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
    }

    public static TaskOwner of(Principal principal) {
        return new TaskOwner(principal.tenantId(), principal.userId());
    }
}
