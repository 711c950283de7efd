package dev.baton.learning;

import dev.baton.core.auth.Principal;
import java.util.Objects;

/**
 * The permissions of the learning domain, checked by its services themselves (the tool executor checks them too,
 * but the REST API reaches the services directly).
 */
public final class LearningPermissions {
    /** Browse the catalogue, read one's own enrolments, grades, cart, bookings, questions and agent memory. */
    public static final String READ = "learning:read:self";
    /** Enrol, add to the cart, book labs, ask questions, and let the learning agent remember and prepare content. */
    public static final String WRITE = "learning:write:self";
    /** Record a grade for a learner enrolled in a course (instructors). */
    public static final String GRADE = "learning:grade";
    /** Read and reset another learner's agent memory (administrators). */
    public static final String ADMIN = "admin:learning";

    private LearningPermissions() {}

    /** @throws LearningException permission_denied unless the principal holds {@code permission} */
    public static void require(Principal principal, String permission) {
        Objects.requireNonNull(principal, "principal");
        if (!principal.hasPermission(permission)) throw LearningException.permissionDenied(permission);
    }
}
