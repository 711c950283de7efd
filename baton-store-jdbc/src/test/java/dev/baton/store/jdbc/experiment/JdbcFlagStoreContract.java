package dev.baton.store.jdbc.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.flag.FlagStore;
import dev.baton.store.jdbc.Database;
import dev.baton.testkit.store.FlagStoreContract;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The flag store contract on {@link JdbcFlagStore}, and what the database does besides: each change is written with
 * its record in the operators' audit trail, read back through {@link JdbcExperimentStore}. Subclasses provide a
 * database per class.
 */
abstract class JdbcFlagStoreContract extends FlagStoreContract {
    private Database db;
    private JdbcFlagStore flags;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        flags = new JdbcFlagStore(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Override
    protected FlagStore flags() {
        return flags;
    }

    @Test
    void each_change_of_a_flag_is_audited_with_it() {
        String name = newFlag();
        FeatureFlags featureFlags = featureFlags(new FlagSettings(Map.of(name, 0), Map.of()));

        featureFlags.set(ADMIN, name, 100);
        featureFlags.clear(ADMIN, name);

        assertThat(new JdbcExperimentStore(db).auditTrail(OperatorAuditRecord.flag(name), 10))
                .extracting(OperatorAuditRecord::action, OperatorAuditRecord::actor)
                .containsExactly(tuple("flag_cleared", "ops"), tuple("flag_set", "ops"));
    }
}
