package dev.baton.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.audit.ExtractionRecord;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.hook.ModuleSource;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.audit.AuditTrails;
import dev.baton.runtime.stream.FollowedTurns;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The audit trails and turn following a {@link Baton} gives its front doors, built from what its builder was given. */
class BatonAuditTrailsTest {
    private static final Principal ADMIN = Principal.of("acme", "ada", Set.of(AuditTrails.AUDIT));
    private static final AuditRecord BLOCKED = new AuditRecord(
            "a-1",
            "acme",
            "s-1",
            "m-1",
            "what's the weather?",
            "topic-guard",
            "off topic",
            List.of("deny:weather"),
            Instant.parse("2026-01-01T00:00:00Z"));

    private static BatonBuilder builder() {
        InMemoryConversationStore store = new InMemoryConversationStore();
        return Baton.builder()
                .conversationStore(store)
                .sessionStore(new OpenSessions(session -> {}))
                .models(reference -> {
                    throw new IllegalArgumentException("no models in this test");
                })
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(AgentDefinition.of("a", "You help.", "simulator:x", List.of()))));
    }

    /** Keeps one module record, of session s-1 of tenant acme. */
    private static final AuditStore ONE_RECORD = new AuditStore() {
        @Override
        public Optional<List<AuditRecord>> sessionAudit(String tenantId, String sessionId) {
            return tenantId.equals("acme") && sessionId.equals("s-1")
                    ? Optional.of(List.of(BLOCKED))
                    : Optional.empty();
        }

        @Override
        public List<ExtractionRecord> sessionExtractions(String tenantId, String sessionId) {
            return List.of();
        }

        @Override
        public void saveExtractions(List<ExtractionRecord> extractions) {}
    };

    @Test
    void the_trail_reads_the_audit_store_given_with_the_modules() {
        try (Baton baton = builder().modules(ModuleSource.NONE, ONE_RECORD).build()) {
            AuditTrails.Trail trail = baton.auditTrails().sessionAudit(ADMIN, "s-1");

            assertThat(trail.records()).containsExactly(BLOCKED);
            assertThat(trail.approvals()).isEmpty();
        }
    }

    @Test
    void without_an_audit_store_a_session_with_nothing_held_for_approval_is_not_found() {
        try (Baton baton = builder().build()) {
            assertThatThrownBy(() -> baton.auditTrails().sessionAudit(ADMIN, "s-1"))
                    .isInstanceOfSatisfying(
                            RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.NotFound.class));
        }
    }

    @Test
    void the_trail_still_needs_the_audit_permission() {
        try (Baton baton = builder().modules(ModuleSource.NONE, ONE_RECORD).build()) {
            assertThatThrownBy(() -> baton.auditTrails().sessionAudit(Principal.of("acme", "al", Set.of()), "s-1"))
                    .isInstanceOfSatisfying(
                            RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.Forbidden.class));
        }
    }

    @Test
    void a_turn_the_event_log_does_not_know_cannot_be_followed() {
        try (Baton baton = builder().build()) {
            Principal observer = Principal.of("acme", "ada", Set.of(FollowedTurns.OBSERVE));

            assertThatThrownBy(() -> baton.followedTurns().follow(observer, "s-1", "t-1"))
                    .isInstanceOfSatisfying(
                            RefusalException.class, e -> assertThat(e.refusal()).isInstanceOf(Refusal.NotFound.class));
        }
    }
}
