package dev.baton.runtime.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.config.ConfigProblem;
import dev.baton.runtime.config.Yaml;
import dev.baton.runtime.stream.TurnEventLogSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The approval and stream sections refuse keys they do not know, as every section of baton.yaml does (the file's
 * owner adds the line and a suggestion).
 */
class SettingsKeysTest {

    @Test
    void a_misspelt_approval_setting_is_refused() {
        assertThatThrownBy(() -> ApprovalSettings.from(Yaml.parse("expiresAftr: 1h")))
                .isInstanceOf(ConfigProblem.class)
                .hasMessage("unknown key 'expiresAftr' in approvals");
        assertThat(ApprovalSettings.from(Yaml.parse("expiresAfter: 2h")).expiresAfter())
                .isEqualTo(Duration.ofHours(2));
    }

    @Test
    void a_misspelt_stream_setting_is_refused() {
        assertThatThrownBy(() -> TurnEventLogSettings.from(Yaml.parse("maxEvent: 10")))
                .isInstanceOf(ConfigProblem.class)
                .hasMessage("unknown key 'maxEvent' in streams");
        assertThat(TurnEventLogSettings.from(Yaml.parse("maxEvents: 10")).maxEvents())
                .isEqualTo(10);
    }
}
