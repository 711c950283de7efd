package dev.baton.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.ApprovalPolicy;
import dev.baton.core.agent.Assignment;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.runtime.admission.BudgetSettings;
import dev.baton.runtime.admission.IdempotencyKeyExpiry;
import dev.baton.runtime.admission.RateLimitSettings;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.approval.ApprovalSettings;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.ConfigFile;
import dev.baton.runtime.config.Yaml;
import dev.baton.runtime.experiment.ExperimentSettings;
import dev.baton.runtime.flag.FlagSettings;
import dev.baton.runtime.session.SessionLimits;
import dev.baton.runtime.session.SessionSweeper;
import dev.baton.runtime.stream.TurnEventLogSettings;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each runtime section of baton.yaml is a typed value: its reader and its Java form agree, and the builder takes it. */
class TypedSettingsTest {
    static final JsonNode NONE = MissingNode.getInstance();

    static JsonNode yaml(String text) {
        return Yaml.parse(text);
    }

    @Test
    void a_missing_section_reads_as_its_settings_defaults() {
        assertThat(SessionLimits.from(NONE)).isEqualTo(SessionLimits.DEFAULTS);
        assertThat(SessionSweeper.Settings.from(NONE)).isEqualTo(SessionSweeper.Settings.DEFAULTS);
        assertThat(IdempotencyKeyExpiry.Settings.from(NONE)).isEqualTo(IdempotencyKeyExpiry.Settings.DEFAULTS);
        assertThat(ApprovalSettings.from(NONE)).isEqualTo(ApprovalSettings.DEFAULTS);
        assertThat(TurnEventLogSettings.from(NONE)).isEqualTo(TurnEventLogSettings.DEFAULTS);
        assertThat(ExperimentSettings.from(NONE)).isEqualTo(ExperimentSettings.DEFAULTS);
        assertThat(FlagSettings.from(NONE)).isEqualTo(FlagSettings.NONE);
        assertThat(RateLimitSettings.parse(NONE, Map.of())).isEqualTo(RateLimitSettings.DEFAULTS);
        // baton.yaml's default zone is named UTC, the Java one is the offset: the same days and months
        assertThat(BudgetSettings.parse(NONE))
                .usingRecursiveComparison()
                .ignoringFields("timeZone")
                .isEqualTo(BudgetSettings.NONE);
        assertThat(BudgetSettings.parse(NONE).timeZone().normalized()).isEqualTo(BudgetSettings.NONE.timeZone());
        assertThat(Assignments.from(NONE).all()).isEmpty();
    }

    @Test
    void what_a_section_says_is_said_in_java_with_the_settings_copies() {
        assertThat(ApprovalSettings.from(yaml("expiresAfter: 2h\ndefaultPolicy: always\nexpiryBatch: 10")))
                .isEqualTo(ApprovalSettings.DEFAULTS
                        .withExpiresAfter(Duration.ofHours(2))
                        .withDefaultPolicy(ApprovalPolicy.ALWAYS)
                        .withExpiryBatch(10));
        assertThat(RateLimitSettings.parse(
                        yaml("perUser: {perMinute: 5, perHour: 50}\nperTenant: {perMinute: 300}"), Map.of()))
                .isEqualTo(RateLimitSettings.DEFAULTS.withPerUser(5, 50).withPerTenant(300, 0));
        assertThat(BudgetSettings.parse(yaml("perUser: {dailyUsd: 2, monthlyUsd: 20}\ntimeZone: Europe/Paris")))
                .isEqualTo(BudgetSettings.NONE
                        .withPerUser(BigDecimal.valueOf(2), BigDecimal.valueOf(20))
                        .withTimeZone(java.time.ZoneId.of("Europe/Paris")));
        assertThat(SessionLimits.from(yaml("maxMessages: 30\ninactivityTimeout: 1h")))
                .isEqualTo(SessionLimits.DEFAULTS.withMaxMessages(30).withInactivityTimeout(Duration.ofHours(1)));
        assertThat(SessionSweeper.Settings.from(yaml("sweepInterval: 0s\nsweepBatch: 5")))
                .isEqualTo(SessionSweeper.Settings.DEFAULTS
                        .withSweepInterval(Duration.ZERO)
                        .withSweepBatch(5));
        assertThat(IdempotencyKeyExpiry.Settings.from(yaml("retention: 2h\nclaimMargin: 5s")))
                .isEqualTo(IdempotencyKeyExpiry.Settings.DEFAULTS
                        .withRetention(Duration.ofHours(2))
                        .withClaimMargin(Duration.ofSeconds(5)));
        assertThat(TurnEventLogSettings.from(yaml("maxEvents: 10\nretention: 1m")))
                .isEqualTo(TurnEventLogSettings.DEFAULTS.withMaxEvents(10).withRetention(Duration.ofMinutes(1)));
        assertThat(ExperimentSettings.from(yaml("refreshEvery: 1s\nevaluateEvery: 0s")))
                .isEqualTo(ExperimentSettings.DEFAULTS
                        .withRefreshEvery(Duration.ofSeconds(1))
                        .withEvaluateEvery(Duration.ZERO));
        assertThat(FlagSettings.from(yaml("new_history_window: 25%")))
                .isEqualTo(FlagSettings.NONE.withFlag("new_history_window", 25));
    }

