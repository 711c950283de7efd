package dev.baton.learning.domain;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.domain.DomainException;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningModule;
import dev.baton.learning.support.TestDatabases;
import dev.baton.store.jdbc.JdbcConversationStore;
import dev.baton.testkit.time.SettableClock;
import java.time.Instant;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * One migrated database per test class with the demo catalogue seeded; each dialect runs the same contract through
 * a subclass. Tests work as fresh users, so they share the database without seeing each other's rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LearningDatabaseTest {
    /** A Wednesday morning; the demo's lab slots start the next day. */
    static final Instant NOW = Instant.parse("2026-11-18T08:00:00Z");

    final SettableClock clock = new SettableClock(NOW);
    TestDatabases.Opened opened;
    LearningModule module;
    JdbcConversationStore conversations;

    abstract TestDatabases.Opened open() throws Exception;

    @BeforeAll
    void openDatabase() throws Exception {
        opened = open();
        conversations = new JdbcConversationStore(opened.database());
        module = LearningModule.create(
                opened.database(), clock, LearningModule.Options.DEFAULTS.withConversations(conversations));
        module.seedCatalogue(LearningModule.demoCatalogue());
        module.seedLibrary(LearningModule.demoLibrary());
    }

    @AfterAll
    void closeDatabase() throws Exception {
        if (opened != null) opened.close();
    }

    @BeforeEach
    void resetClock() {
        clock.set(NOW);
    }

    /** Asserts the call is refused with exactly this kind, and a message containing {@code text}. */
    static void refused(ThrowingCallable call, DomainException.Kind kind, String text) {
        assertThatThrownBy(call)
                .isInstanceOf(LearningException.class)
                .hasMessageContaining(text)
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((LearningException) e).kind())
                        .isEqualTo(kind));
    }
}
