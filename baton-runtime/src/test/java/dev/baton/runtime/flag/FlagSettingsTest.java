package dev.baton.runtime.flag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.RefusalException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FlagSettingsTest {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static FlagSettings read(String yaml, Map<String, String> env) throws Exception {
        return FlagSettings.from(YAML.readTree(yaml), env);
    }

    @Test
    void booleans_and_percentages_read_and_ff_variables_win_over_the_file() throws Exception {
        FlagSettings s =
                read("""
                agent_orchestrator_v1: false
                new_history: 25%
                quiet: 40
                """, Map.of("FF_AGENT_ORCHESTRATOR_V1", "true", "FF_FROM_ENV_ONLY", "10%", "PATH", "/bin"));
        FeatureFlags flags = new FeatureFlags(s, FlagStore.inMemory(), Clock.systemUTC(), Duration.ZERO);

        assertThat(flags.percentage("agent_orchestrator_v1")).isEqualTo(100);
        assertThat(flags.percentage("new_history")).isEqualTo(25);
        assertThat(flags.percentage("quiet")).isEqualTo(40);
        assertThat(flags.percentage("from_env_only")).isEqualTo(10);
        assertThat(flags.percentage("never_heard_of")).isZero();
        assertThat(flags.all())
                .extracting(FlagState::name, FlagState::source)
                .contains(
                        org.assertj.core.groups.Tuple.tuple("agent_orchestrator_v1", "env"),
                        org.assertj.core.groups.Tuple.tuple("quiet", "config"));
    }

    @Test
    void a_percentage_flag_is_on_for_about_that_share_of_users_and_sticky() throws Exception {
        FeatureFlags flags =
                new FeatureFlags(read("half: 50%", Map.of()), FlagStore.inMemory(), Clock.systemUTC(), Duration.ZERO);
        int on = 0;
        for (int u = 0; u < 4_000; u++) {
            Principal p = Principal.of("acme", "user-" + u, Set.of());
            boolean first = flags.enabled("half", p);
            assertThat(flags.enabled("half", p)).isEqualTo(first);
            if (first) on++;
        }
        assertThat(on).isBetween(1_700, 2_300);
    }

    @Test
    void bad_names_and_values_are_refused_with_the_flag_named() {
        assertThatThrownBy(() -> read("Bad-Name: true", Map.of())).hasMessageContaining("flags.Bad-Name");
        assertThatThrownBy(() -> read("rollout: 120%", Map.of())).hasMessageContaining("flags.rollout must be");
        assertThatThrownBy(() -> read("{}", Map.of("FF_ROLLOUT", "maybe")))
                .hasMessageContaining("FF_ROLLOUT must be true, false or a percentage");
    }

    @Test
    void a_runtime_value_wins_and_changing_it_needs_the_permission() throws Exception {
        FeatureFlags flags = new FeatureFlags(
                read("beta: false", Map.of("FF_BETA", "false")),
                FlagStore.inMemory(),
                Clock.systemUTC(),
                Duration.ZERO);
        Principal admin = Principal.of("acme", "ops", Set.of(FeatureFlags.ADMIN));
        Principal user = Principal.of("acme", "ann", Set.of());

        assertThat(flags.set(admin, "beta", 100).source()).isEqualTo("runtime");
        assertThat(flags.enabled("beta", user)).isTrue();
        assertThatThrownBy(() -> flags.set(user, "beta", 0)).isInstanceOf(RefusalException.class);
        assertThatThrownBy(() -> flags.set(admin, "beta", 101)).hasMessageContaining("between 0 and 100");
        assertThat(flags.clear(admin, "beta").source()).isEqualTo("env");
        assertThat(flags.enabled("beta", user)).isFalse();
    }
}
