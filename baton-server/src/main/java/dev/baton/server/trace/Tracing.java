package dev.baton.server.trace;

import dev.baton.core.trace.TurnTracing;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The server's OpenTelemetry: with tracing on, the SDK set up by its autoconfiguration (so the standard {@code OTEL_*}
 * variables work as everywhere) exporting spans over OTLP; with tracing off, the no-op API and nothing started.
 * Baton's metrics stay on Prometheus ({@code /metrics}) and its logs on stdout, so only traces are exported.
 * Closing flushes the spans not yet sent.
 */
public final class Tracing implements AutoCloseable {
    /** No tracing. */
    public static final Tracing OFF = new Tracing(null, TurnTracing.OFF);

    private final OpenTelemetrySdk sdk;
    private final TurnTracing turns;

    private Tracing(OpenTelemetrySdk sdk, TurnTracing turns) {
        this.sdk = sdk;
        this.turns = turns;
    }

    public static Tracing start(TracingSettings settings) {
        if (!settings.enabled()) return OFF;
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> defaults(settings))
                .disableShutdownHook()
                .build()
                .getOpenTelemetrySdk();
        return new Tracing(sdk, TurnTracing.of(sdk, settings.captureContent()));
    }

    /** What the SDK's own configuration (system properties, then OTEL_* variables) may override. */
    static Map<String, String> defaults(TracingSettings settings) {
        Map<String, String> defaults = new HashMap<>();
        defaults.put("otel.service.name", settings.serviceName());
        defaults.put("otel.traces.exporter", "otlp");
        // the JDK's HttpClient sends OTLP over HTTP; gRPC would need another sender on the class path
        defaults.put("otel.exporter.otlp.protocol", "http/protobuf");
        defaults.put("otel.metrics.exporter", "none");
        defaults.put("otel.logs.exporter", "none");
        if (settings.endpoint() != null)
            defaults.put("otel.exporter.otlp.endpoint", settings.endpoint().toString());
        return defaults;
    }

    public boolean isOn() {
        return sdk != null;
    }

    /** The turns' tracing, for the runtime. */
    public TurnTracing turns() {
        return turns;
    }

    /** The API the front doors read a caller's trace context with; the no-op API when off. */
    public OpenTelemetry openTelemetry() {
        return sdk == null ? OpenTelemetry.noop() : sdk;
    }

    @Override
    public void close() {
        if (sdk != null) sdk.shutdown().join(10, TimeUnit.SECONDS);
    }
}
