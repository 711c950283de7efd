package dev.baton.tasks.support;

import dev.baton.core.auth.Principal;
import dev.baton.tasks.domain.TaskService;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** Principals for tests: each call makes a new user, so tests sharing a database never see each other's tasks. */
public final class Principals {
    private Principals() {}

    public static Principal newUser() {
        return user("user-" + UUID.randomUUID(), "default", Set.of(TaskService.READ, TaskService.WRITE));
    }

    public static Principal user(String userId, String tenantId, Set<String> permissions) {
        return new Principal(userId, tenantId, "Test User", null, Set.of("student"), permissions, List.of());
    }
}
