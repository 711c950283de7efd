package dev.baton.server.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import java.net.URI;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code tracing:} section of baton.yaml: whether turns are traced with OpenTelemetry and exported over OTLP.
 * Everything else is the SDK's own standard configuration ({@code OTEL_EXPORTER_OTLP_ENDPOINT},
 * {@code OTEL_SERVICE_NAME}, {@code OTEL_TRACES_EXPORTER}, {@code OTEL_TRACES_SAMPLER}, ...), which wins over the
 * defaults given here.
 *
 * <pre>{@code
 * tracing:
 *   enabled: true            # or BATON_TRACING_ENABLED; off by default
 *   captureContent: false    # or BATON_TRACING_CAPTURE_CONTENT; prompts and answers on the spans (opt-in)
 *   endpoint: http://otel-collector:4318   # the OTLP endpoint unless OTEL_EXPORTER_OTLP_ENDPOINT says otherwise
 *   serviceName: baton       # unless OTEL_SERVICE_NAME says otherwise
 * }</pre>
 *
 * @param endpoint the default OTLP endpoint; null for the SDK's own default (http://localhost:4318, http/protobuf)
 */
public record TracingSettings(boolean enabled, boolean captureContent, URI endpoint, String serviceName) {
    /** The section of baton.yaml this reads. */
    public static final String SECTION = "tracing";

    public static final TracingSettings OFF = new TracingSettings(false, false, null, "baton");

    public TracingSettings {
        serviceName = serviceName == null || serviceName.isBlank() ? "baton" : serviceName.strip();
    }

    /**
     * Reads the section; {@code BATON_TRACING_ENABLED} and {@code BATON_TRACING_CAPTURE_CONTENT} override it.
     *
     * @throws IllegalArgumentException when a value has the wrong type
     */
    public static TracingSettings parse(JsonNode section, Map<String, String> env) {
        ConfigSection.of(section, SECTION, "enabled", "captureContent", "endpoint", "serviceName");
        JsonNode s = section == null || section.isNull() ? MissingNode.getInstance() : section;
        boolean enabled = bool("BATON_TRACING_ENABLED", env, s, "enabled");
        boolean capture = bool("BATON_TRACING_CAPTURE_CONTENT", env, s, "captureContent");
        URI endpoint = null;
        String e = text(s, "endpoint");
        if (e != null) {
            try {
                endpoint = URI.create(e);
            } catch (IllegalArgumentException bad) {
                throw ConfigProblem.at(s, "endpoint", "tracing.endpoint is not a URL: " + e);
            }
            if (!"http".equals(endpoint.getScheme()) && !"https".equals(endpoint.getScheme())) {
                throw ConfigProblem.at(s, "endpoint", "tracing.endpoint must be an http or https URL, got " + e);
            }
        }
        return new TracingSettings(enabled, capture, endpoint, text(s, "serviceName"));
    }

    private static boolean bool(String variable, Map<String, String> env, JsonNode s, String key) {
        String fromEnv = env.get(variable);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return switch (fromEnv.strip().toLowerCase(Locale.ROOT)) {
                case "true", "1", "yes", "on" -> true;
                case "false", "0", "no", "off" -> false;
                default -> throw new IllegalArgumentException(variable + " must be true or false");
            };
        }
        JsonNode v = s.path(key);
        if (v.isMissingNode() || v.isNull()) return false;
        if (!v.isBoolean()) {
            throw ConfigProblem.at(s, key, "tracing." + key + " must be true or false, got '" + v.asText() + "'");
        }
        return v.asBoolean();
    }

    private static String text(JsonNode s, String key) {
        JsonNode v = s.path(key);
        if (v.isMissingNode() || v.isNull()) return null;
        if (!v.isTextual()) throw ConfigProblem.at(s, key, "tracing." + key + " must be a string");
        return v.asText().isBlank() ? null : v.asText().strip();
    }
}
