package dev.baton.runtime.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.runtime.config.Yaml;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** baton.yaml's durableTurns section: off unless switched on, with a lease its heartbeat renews in time. */
class DurableTurnSettingsTest {

    @Test
    void a_missing_section_leaves_durable_turns_off_with_the_default_lease() {
        DurableTurnSettings read = DurableTurnSettings.from(MissingNode.getInstance());

        assertThat(read).isEqualTo(DurableTurnSettings.DEFAULTS);
        assertThat(read.enabled()).isFalse();
        assertThat(read.lease()).isEqualTo(Duration.ofSeconds(15));
        assertThat(read.heartbeat()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void the_section_says_what_the_java_copies_say() {
        DurableTurnSettings read = DurableTurnSettings.from(Yaml.parse("""
                        durableTurns:
                          enabled: true
                          lease: 6s
                          heartbeat: 2s
                          instanceId: api-1
                        """).path("durableTurns"));

        assertThat(read)
                .isEqualTo(DurableTurnSettings.DEFAULTS
                        .withEnabled(true)
                        .withLease(Duration.ofSeconds(6), Duration.ofSeconds(2))
                        .withInstanceId("api-1"));
    }

    @Test
    void a_heartbeat_that_could_miss_the_lease_is_refused_by_name() {
        assertThatThrownBy(() -> DurableTurnSettings.DEFAULTS.withLease(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("durableTurns.heartbeat");
        assertThatThrownBy(() -> DurableTurnSettings.from(
                        Yaml.parse("durableTurns:\n  leese: 5s\n").path("durableTurns")))
                .hasMessageContaining("leese");
    }

    @Test
    void the_setting_reads_report_or_ask_and_refuses_anything_else_by_name() {
        assertThat(DurableTurnSettings.DEFAULTS.unknownOutcome()).isEqualTo(DurableTurnSettings.UnknownOutcome.REPORT);
        assertThat(DurableTurnSettings.from(Yaml.parse("durableTurns:\n  unknownOutcome: ask\n")
                                .path("durableTurns"))
                        .unknownOutcome())
                .isEqualTo(DurableTurnSettings.UnknownOutcome.ASK);
        assertThatThrownBy(() -> DurableTurnSettings.from(
                        Yaml.parse("durableTurns:\n  unknownOutcome: retry\n").path("durableTurns")))
                .hasMessageContaining("durableTurns.unknownOutcome")
                .hasMessageContaining("retry");
    }
}
