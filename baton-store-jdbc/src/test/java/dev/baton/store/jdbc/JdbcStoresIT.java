package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.runtime.Baton;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.session.Sessions;
import dev.baton.store.jdbc.experiment.JdbcFlagStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link JdbcStores#applyTo}: a Baton built from the bundle keeps its state in the database, for any other runtime. */
class JdbcStoresIT {
    private static final AgentDefinition AGENT = AgentDefinition.of("helper", "Help.", "none:model", List.of());
    private static final Principal ALICE =
            Principal.of("acme", "alice", Set.of(Sessions.READ, Sessions.WRITE, FeatureFlags.ADMIN));

    private Database db;

    @BeforeEach
    void open(@TempDir Path dir) {
        db = Database.open("jdbc:sqlite:" + dir.resolve("baton.db"));
    }

    @AfterEach
    void close() {
        db.close();
    }

    private Baton baton() {
        return JdbcStores.of(db)
                .applyTo(Baton.builder())
                .models(reference -> {
                    throw new IllegalArgumentException("no model is called here");
                })
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(AGENT)))
                .build();
    }

    @Test
    void sessions_are_stored_with_their_terms_and_another_runtime_on_the_database_finds_them() {
        Session started;
        try (Baton first = baton()) {
            started = first.sessions().start(ALICE, "helper", null);
        }

        assertThat(new JdbcSessionLifecycle(db).terms("alice", started.id())).isPresent();
        try (Baton second = baton()) {
            assertThat(second.sessions().get(ALICE, started.id()).agentId()).isEqualTo("helper");
            Session completed = second.sessions().complete(ALICE, started.id());
            assertThat(completed.isActive()).isFalse();
        }
        assertThat(JdbcStores.of(db).conversations().findSession("alice", started.id()))
                .hasValueSatisfying(s -> assertThat(s.endReason()).isEqualTo("user"));
    }

    @Test
    void feature_flags_set_through_the_runtime_are_kept_in_the_database() {
        try (Baton baton = baton()) {
            baton.flags().set(ALICE, "new_prompt", 40);
        }

        assertThat(new JdbcFlagStore(db).overrides()).containsEntry("new_prompt", 40);
        try (Baton other = baton()) {
            assertThat(other.flags().percentage("new_prompt")).isEqualTo(40);
        }
    }
}
