package dev.baton.server.it;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A collector in the test: an HTTP server taking OTLP/HTTP trace exports ({@code POST /v1/traces}, a protobuf
 * {@code ExportTraceServiceRequest}) and keeping every span it decoded, the way a real collector receives them.
 */
final class OtlpReceiver implements AutoCloseable {

    /** One received span, ids in lower-case hex ("" for no parent), attribute values as Java values. */
    record ReceivedSpan(
            String traceId,
            String spanId,
            String parentSpanId,
            String name,
            Span.SpanKind kind,
            Map<String, Object> attributes,
            Status.StatusCode status,
            long startNanos,
            Map<String, Object> resource) {

        Object attribute(String key) {
            return attributes.get(key);
        }
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    static OtlpReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            OtlpReceiver receiver = new OtlpReceiver(server);
            server.createContext("/v1/traces", exchange -> {
                try (exchange) {
                    byte[] body;
                    try (InputStream in = exchange.getRequestBody()) {
                        body = in.readAllBytes();
                    }
                    receiver.contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
                    receiver.take(ExportTraceServiceRequest.parseFrom(body));
                    byte[] answer =
                            ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                    exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                    exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(answer);
                    }
                }
            });
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The OTLP endpoint to configure (the exporter adds {@code /v1/traces}). */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    List<String> contentTypes() {
        return List.copyOf(contentTypes);
    }

    /** The spans of one trace, oldest first. */
    List<ReceivedSpan> trace(String traceId) {
        List<ReceivedSpan> trace = new ArrayList<>();
        for (ReceivedSpan s : spans) if (s.traceId().equals(traceId)) trace.add(s);
        trace.sort(java.util.Comparator.comparingLong(ReceivedSpan::startNanos));
        return trace;
    }

    /** The children of {@code parent}, oldest first. */
    List<ReceivedSpan> children(ReceivedSpan parent) {
        return trace(parent.traceId()).stream()
                .filter(s -> s.parentSpanId().equals(parent.spanId()))
                .toList();
    }

    private void take(ExportTraceServiceRequest request) {
        HexFormat hex = HexFormat.of();
        for (ResourceSpans rs : request.getResourceSpansList()) {
            Map<String, Object> resource = attributes(rs.getResource());
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (Span s : ss.getSpansList()) {
                    spans.add(new ReceivedSpan(
                            hex.formatHex(s.getTraceId().toByteArray()),
                            hex.formatHex(s.getSpanId().toByteArray()),
                            hex.formatHex(s.getParentSpanId().toByteArray()),
                            s.getName(),
                            s.getKind(),
                            attributes(s.getAttributesList()),
                            s.getStatus().getCode(),
                            s.getStartTimeUnixNano(),
                            resource));
                }
            }
        }
    }

    private static Map<String, Object> attributes(Resource resource) {
        return attributes(resource.getAttributesList());
    }

    private static Map<String, Object> attributes(List<KeyValue> list) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (KeyValue kv : list) out.put(kv.getKey(), value(kv.getValue()));
        return out;
    }

    private static Object value(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case INT_VALUE -> v.getIntValue();
            case BOOL_VALUE -> v.getBoolValue();
            case DOUBLE_VALUE -> v.getDoubleValue();
            case ARRAY_VALUE ->
                v.getArrayValue().getValuesList().stream()
                        .map(OtlpReceiver::value)
                        .toList();
            default -> v.toString();
        };
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
