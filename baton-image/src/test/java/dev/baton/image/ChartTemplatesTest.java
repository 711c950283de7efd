package dev.baton.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The checks HelmChartTest runs on the chart's templates find what they are there to find. */
class ChartTemplatesTest {

    @Test
    void a_block_without_its_end_an_end_too_many_and_a_lone_brace_are_found() {
        assertThatThrownBy(() -> ChartTemplates.checkBlocks("t", "{{- if .Values.a }}\nx: 1\n"))
                .hasMessageContaining("not closed");
        assertThatThrownBy(() -> ChartTemplates.checkBlocks("t", "{{- with .Values.a }}\n{{- end }}\n{{- end }}\n"))
                .hasMessageContaining("an end closes no block");
        assertThatThrownBy(() -> ChartTemplates.checkBlocks("t", "x: {{ .Values.a }\n"))
                .hasMessageContaining("unbalanced");
        ChartTemplates.checkBlocks(
                "t",
                "{{/* a comment */}}\n{{- if .Values.a }}\n{{- range .Values.b }}\n{{- end }}\n{{- else }}\n{{- end }}\n");
    }

    @Test
    void the_values_paths_of_a_template_are_found_and_looked_up() {
        String template =
                "image: \"{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}\"\n"
                        + "{{- with .Values.nodeSelector }}\n{{- end }}\n";
        assertThat(ChartTemplates.valuePaths(template))
                .containsExactly("image.repository", "image.tag", "nodeSelector");
        Map<String, Object> values = Map.of("image", Map.of("repository", "baton"), "nodeSelector", Map.of());
        assertThat(ChartTemplates.exists(values, "image.repository")).isTrue();
        assertThat(ChartTemplates.exists(values, "nodeSelector")).isTrue();
        assertThat(ChartTemplates.exists(values, "image.tag")).isFalse();
        assertThat(ChartTemplates.exists(values, "image.repository.more")).isFalse();
    }

    @Test
    void stripping_drops_action_lines_and_keeps_the_yaml_around_inline_actions() {
        String template = """
                metadata:
                  name: {{ include "baton.fullname" . }}
                  labels:
                    {{- include "baton.labels" . | nindent 4 }}
                spec:
                  {{- if not .Values.autoscaling.enabled }}
                  replicas: {{ .Values.replicaCount }}
                  {{- end }}
                """;
        Map<String, Object> doc = new Yaml().load(ChartTemplates.strip(template));
        assertThat(doc.get("spec")).isEqualTo(Map.of("replicas", "templated"));
        assertThat(((Map<?, ?>) doc.get("metadata")).get("name")).isEqualTo("templated");
    }
}
