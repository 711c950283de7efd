package dev.baton.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import org.junit.jupiter.api.Test;

class ConfigFileTest {

    private static final String YAML = """
            # a comment
            server:
              port: 8080

            sever:
              port: 9090
            rateLimits:
              perUser: {perMinute: many}
            assignments:
              - id: essay-1
                agentId: study
              - id: essay-2
                agnetId: study
            """;

    private static String explained(ConfigFile file, RuntimeException e) {
        return file.explain(e)
                .orElseThrow(() -> new AssertionError("not located: " + e))
                .getMessage();
    }

    @Test
    void an_unknown_top_level_key_is_reported_with_its_line_and_the_nearest_known_key() {
        ConfigFile file = ConfigFile.parse(YAML, "baton.yaml");
        ConfigProblem problem = org.junit.jupiter.api.Assertions.assertThrows(
                ConfigProblem.class, () -> ConfigSection.of(file.root(), "", "server", "rateLimits", "assignments"));
        assertThat(explained(file, problem)).isEqualTo("baton.yaml:5: unknown key 'sever' (did you mean 'server'?)");
    }

    @Test
    void a_value_of_the_wrong_type_is_reported_at_its_key() {
        ConfigFile file = ConfigFile.parse(YAML, "baton.yaml");
        ConfigSection limits = ConfigSection.of(file.root().path("rateLimits"), "rateLimits", "perUser")
                .section("perUser", "perMinute", "perHour");
        ConfigProblem problem = org.junit.jupiter.api.Assertions.assertThrows(
                ConfigProblem.class, () -> limits.integer("perMinute", 20, 0));
        assertThat(explained(file, problem))
                .isEqualTo("baton.yaml:8: rateLimits.perUser.perMinute must be a whole number >= 0, got 'many'");
    }

    @Test
    void a_key_of_a_list_item_is_reported_at_its_own_line() {
        ConfigFile file = ConfigFile.parse(YAML, "baton.yaml");
        var second = file.root().path("assignments").get(1);
        ConfigProblem problem = org.junit.jupiter.api.Assertions.assertThrows(
                ConfigProblem.class, () -> ConfigSection.of(second, "assignments[1]", "id", "agentId"));
        assertThat(explained(file, problem))
                .isEqualTo("baton.yaml:13: unknown key 'agnetId' in assignments[1] (did you mean 'agentId'?)");
    }

    @Test
    void a_section_that_is_not_a_mapping_is_reported_where_it_starts() {
        ConfigFile file = ConfigFile.parse("server:\n  port: 1\nbudgets: [1, 2]\n", "baton.yaml");
        ConfigProblem problem = org.junit.jupiter.api.Assertions.assertThrows(
                ConfigProblem.class, () -> ConfigSection.of(file.root().path("budgets"), "budgets", "perUser"));
        assertThat(explained(file, problem)).startsWith("baton.yaml:3: budgets must be a mapping");
    }

    @Test
    void a_key_far_from_every_known_one_gets_no_suggestion() {
        ConfigFile file = ConfigFile.parse("zzzzzz: 1\n", "baton.yaml");
        ConfigProblem problem = org.junit.jupiter.api.Assertions.assertThrows(
                ConfigProblem.class, () -> ConfigSection.of(file.root(), "", "server", "models"));
        assertThat(explained(file, problem)).isEqualTo("baton.yaml:1: unknown key 'zzzzzz'");
    }

    @Test
    void a_key_written_twice_is_an_error_with_its_line() {
        assertThatThrownBy(() -> ConfigFile.parse("server:\n  port: 1\n  port: 2\n", "baton.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("baton.yaml:3: ")
                .hasMessageContaining("port");
    }

    @Test
    void text_that_is_not_yaml_is_an_error_with_its_line() {
        assertThatThrownBy(() -> ConfigFile.parse("server:\n  port: 1\n   bad: [\n", "baton.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("baton.yaml:");
    }

    @Test
    void a_problem_about_another_tree_is_not_explained() {
        ConfigFile file = ConfigFile.parse(YAML, "baton.yaml");
        ConfigFile other = ConfigFile.parse("sever: 1\n", "other.yaml");
        ConfigProblem problem = org.junit.jupiter.api.Assertions.assertThrows(
                ConfigProblem.class, () -> ConfigSection.of(other.root(), "", "server"));
        assertThat(file.explain(problem)).isEmpty();
    }

    @Test
    void a_key_with_nothing_after_it_is_null_as_yaml_says() {
        ConfigFile file = ConfigFile.parse("auth:\n  # jwtSecret: later\nserver:\n  port: 1\n", "baton.yaml");
        assertThat(file.root().get("auth").isNull()).isTrue();
        assertThat(ConfigSection.of(file.root().path("auth"), "auth", "jwtSecret")
                        .isEmpty())
                .isTrue();
    }
}