    @Test
    void the_flags_environment_overrides_are_read_from_the_builders_environment() {
        FlagSettings read = FlagSettings.from(yaml("beta: false"));

        assertThat(read.withEnvironment(Map.of("FF_BETA", "true")).environment())
                .containsEntry("beta", 100);
        assertThatThrownBy(() -> read.withEnvironment(Map.of("FF_BETA", "lots")))
                .hasMessageContaining("FF_BETA must be true, false or a percentage");
    }

    @Test
    void settings_given_in_code_are_checked_against_the_agents_when_the_runtime_is_built() {
        BatonBuilder builder = Baton.builder()
                .conversationStore(new InMemoryConversationStore())
                .sessionStore(new OpenSessions(session -> {}))
                .models(reference -> {
                    throw new IllegalArgumentException("no models in this test");
                })
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(AgentDefinition.of("a", "You help.", "simulator:x", List.of()))))
                .assignments(
                        Assignments.of(List.of(new Assignment("essay", "ghost", null, null, null, null, null, null))));

        assertThatThrownBy(builder::build)
                .isInstanceOf(ConfigException.class)
                .hasMessage("assignment essay: unknown agent 'ghost' (agents: a)");
    }

    @Test
    void a_section_that_is_wrong_fails_configure_naming_the_setting() {
        assertThatThrownBy(() -> Baton.builder().configure(yaml("approvals: {expiresAftr: 1h}")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown key 'expiresAftr'");
    }

    @Test
    void checking_a_file_still_names_the_line_of_an_unknown_agent() {
        AgentRegistry agents =
                AgentRegistry.of(List.of(AgentDefinition.of("a", "You help.", "simulator:x", List.of())));
        ConfigFile assignments = ConfigFile.parse("""
                assignments:
                  - id: essay
                    agentId: ghost
                """, "baton.yaml");
        ConfigFile experiments = ConfigFile.parse("""
                experiments:
                  definitions:
                    trial:
                      baseAgent: a
                      arms:
                        - {name: control, agent: a, weight: 50}
                        - {name: ghost, agent: ghost, weight: 50}
                """, "baton.yaml");

        assertThat(located(assignments, agents))
                .isEqualTo("baton.yaml:3: assignment essay: unknown agent 'ghost' (agents: a)");
        assertThat(located(experiments, agents))
                .isEqualTo("baton.yaml:7: experiments.definitions.trial: unknown agent 'ghost'");
    }

    private static String located(ConfigFile file, AgentRegistry agents) {
        try {
            BatonBuilder.check(file.root(), agents, Map.of());
            return "no problem";
        } catch (ConfigException e) {
            return file.explain(e).map(Throwable::getMessage).orElse(e.getMessage());
        }
    }
}
