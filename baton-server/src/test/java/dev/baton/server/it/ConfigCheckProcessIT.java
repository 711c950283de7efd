package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A configuration that is wrong stops {@code baton serve} and {@code baton config check} with the file, the line and
 * the key, a distinct exit code and no stack trace; one that is right is printed with where each value comes from.
 */
class ConfigCheckProcessIT {

    private static final int CONFIG_ERROR = 3;

    @TempDir
    Path dir;

    private BatonProcess.Run baton(Map<String, String> env, String... args) throws Exception {
        return BatonProcess.run(dir, env, "", args);
    }

    private void write(String file, String text) throws Exception {
        Path path = dir.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    @Test
    void a_typo_in_baton_yaml_stops_serve_with_its_line_and_the_key_it_meant() throws Exception {
        write("baton.yaml", "# my server\nserver:\n  port: 0\nsever:\n  host: 0.0.0.0\n");

        BatonProcess.Run run = baton(Map.of(), "serve");

        assertThat(run.exitCode()).as(run.output()).isEqualTo(CONFIG_ERROR);
        assertThat(run.output()).contains("baton serve: baton.yaml:4: unknown key 'sever' (did you mean 'server'?)");
        assertThat(run.hasStackTrace()).as(run.output()).isFalse();
    }

    @Test
    void config_check_reports_a_value_of_the_wrong_type_with_its_line() throws Exception {
        write("baton.yaml", "rateLimits:\n  perUser:\n    perMinute: plenty\n");

        BatonProcess.Run run = baton(Map.of(), "config", "check");

        assertThat(run.exitCode()).isEqualTo(CONFIG_ERROR);
        assertThat(run.output())
                .contains("baton.yaml:3: rateLimits.perUser.perMinute must be a whole number >= 0, got 'plenty'");
        assertThat(run.hasStackTrace()).isFalse();
    }

    @Test
    void a_typo_in_an_agent_file_names_that_file_and_line() throws Exception {
        write("agents/tutor.yaml", "id: tutor\nsystemPrompt: Help.\ntols: [get_current_time]\n");

        BatonProcess.Run run = baton(Map.of(), "config", "check");

        assertThat(run.exitCode()).isEqualTo(CONFIG_ERROR);
        assertThat(run.output()).contains("tutor.yaml:3: unknown key 'tols' (did you mean 'tools'?)");
    }

    @Test
    void an_mcp_server_that_does_not_say_whose_data_it_keeps_is_refused_with_both_choices_explained() throws Exception {
        write(
                "baton.yaml",
                "mcp:\n  servers:\n    memory: { command: npx, args: [\"-y\", \"@modelcontextprotocol/server-memory\"] }\n");

        BatonProcess.Run run = baton(Map.of(), "config", "check");

        assertThat(run.exitCode()).as(run.output()).isEqualTo(CONFIG_ERROR);
        assertThat(run.output())
                .contains("mcp.servers.memory: say whose data the server keeps with state: perUser")
                .contains("Baton runs one process per user")
                .contains("state: shared")
                .contains("sharedWith");
        assertThat(run.hasStackTrace()).as(run.output()).isFalse();
    }

    @Test
    void with_verbose_the_stack_trace_is_shown_too() throws Exception {
        write("baton.yaml", "sever: {}\n");

        BatonProcess.Run run = baton(Map.of(), "config", "check", "--verbose");

        assertThat(run.exitCode()).isEqualTo(CONFIG_ERROR);
        assertThat(run.hasStackTrace()).isTrue();
    }

    @Test
    void config_check_prints_each_value_with_where_it_comes_from_and_masks_secrets() throws Exception {
        write(
                "baton.yaml",
                "server:\n  port: 9090\ndatabase:\n  url: jdbc:sqlite:data/x.db\nlimits:\n  historyTokens: 3000\n"
                        + "metrics:\n  token: scrape-secret\n");

        BatonProcess.Run run =
                baton(Map.of("OPENAI_API_KEY", "sk-very-secret-key", "BATON_HOST", "0.0.0.0"), "config", "check");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output())
                .containsPattern("server\\.port\\s+9090\\s+baton\\.yaml:2")
                .containsPattern("database\\.url\\s+jdbc:sqlite:data/x\\.db\\s+baton\\.yaml:4")
                .containsPattern("server\\.host\\s+0\\.0\\.0\\.0\\s+env BATON_HOST")
                .containsPattern("models\\.openai\\.apiKey\\s+\\*\\*\\* \\(set\\)\\s+env OPENAI_API_KEY")
                .containsPattern("models\\.default\\s+openai:gpt-4o-mini\\s+default")
                .containsPattern("limits\\.llmTimeout\\s+30s\\s+default")
                .containsPattern("limits\\.historyTokens\\s+3000\\s+baton\\.yaml:6")
                .containsPattern("metrics\\.token\\s+\\*\\*\\* \\(set\\)\\s+baton\\.yaml:8")
                .contains("Domains, found on the class path, in their order: tasks, notes, learning")
                .contains("baton.yaml: OK")
                .doesNotContain("sk-very-secret-key")
                .doesNotContain("scrape-secret");
        assertThat(run.output()).doesNotContain("\"level\":\"INFO\"");
    }

    @Test
    void an_agent_whose_provider_has_no_key_stops_the_start_and_says_what_to_set() throws Exception {
        write("agents/tutor.yaml", "id: tutor\nsystemPrompt: Help.\nmodel: anthropic:claude-sonnet-4-5\n");

        BatonProcess.Run run = baton(Map.of("OPENAI_API_KEY", "sk-test"), "config", "check");

        assertThat(run.exitCode()).isEqualTo(CONFIG_ERROR);
        assertThat(run.output()).contains("agent 'tutor'").contains("ANTHROPIC_API_KEY");
    }

    @Test
    void an_unknown_provider_in_the_default_model_stops_the_start() throws Exception {
        BatonProcess.Run run = baton(Map.of("BATON_MODEL", "opnai:gpt-4o"), "config", "check");

        assertThat(run.exitCode()).isEqualTo(CONFIG_ERROR);
        assertThat(run.output()).contains("unknown model provider 'opnai'").contains("BATON_MODEL");
        assertThat(run.hasStackTrace()).isFalse();
    }

    @Test
    void a_model_missing_from_the_price_table_is_a_warning_not_an_error() throws Exception {
        BatonProcess.Run run = baton(
                Map.of("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1", "BATON_MODEL", "openai:my-local-model"),
                "config",
                "check");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("Warnings:").contains("no price for openai:my-local-model");
    }

    @Test
    void a_config_file_that_does_not_exist_is_an_error() throws Exception {
        BatonProcess.Run run = baton(Map.of(), "config", "check", "--config", "nope.yaml");

        assertThat(run.exitCode()).isEqualTo(CONFIG_ERROR);
        assertThat(run.output()).contains("config file not found: nope.yaml");
    }
}
