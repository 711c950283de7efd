package dev.baton.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/helm/baton checked without Helm: Chart.yaml's fields, values.yaml against values.schema.json, and each
 * template's structure (blocks, the values it reads, the YAML around its actions). What only Helm and a cluster can
 * check — the rendered manifests, Kubernetes' own schemas, an install — is not checked here (docs/deploy.md).
 */
class HelmChartTest {
    private static final Path CHART = ComposeFileTest.DEPLOY.resolve("helm/baton");
    private static final String VERSION = System.getProperty("image.name")
            .substring(System.getProperty("image.name").indexOf(':') + 1);

    static Map<String, Object> values;
    static Schema schema;

    @BeforeAll
    static void read() throws IOException {
        values = new Yaml().load(Files.readString(CHART.resolve("values.yaml")));
        schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                .getSchema(Files.readString(CHART.resolve("values.schema.json")), InputFormat.JSON);
    }

    @Test
    void chart_yaml_is_a_helm_3_application_chart_of_this_version() throws IOException {
        Map<String, Object> chart = new Yaml().load(Files.readString(CHART.resolve("Chart.yaml")));
        assertThat(chart).containsEntry("apiVersion", "v2").containsEntry("name", "baton");
        assertThat(chart).containsEntry("type", "application").containsKey("description");
        assertThat((String) chart.get("version")).matches("\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?");
        assertThat(chart).containsEntry("appVersion", VERSION);
    }

    @Test
    void values_yaml_passes_its_schema() throws IOException {
        List<Error> errors = schema.validate(Files.readString(CHART.resolve("values.yaml")), InputFormat.YAML);
        assertThat(errors).isEmpty();
    }

    @Test
    void the_schema_refuses_a_wrong_type_an_unknown_key_and_a_root_pod() {
        assertThat(schema.validate("replicaCount: two\n" + required(), InputFormat.YAML))
                .extracting(Error::getInstanceLocation)
                .extracting(Object::toString)
                .anyMatch(l -> l.contains("replicaCount"));
        assertThat(schema.validate("replicas: 2\nreplicaCount: 2\n" + required(), InputFormat.YAML))
                .isNotEmpty();
        assertThat(schema.validate(
                        "replicaCount: 2\n" + required().replace("runAsNonRoot: true", "runAsNonRoot: false"),
                        InputFormat.YAML))
                .isNotEmpty();
        assertThat(schema.validate("replicaCount: 2\n" + required(), InputFormat.YAML))
                .as("the minimal values the three cases above change")
                .isEmpty();
    }

    @Test
    void the_pods_run_as_the_images_non_root_user_with_probes_and_resources() {
        Map<?, ?> pod = (Map<?, ?>) values.get("podSecurityContext");
        assertThat(pod.get("runAsNonRoot")).isEqualTo(true);
        assertThat(pod.get("runAsUser")).isEqualTo(Integer.parseInt(System.getProperty("image.uid", "65532")));
        assertThat(ChartTemplates.exists(values, "resources.limits.memory")).isTrue();
        assertThat(ChartTemplates.exists(values, "podDisruptionBudget.enabled")).isTrue();
        assertThat(((Map<?, ?>) values.get("autoscaling")).get("enabled")).isEqualTo(false);
    }

    @Test
    void every_template_closes_its_blocks_reads_only_values_that_exist_and_is_yaml_around_its_actions()
            throws IOException {
        List<Path> templates;
        try (Stream<Path> files = Files.list(CHART.resolve("templates"))) {
            templates = files.sorted().toList();
        }
        assertThat(templates)
                .extracting(p -> p.getFileName().toString())
                .contains(
                        "_helpers.tpl",
                        "deployment.yaml",
                        "service.yaml",
                        "configmap.yaml",
                        "pdb.yaml",
                        "hpa.yaml",
                        "NOTES.txt");
        List<String> kinds = new ArrayList<>();
        for (Path template : templates) {
            String name = template.getFileName().toString();
            String text = Files.readString(template);
            ChartTemplates.checkBlocks(name, text);
            for (String path : ChartTemplates.valuePaths(text)) {
                assertThat(ChartTemplates.exists(values, path))
                        .as(name + " reads .Values." + path + ", which values.yaml does not have")
                        .isTrue();
            }
            if (name.endsWith(".yaml")) {
                Map<String, Object> doc = new Yaml().load(ChartTemplates.strip(text));
                assertThat(doc).as(name).containsKeys("apiVersion", "kind", "metadata");
                assertThat(doc).as(name).containsKey(name.equals("configmap.yaml") ? "data" : "spec");
                kinds.add((String) doc.get("kind"));
            }
        }
        assertThat(kinds)
                .containsExactlyInAnyOrder(
                        "ConfigMap", "Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Service");
    }

    @Test
    @SuppressWarnings("unchecked")
    void the_deployment_probes_readyz_and_healthz_and_reads_its_connections_from_the_secret() throws IOException {
        String text = Files.readString(CHART.resolve("templates/deployment.yaml"));
        Map<String, Object> deployment = new Yaml().load(ChartTemplates.strip(text));
        Map<String, Object> spec = (Map<String, Object>) deployment.get("spec");
        Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) spec.get("template")).get("spec");
        Map<String, Object> container = ((List<Map<String, Object>>) pod.get("containers")).get(0);
        assertThat(text).contains("replicas: {{ .Values.replicaCount }}");
        assertThat(path(container, "readinessProbe")).containsEntry("path", "/readyz");
        assertThat(path(container, "livenessProbe")).containsEntry("path", "/healthz");
        assertThat(container).containsKeys("resources", "securityContext", "startupProbe");
        Map<String, Object> fromSecret = new java.util.LinkedHashMap<>();
        for (Map<String, Object> env : (List<Map<String, Object>>) container.get("env")) {
            Object valueFrom = env.get("valueFrom");
            if (valueFrom instanceof Map<?, ?> v && v.get("secretKeyRef") != null) {
                fromSecret.put((String) env.get("name"), v.get("secretKeyRef"));
            }
        }
        assertThat(fromSecret)
                .containsOnlyKeys(
                        "BATON_DB_URL", "BATON_REDIS_URL", "BATON_JWT_SECRET", "BATON_JWT_JWKS_URL", "OPENAI_API_KEY");
        assertThat((Map<String, Object>) fromSecret.get("BATON_DB_URL")).doesNotContainKey("optional");
        assertThat(text).contains("name: OTEL_EXPORTER_OTLP_ENDPOINT", "value: {{ .Values.otel.endpoint | quote }}");
        assertThat(((List<Map<String, Object>>) container.get("volumeMounts")))
                .extracting(m -> m.get("mountPath"))
                .contains("/data", "/tmp");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> path(Map<String, Object> container, String probe) {
        return (Map<String, Object>) ((Map<String, Object>) container.get(probe)).get("httpGet");
    }

    /** The smallest values the schema accepts, but for replicaCount. */
    private static String required() {
        return """
                image: {repository: baton, pullPolicy: IfNotPresent}
                secret:
                  name: baton
                  keys: {databaseUrl: a, redisUrl: b, jwtSecret: c, jwksUrl: d, openaiApiKey: e}
                service: {type: ClusterIP, port: 80}
                resources: {}
                probes:
                  startup: {periodSeconds: 5, failureThreshold: 3}
                  readiness: {periodSeconds: 5, failureThreshold: 3}
                  liveness: {periodSeconds: 5, failureThreshold: 3}
                podSecurityContext: {runAsNonRoot: true}
                """;
    }
}
