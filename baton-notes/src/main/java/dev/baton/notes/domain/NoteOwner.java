package dev.baton.notes.domain;

import dev.baton.core.auth.Principal;
import java.util.Objects;

/** Whose notes: every repository read and write is scoped to one owner, always taken from the principal. */
public record NoteOwner(String tenantId, String userId) {
    public NoteOwner {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
    }

    public static NoteOwner of(Principal principal) {
        return new NoteOwner(principal.tenantId(), principal.userId());
    }
}
