package dev.baton.learning.support;

import dev.baton.core.auth.Principal;
import dev.baton.learning.LearningPermissions;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** Principals for tests: each call makes a new user, so tests sharing a database never see each other's rows. */
public final class Learners {
    private Learners() {}

    public static Principal newLearner() {
        return user("learner-" + UUID.randomUUID(), "default", LearningPermissions.READ, LearningPermissions.WRITE);
    }

    public static Principal newInstructor() {
        return user(
                "instructor-" + UUID.randomUUID(),
                "default",
                LearningPermissions.READ,
                LearningPermissions.WRITE,
                LearningPermissions.GRADE);
    }

    public static Principal user(String userId, String tenantId, String... permissions) {
        return new Principal(userId, tenantId, "Test Learner", null, Set.of("student"), Set.of(permissions), List.of());
    }
}
