package dev.baton.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.app.AppSettings;
import dev.baton.runtime.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    @TempDir
    Path dir;

    @Test
    void with_nothing_configured_it_runs_on_sqlite_and_the_simulator() {
        BatonConfig c = ConfigLoader.load(null, Map.of("BATON_CONFIG", empty("none.yaml")));
        assertThat(c.port()).isEqualTo(8080);
        assertThat(c.databaseUrl()).isEqualTo("jdbc:sqlite:data/baton.db");
        assertThat(c.jwtSecret()).isNull();
        assertThat(c.models().simulatorOnly()).isTrue();
        assertThat(c.models().defaultModel()).isEqualTo("simulator:default");
        assertThat(c.limits().maxIterations()).isEqualTo(5);
    }

    @Test
    void a_named_config_file_that_does_not_exist_is_an_error() {
        assertThatThrownBy(() -> ConfigLoader.load(dir.resolve("missing.yaml"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("missing.yaml");
    }

    @Test
    void environment_overrides_the_file() throws Exception {
        Path file = dir.resolve("baton.yaml");
        Files.writeString(file, """
                server: {port: 9000}
                database: {url: "jdbc:postgresql://db/x"}
                models:
                  default: openai:gpt-4o
                  openai: {apiKey: from-file}
                limits: {maxIterations: 3, llmTimeout: 12s, requestTimeout: PT1M}
                """);
        BatonConfig fileOnly = ConfigLoader.load(file, Map.of());
        assertThat(fileOnly.port()).isEqualTo(9000);
        assertThat(fileOnly.models().openAiApiKey()).isEqualTo("from-file");
        assertThat(fileOnly.limits().maxIterations()).isEqualTo(3);
        assertThat(fileOnly.limits().llmTimeout()).isEqualTo(Duration.ofSeconds(12));
        assertThat(fileOnly.limits().requestTimeout()).isEqualTo(Duration.ofMinutes(1));
        assertThat(fileOnly.limits().toolTimeout()).isEqualTo(Duration.ofSeconds(10));

        BatonConfig env = ConfigLoader.load(
                file,
                Map.of(
                        "BATON_PORT",
                        "9100",
                        "BATON_DB_URL",
                        "jdbc:sqlite:/tmp/x.db",
                        "OPENAI_API_KEY",
                        "from-env",
                        "BATON_MODEL",
                        "openai:gpt-4o-mini",
                        "BATON_JWT_SECRET",
                        "s".repeat(40)));
        assertThat(env.port()).isEqualTo(9100);
        assertThat(env.databaseUrl()).isEqualTo("jdbc:sqlite:/tmp/x.db");
        assertThat(env.models().openAiApiKey()).isEqualTo("from-env");
        assertThat(env.models().defaultModel()).isEqualTo("openai:gpt-4o-mini");
        assertThat(env.jwtSecret()).hasSize(40);
    }

    @Test
    void a_key_or_a_base_url_alone_turns_the_simulator_off() {
        BatonConfig withKey = ConfigLoader.load(null, Map.of("OPENAI_API_KEY", "k", "BATON_CONFIG", empty("n.yaml")));
        assertThat(withKey.models().simulatorOnly()).isFalse();
        assertThat(withKey.models().defaultModel()).isEqualTo("openai:gpt-4o-mini");
        BatonConfig withUrl = ConfigLoader.load(
                null, Map.of("OPENAI_BASE_URL", "http://localhost:11434/v1", "BATON_CONFIG", empty("n.yaml")));
        assertThat(withUrl.models().simulatorOnly()).isFalse();
    }

    @Test
    void a_port_that_is_not_a_number_is_a_clear_error() {
        assertThatThrownBy(
                        () -> ConfigLoader.load(null, Map.of("BATON_PORT", "eighty", "BATON_CONFIG", empty("n.yaml"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("BATON_PORT");
    }

    @Test
    void durations_accept_short_and_iso_forms() {
        var f = ConfigLoader.yamlMapper().getNodeFactory();
        assertThat(ConfigLoader.duration(f.textNode("500ms"), null)).isEqualTo(Duration.ofMillis(500));
        assertThat(ConfigLoader.duration(f.textNode("24h"), null)).isEqualTo(Duration.ofHours(24));
        assertThat(ConfigLoader.duration(f.textNode("PT30S"), null)).isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> ConfigLoader.duration(f.numberNode(7), null))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("needs a unit");
        assertThatThrownBy(() -> ConfigLoader.duration(f.textNode("soon"), null))
                .isInstanceOf(ConfigException.class);
    }

    @Test
    void an_unknown_section_stops_the_start_with_its_line_and_the_section_meant() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("baton.yaml"), "server:\n  port: 1\nlimts:\n  x: 1\n");
        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage(file + ":3: unknown key 'limts' (did you mean 'limits'?)");
    }

    @Test
    void every_declared_section_is_accepted_and_nothing_else_can_be_read() throws Exception {
        StringBuilder yaml = new StringBuilder();
        ConfigLoader.SECTIONS.forEach(section -> yaml.append(section).append(":\n"));
        Path file = java.nio.file.Files.writeString(dir.resolve("all.yaml"), yaml);

        BatonConfig config = ConfigLoader.load(file, Map.of());

        assertThat(config.port()).isEqualTo(8080);
        // and every reader of a section takes an empty one
        assertThat(AppSettings.read(config.withJwtSecret("s".repeat(32)))
                        .agents()
                        .all())
                .isNotEmpty();
        assertThatThrownBy(() -> config.section("nonsense")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_mistake_in_an_experiment_or_a_flag_is_reported_with_its_line() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("experiments.yaml"), """
                experiments:
                  definitions:
                    rollout:
                      baseAgent: tasks
                      arms:
                        - { name: old, agent: tasks, weight: 90 }
                        - { name: new, agent: taks, weight: 10 }
                """);
        var source = ConfigLoader.read(file, Map.of());
        BatonConfig config = ConfigLoader.from(source, Map.of()).withJwtSecret("s".repeat(32));
        assertThatThrownBy(() -> AppSettings.read(config, source))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(file + ":7:")
                .hasMessageContaining("unknown agent 'taks'");

        Path flags = java.nio.file.Files.writeString(dir.resolve("flags.yaml"), "flags:\n  beta: sometimes\n");
        var flagSource = ConfigLoader.read(flags, Map.of());
        BatonConfig flagConfig = ConfigLoader.from(flagSource, Map.of()).withJwtSecret("s".repeat(32));
        assertThatThrownBy(() -> AppSettings.read(flagConfig, flagSource))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(flags + ":2:")
                .hasMessageContaining("flags.beta must be true, false or a percentage");
    }

    @Test
    void a_config_file_named_by_baton_config_must_exist() {
        assertThatThrownBy(() -> ConfigLoader.load(
                        null, Map.of("BATON_CONFIG", dir.resolve("gone.yaml").toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("config file not found")
                .hasMessageContaining("gone.yaml");
    }

    @Test
    void host_and_data_directory_default_to_loopback_and_data_and_the_environment_moves_them() {
        BatonConfig defaults = ConfigLoader.load(null, Map.of("BATON_CONFIG", empty("d.yaml")));
        assertThat(defaults.host()).isEqualTo("127.0.0.1");
        assertThat(defaults.dataDir()).isEqualTo(Path.of("data"));

        BatonConfig moved = ConfigLoader.load(
                null, Map.of("BATON_CONFIG", empty("e.yaml"), "BATON_HOST", "0.0.0.0", "BATON_DATA_DIR", "/var/baton"));
        assertThat(moved.host()).isEqualTo("0.0.0.0");
        assertThat(moved.dataDir()).isEqualTo(Path.of("/var/baton"));
    }

    /** An empty configuration file: "no settings" (a BATON_CONFIG naming a missing file is an error). */
    private String empty(String name) {
        try {
            return java.nio.file.Files.writeString(dir.resolve(name), "").toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
