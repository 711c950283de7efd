package dev.baton.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/compose.yaml read by SnakeYAML (which resolves its anchors and merge keys as Compose does): the services a
 * scaled-out Baton needs, started in order of health, the image the build makes, and no secret written in the file.
 */
class ComposeFileTest {
    static final Path DEPLOY = Path.of(System.getProperty("deploy.dir", "../deploy"));
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Z_][A-Z0-9_]*)(:?[-?])?([^}]*)}");
    private static final Pattern SECRET_NAME = Pattern.compile(".*(SECRET|PASSWORD|API_KEY|TOKEN).*");

    static Map<String, Object> compose;
    static Map<String, Map<String, Object>> services;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void read() throws IOException {
        compose = new Yaml().load(Files.readString(DEPLOY.resolve("compose.yaml")));
        services = (Map<String, Map<String, Object>>) compose.get("services");
    }

    @Test
    void it_runs_postgres_redis_two_baton_instances_and_a_load_balancer() {
        assertThat(services).containsOnlyKeys("postgres", "redis", "baton-1", "baton-2", "haproxy");
    }

    @Test
    @SuppressWarnings("unchecked")
    void each_instance_runs_the_image_the_build_makes_and_waits_for_a_healthy_database_and_redis() {
        for (String name : List.of("baton-1", "baton-2")) {
            Map<String, Object> baton = services.get(name);
            Matcher image = REFERENCE.matcher((String) baton.get("image"));
            assertThat(image.matches()).as(name + "'s image").isTrue();
            assertThat(image.group(1)).isEqualTo("BATON_IMAGE");
            assertThat(image.group(3)).as("the default image").isEqualTo(System.getProperty("image.name"));
            Map<String, Map<String, String>> dependsOn = map(baton.get("depends_on"));
            assertThat(dependsOn).containsOnlyKeys("postgres", "redis");
            dependsOn.forEach((service, how) -> {
                assertThat(how).containsEntry("condition", "service_healthy");
                assertThat(map(services.get(service).get("healthcheck")))
                        .as(service + " has the health check that condition waits on")
                        .containsKey("test");
            });
            assertThat((List<Object>) baton.get("volumes")).containsExactly(name + "-data:/data");
            Map<String, String> env = map(baton.get("environment"));
            assertThat(env.get("BATON_DB_URL")).startsWith("jdbc:postgresql://postgres:5432/baton?");
            assertThat(env.get("BATON_REDIS_URL")).contains("@redis:6379");
        }
        assertThat(map(services.get("haproxy").get("depends_on"))).containsOnlyKeys("baton-1", "baton-2");
    }

    @Test
    void every_secret_comes_from_the_environment_and_the_required_ones_stop_the_start_when_unset() {
        int secrets = 0;
        for (var service : services.entrySet()) {
            Map<String, String> env = map(service.getValue().getOrDefault("environment", Map.of()));
            for (var e : env.entrySet()) {
                String value = String.valueOf(e.getValue());
                if (SECRET_NAME.matcher(e.getKey()).matches()) {
                    secrets++;
                    Matcher m = REFERENCE.matcher(value);
                    assertThat(m.matches())
                            .as(service.getKey() + "." + e.getKey() + " is a variable, not a value: " + value)
                            .isTrue();
                }
                // a URL's password is a variable too
                assertThat(value.replaceAll(REFERENCE.pattern(), "")).doesNotContainPattern(":[^/@:]+@");
            }
        }
        assertThat(secrets).isGreaterThanOrEqualTo(5);
        Map<String, String> baton = map(services.get("baton-1").get("environment"));
        assertThat(baton.get("BATON_JWT_SECRET")).startsWith("${BATON_JWT_SECRET:?");
        assertThat(baton.get("BATON_DB_URL")).contains("password=${POSTGRES_PASSWORD:?");
        assertThat(baton.get("BATON_REDIS_URL")).startsWith("redis://:${REDIS_PASSWORD:?");
        assertThat(ComposeFileTest.<String>map(services.get("postgres").get("environment"))
                        .get("POSTGRES_PASSWORD"))
                .startsWith("${POSTGRES_PASSWORD:?");
    }

    @Test
    @SuppressWarnings("unchecked")
    void the_load_balancer_checks_readiness_of_every_instance_it_balances() throws IOException {
        Map<String, Object> haproxy = services.get("haproxy");
        assertThat((List<Object>) haproxy.get("volumes"))
                .contains("./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro");
        List<String> cfg = Files.readAllLines(DEPLOY.resolve("haproxy.cfg")).stream()
                .map(String::trim)
                .toList();
        assertThat(cfg)
                .contains("option httpchk", "http-check send meth GET uri /readyz", "http-check expect status 200");
        assertThat(cfg).anyMatch(l -> l.startsWith("default-server check "));
        List<String> servers = cfg.stream().filter(l -> l.startsWith("server ")).toList();
        assertThat(servers).containsExactly("server baton-1 baton-1:8080", "server baton-2 baton-2:8080");
    }

    @SuppressWarnings("unchecked")
    private static <T> Map<String, T> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, T>) o;
    }
}
