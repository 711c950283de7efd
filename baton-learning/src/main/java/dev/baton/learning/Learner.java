package dev.baton.learning;

import dev.baton.core.auth.Principal;
import java.util.Objects;

/**
 * Whose learning data: every enrolment, grade, cart item, booking, question and memory row belongs to one learner,
 * always taken from the authenticated principal, never from what a caller or a model sent.
 */
public record Learner(String tenantId, String userId) {
    public Learner {
        Objects.requireNonNull(tenantId, "tenantId");
        Objects.requireNonNull(userId, "userId");
    }

    public static Learner of(Principal principal) {
        return new Learner(principal.tenantId(), principal.userId());
    }
}
