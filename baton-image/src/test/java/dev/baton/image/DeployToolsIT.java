package dev.baton.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The deployment files checked by the tools that will read them, where the machine has them (Debian's haproxy and
 * docker-compose): HAProxy accepts its configuration, and Compose refuses to start without the secrets and, given
 * them, puts them where the instances read them.
 */
class DeployToolsIT {
    private static final Path DEPLOY = ComposeFileTest.DEPLOY;

    @Test
    void haproxy_accepts_its_configuration() throws Exception {
        assumeThat(Commands.available("haproxy")).as("haproxy is not installed").isTrue();
        Result r =
                run(List.of("haproxy", "-c", "-f", DEPLOY.resolve("haproxy.cfg").toString()), Map.of());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("Configuration file is valid");
    }

    @Test
    void compose_refuses_to_start_without_the_secrets() throws Exception {
        assumeThat(Commands.available("docker-compose"))
                .as("docker-compose is not installed")
                .isTrue();
        Result r = run(compose(), Map.of("POSTGRES_PASSWORD", "pg-pass-1", "REDIS_PASSWORD", "redis-pass-1"));
        assertThat(r.exit()).as(r.output()).isNotZero();
        assertThat(r.output()).contains("set BATON_JWT_SECRET");
    }

    @Test
    @SuppressWarnings("unchecked")
    void compose_puts_the_secrets_from_the_environment_where_the_instances_read_them() throws Exception {
        assumeThat(Commands.available("docker-compose"))
                .as("docker-compose is not installed")
                .isTrue();
        Result r = run(
                compose(),
                Map.of(
                        "POSTGRES_PASSWORD", "pg-pass-1",
                        "REDIS_PASSWORD", "redis-pass-1",
                        "BATON_JWT_SECRET", "a-jwt-secret-of-at-least-thirty-two-bytes"));
        assertThat(r.exit()).as(r.output()).isZero();
        Map<String, Object> config = new Yaml().load(r.output());
        var services = (Map<String, Map<String, Object>>) config.get("services");
        for (String name : List.of("baton-1", "baton-2")) {
            var env = (Map<String, Object>) services.get(name).get("environment");
            assertThat(env)
                    .containsEntry(
                            "BATON_DB_URL", "jdbc:postgresql://postgres:5432/baton?user=baton&password=pg-pass-1")
                    .containsEntry("BATON_REDIS_URL", "redis://:redis-pass-1@redis:6379")
                    .containsEntry("BATON_JWT_SECRET", "a-jwt-secret-of-at-least-thirty-two-bytes");
            assertThat(services.get(name).get("image")).isEqualTo(System.getProperty("image.name"));
        }
    }

    private static List<String> compose() {
        return List.of("docker-compose", "-f", DEPLOY.resolve("compose.yaml").toString(), "config");
    }

    private record Result(int exit, String output) {}

    private static Result run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        for (String name :
                List.of("BATON_JWT_SECRET", "POSTGRES_PASSWORD", "REDIS_PASSWORD", "OPENAI_API_KEY", "BATON_IMAGE")) {
            pb.environment().remove(name);
        }
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        return new Result(p.exitValue(), out);
    }
}
