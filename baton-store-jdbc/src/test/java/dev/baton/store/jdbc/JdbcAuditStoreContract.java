package dev.baton.store.jdbc;

import static dev.baton.testkit.store.ConversationFixtures.T0;
import static dev.baton.testkit.store.ConversationFixtures.userMessage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.Session;
import dev.baton.testkit.store.AuditStoreContract;
import java.sql.PreparedStatement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The audit store contract on {@link JdbcAuditStore} with {@link JdbcConversationStore}, and what only a database
 * does: refusing to update or delete audit rows. Subclasses provide a database per class; each test opens it anew.
 */
abstract class JdbcAuditStoreContract extends AuditStoreContract {
    private String url;
    private Database db;
    private JdbcConversationStore store;
    private JdbcAuditStore audit;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void prepareDatabase() {
        url = createDatabase();
    }

    @AfterAll
    void removeDatabase() {
        dropDatabase();
    }

    @BeforeEach
    void open() {
        db = Database.open(url);
        store = new JdbcConversationStore(db);
        audit = new JdbcAuditStore(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Override
    protected ConversationStore conversations() {
        return store;
    }

    @Override
    protected AuditStore audit() {
        return audit;
    }

    @Test
    void the_database_refuses_to_update_or_delete_audit_rows() {
        Session s = newSession();
        Message m = userMessage(s, "x", T0.plusSeconds(1));
        conversations().appendUserMessage(m, List.of(auditOf(m, "original", "m", T0)), List.of());

        assertThatThrownBy(
                () -> execute("UPDATE message_audit SET original_content = 'changed' WHERE message_id = ?", m.id()));
        assertThatThrownBy(() -> execute("DELETE FROM message_audit WHERE message_id = ?", m.id()));

        assertThat(audit().sessionAudit("tenant-1", s.id()).orElseThrow())
                .extracting(AuditRecord::originalContent)
                .containsExactly("original");
    }

    private void execute(String sql, String arg) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, arg);
                return ps.executeUpdate();
            }
        });
    }
}
