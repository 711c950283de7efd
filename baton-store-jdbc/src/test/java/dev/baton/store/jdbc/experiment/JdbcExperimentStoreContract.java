package dev.baton.store.jdbc.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.runtime.experiment.Experiment;
import dev.baton.runtime.experiment.ExperimentStore;
import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.experiment.RollbackTriggers;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.JdbcConversationStore;
import dev.baton.testkit.store.ExperimentStoreContract;
import java.sql.PreparedStatement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The experiment store contract on {@link JdbcExperimentStore} with {@link JdbcConversationStore} on one database,
 * and what only a database does: refusing to change or delete the operators' audit trail. Subclasses provide a
 * database per class.
 */
abstract class JdbcExperimentStoreContract extends ExperimentStoreContract {
    private Database db;
    private JdbcExperimentStore store;
    private JdbcConversationStore conversations;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        store = new JdbcExperimentStore(db);
        conversations = new JdbcConversationStore(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Override
    protected ExperimentStore store() {
        return store;
    }

    @Override
    protected ConversationStore conversations() {
        return conversations;
    }

    @Test
    void the_database_refuses_to_update_or_delete_operator_audit_rows() {
        Experiment e = experiment("append-only-" + suffix(), "tutor-a", 90, 10, RollbackTriggers.DEFAULTS);
        store.create(e, audit(e, "created"));
        OperatorAuditRecord created =
                store.auditTrail(OperatorAuditRecord.experiment(e.id()), 1).getFirst();

        assertThatThrownBy(() -> execute("UPDATE operator_audit SET actor = 'someone' WHERE id = ?", created.id()));
        assertThatThrownBy(() -> execute("DELETE FROM operator_audit WHERE id = ?", created.id()));

        assertThat(store.auditTrail(OperatorAuditRecord.experiment(e.id()), 10)).containsExactly(created);
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
