package dev.baton.testkit.store;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.assistantMessage;
import static dev.baton.testkit.store.ConversationFixtures.newUser;
import static dev.baton.testkit.store.ConversationFixtures.session;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.audit.ExtractionRecord;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.MessageStatus;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.TurnRecord;
import dev.baton.core.id.Ids;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link AuditStore} must do with the {@link ConversationStore} that writes its rows: the audit trail and
 * extractions written with their message at once, read by tenant across users, never changed — a deleted
 * conversation keeps its audit trail. Run by baton-store-jdbc against SQLite and PostgreSQL and by baton-testkit
 * against {@code InMemoryConversationStore.auditStore()}.
 *
 * <p>Subclasses give the stores under test, which may be shared by all tests of the class (each test has its own
 * sessions).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AuditStoreContract {
    protected static final ObjectMapper JSON = new ObjectMapper();

    /** The conversation store that writes audit records and extractions with its messages. */
    protected abstract ConversationStore conversations();

    /** The audit store under test, reading what {@link #conversations()} wrote. */
    protected abstract AuditStore audit();

    protected static AuditRecord auditOf(Message m, String original, String module, Instant at) {
        return new AuditRecord(
                Ids.newId(), "tenant-1", m.sessionId(), m.id(), original, module, "pii redacted", List.of("email"), at);
    }

    protected static ExtractionRecord extractionOf(Message m, String module, String type, String json, Instant at) {
        try {
            return new ExtractionRecord(Ids.newId(), m.sessionId(), m.id(), module, type, JSON.readTree(json), at);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    protected Session newSession() {
        Session s = session(newUser(), "tutor", T0);
        conversations().createSession(s);
        return s;
    }

    @Test
    void a_redacted_user_message_is_stored_with_its_original_and_extraction_in_one_write() {
        Session s = newSession();
        Message redacted = userMessage(s, "mail [EMAIL]", T0.plusSeconds(1));
        AuditRecord note = auditOf(redacted, "mail alice@example.com", "pii-redaction", T0.plusNanos(1_500));
        ExtractionRecord found =
                extractionOf(redacted, "pii-redaction", "pii_detected", "{\"types\":[\"email\"]}", T0.plusSeconds(1));

        conversations().appendUserMessage(redacted, List.of(note), List.of(found));

        assertThat(conversations().recentMessages(s.userId(), s.id(), 5))
                .extracting(Message::content)
                .containsExactly("mail [EMAIL]");
        List<AuditRecord> trail = audit().sessionAudit("tenant-1", s.id()).orElseThrow();
        assertThat(trail).singleElement().satisfies(a -> {
            assertThat(a.id()).isEqualTo(note.id());
            assertThat(a.messageId()).isEqualTo(redacted.id());
            assertThat(a.sessionId()).isEqualTo(s.id());
            assertThat(a.tenantId()).isEqualTo("tenant-1");
            assertThat(a.originalContent()).isEqualTo("mail alice@example.com");
            assertThat(a.module()).isEqualTo("pii-redaction");
            assertThat(a.reason()).isEqualTo("pii redacted");
            assertThat(a.patternsMatched()).containsExactly("email");
            assertThat(a.createdAt()).isEqualTo(note.createdAt().truncatedTo(ChronoUnit.MICROS));
        });
        assertThat(audit().sessionExtractions("tenant-1", s.id()))
                .singleElement()
                .satisfies(x -> {
                    assertThat(x.type()).isEqualTo("pii_detected");
                    assertThat(x.messageId()).isEqualTo(redacted.id());
                    assertThat(x.data().path("types").get(0).asText()).isEqualTo("email");
                });
    }

    @Test
    void a_turns_answer_is_stored_with_its_audit_and_extractions_in_the_same_transaction() {
        Session s = newSession();
        conversations().appendUserMessage(userMessage(s, "hi", T0.plusSeconds(1)));
        Message answer = assistantMessage(s, "write to [EMAIL]", T0.plusSeconds(2));

        conversations()
                .completeTurn(
                        s.userId(),
                        new TurnRecord(
                                answer,
                                List.of(),
                                List.of(),
                                List.of(auditOf(
                                        answer, "write to bob@example.org", "pii-redaction", T0.plusSeconds(2))),
                                List.of(extractionOf(
                                        answer, "pii-redaction", "pii_detected", "{}", T0.plusSeconds(2)))));

        assertThat(audit().sessionAudit("tenant-1", s.id()).orElseThrow())
                .extracting(AuditRecord::messageId, AuditRecord::originalContent)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(answer.id(), "write to bob@example.org"));
        assertThat(audit().sessionExtractions("tenant-1", s.id())).hasSize(1);
    }

    @Test
    void when_the_audit_row_cannot_be_written_the_message_is_not_stored_either() {
        Session s = newSession();
        Message first = userMessage(s, "one", T0.plusSeconds(1));
        AuditRecord note = auditOf(first, "original one", "m", T0.plusSeconds(1));
        conversations().appendUserMessage(first, List.of(note), List.of());
        Message second = userMessage(s, "two", T0.plusSeconds(2));
        // the same audit id again: the insert fails, and must take the message with it
        AuditRecord clash = new AuditRecord(
                note.id(), "tenant-1", s.id(), second.id(), "original two", "m", "r", List.of(), T0.plusSeconds(2));

        assertThatThrownBy(() -> conversations().appendUserMessage(second, List.of(clash), List.of()));

        assertThat(conversations().recentMessages(s.userId(), s.id(), 5))
                .extracting(Message::content)
                .containsExactly("one");
        assertThat(conversations().findSession(s.userId(), s.id()).orElseThrow().messageCount())
                .isEqualTo(1);
    }

    @Test
    void audit_rows_for_another_message_are_refused() {
        Session s = newSession();
        Message m = userMessage(s, "one", T0.plusSeconds(1));
        Message other = userMessage(s, "two", T0.plusSeconds(1));

        assertThatThrownBy(() -> conversations().appendUserMessage(m, List.of(auditOf(other, "x", "m", T0)), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void admins_read_any_session_of_their_tenant_and_nothing_of_another() {
        Session s = newSession();
        Message m = userMessage(s, "[blocked]", T0.plusSeconds(1));
        conversations().appendUserMessage(m, List.of(auditOf(m, "the original", "topic-guard", T0)), List.of());
        Session quiet = newSession();

        assertThat(audit().sessionAudit("tenant-1", s.id())).get().asList().hasSize(1);
        assertThat(audit().sessionAudit("tenant-2", s.id())).isEmpty();
        assertThat(audit().sessionAudit("tenant-1", "no-such-session")).isEmpty();
        assertThat(audit().sessionAudit("tenant-1", quiet.id())).get().asList().isEmpty();
        assertThat(audit().sessionExtractions("tenant-2", s.id())).isEmpty();
    }

    @Test
    void deleting_a_conversation_keeps_its_audit_trail_but_not_its_extractions() {
        Session s = newSession();
        Message m = userMessage(s, "mail [EMAIL]", T0.plusSeconds(1));
        conversations()
                .appendUserMessage(
                        m,
                        List.of(auditOf(m, "mail alice@example.com", "pii-redaction", T0)),
                        List.of(extractionOf(m, "pii-redaction", "pii_detected", "{}", T0)));

        assertThat(conversations().deleteSession(s.userId(), s.id())).isTrue();

        assertThat(conversations().findSession(s.userId(), s.id())).isEmpty();
        assertThat(audit().sessionAudit("tenant-1", s.id()).orElseThrow())
                .extracting(AuditRecord::originalContent)
                .containsExactly("mail alice@example.com");
        assertThat(audit().sessionExtractions("tenant-1", s.id())).isEmpty();
    }

    @Test
    void extractions_of_asynchronous_hooks_are_stored_on_their_own() {
        Session s = newSession();
        JsonNode data = JSON.createObjectNode().put("sentiment", "positive");

        audit().saveExtractions(List.of(
                new ExtractionRecord(Ids.newId(), s.id(), null, "analytics", "sentiment", data, T0.plusSeconds(3)),
                new ExtractionRecord(Ids.newId(), s.id(), "m-1", "analytics", "topic", data, T0.plusSeconds(4))));

        assertThat(audit().sessionExtractions("tenant-1", s.id()))
                .extracting(ExtractionRecord::type, ExtractionRecord::messageId)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("sentiment", null),
                        org.assertj.core.groups.Tuple.tuple("topic", "m-1"));
        assertThat(audit().sessionExtractions("tenant-1", s.id())
                        .getFirst()
                        .data()
                        .path("sentiment")
                        .asText())
                .isEqualTo("positive");
    }

    @Test
    void a_blocked_user_message_keeps_its_status() {
        Session s = newSession();
        Message blocked = new Message(
                Ids.newId(), s.id(), s.userId(), 0, MessageRole.USER, "[blocked]", MessageStatus.BLOCKED, null, T0);

        conversations()
                .appendUserMessage(blocked, List.of(auditOf(blocked, "forbidden words", "topic-guard", T0)), List.of());

        assertThat(conversations().recentMessages(s.userId(), s.id(), 1))
                .singleElement()
                .satisfies(m -> assertThat(m.status()).isEqualTo(MessageStatus.BLOCKED));
    }
}
