package dev.baton.testkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import dev.baton.runtime.experiment.OperatorAuditRecord;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.flag.FlagStore;
import dev.baton.testkit.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link FlagStore} must do: a value set at runtime overrides the configured one for every
 * {@link FeatureFlags} reading the store, a later value replaces it, and clearing it brings the configured value
 * back. Run by baton-store-jdbc against SQLite and PostgreSQL (which also audit each change) and by baton-testkit
 * against {@code FlagStore.inMemory()}.
 *
 * <p>Subclasses give the store under test, which may be shared by all tests of the class (each test has its own
 * flag names).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class FlagStoreContract {
    protected static final Instant T0 = Instant.parse("2025-05-01T09:00:00Z");
    protected static final Principal ADMIN = Principal.of("acme", "ops", Set.of(FeatureFlags.ADMIN));
    private static final Principal USER = Principal.of("acme", "eve", Set.of());

    /** The flag store under test. */
    protected abstract FlagStore flags();

    /** Feature flags over {@link #flags()} that read the store on every question. */
    protected FeatureFlags featureFlags(FlagSettings configured) {
        return new FeatureFlags(configured, flags(), new SettableClock(T0), Duration.ZERO);
    }

    @Test
    void a_flag_set_at_runtime_is_shared_and_cleared_back_to_its_configured_value() {
        String name = newFlag();
        FlagSettings configured = new FlagSettings(Map.of(name, 0), Map.of());
        FeatureFlags here = featureFlags(configured);
        FeatureFlags elsewhere = featureFlags(configured);
        assertThat(elsewhere.enabled(name, USER)).isFalse();

        here.set(ADMIN, name, 100);

        assertThat(elsewhere.enabled(name, USER)).isTrue();
        assertThat(elsewhere.all()).anySatisfy(f -> {
            assertThat(f.name()).isEqualTo(name);
            assertThat(f.source()).isEqualTo("runtime");
        });
        here.clear(ADMIN, name);
        assertThat(elsewhere.enabled(name, USER)).isFalse();
    }

    @Test
    void a_later_value_replaces_the_earlier_one_and_only_a_set_value_can_be_cleared() {
        String name = newFlag();
        String other = newFlag();

        flags().set(name, 10, audit(name, "flag_set"));
        flags().set(name, 60, audit(name, "flag_set"));
        flags().set(other, 0, audit(other, "flag_set"));

        assertThat(flags().overrides()).containsEntry(name, 60).containsEntry(other, 0);
        assertThat(flags().clear(name, audit(name, "flag_cleared"))).isTrue();
        assertThat(flags().clear(name, audit(name, "flag_cleared"))).isFalse();
        assertThat(flags().clear(newFlag(), audit(name, "flag_cleared"))).isFalse();
        assertThat(flags().overrides()).doesNotContainKey(name).containsEntry(other, 0);
    }

    protected static String newFlag() {
        return "flag_" + Ids.newId().substring(24).toLowerCase(Locale.ROOT).replace('-', '_');
    }

    protected static OperatorAuditRecord audit(String flag, String action) {
        return new OperatorAuditRecord(Ids.newId(), OperatorAuditRecord.flag(flag), action, "ops", "{}", T0);
    }
}
