package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.trace.TurnTracing;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.InMemoryToolPins;
import dev.baton.mcp.support.NodeServer;
import dev.baton.mcp.support.RecordingProxy;
import dev.baton.mcp.support.ToolCalls;
import dev.baton.runtime.config.Yaml;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * server-everything over HTTP: streamable HTTP, the legacy HTTP+SSE transport found by the automatic fallback, a
 * server that restarts (a new session, the interrupted call sent again), configured and identity headers on the wire
 * (and nothing else of the caller's), and a redirect that is refused.
 */
class HttpServersIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    final Principal alice = ToolCalls.user("alice", "mcp:everything");
    final List<AutoCloseable> opened = new ArrayList<>();
    McpClients clients;

    @AfterEach
    void stop() throws Exception {
        if (clients != null) clients.close();
        for (AutoCloseable c : opened.reversed()) c.close();
    }

    @Test
    void a_streamable_http_server_is_listed_and_called() {
        NodeServer server = opened(NodeServer.everything("streamableHttp", dir));
        ToolCalls calls = connect("url: \"" + server.url("/mcp") + "\"", Duration.ofSeconds(15));

        assertThat(status().wire()).isEqualTo("streamable-http");
        ToolCallOutcome echo = calls.call(alice, "everything__echo", "{\"message\":\"over http\"}");
        assertThat(echo.result().path("text").asText()).contains("over http");
    }

    @Test
    void a_legacy_sse_server_is_found_by_the_automatic_fallback() {
        NodeServer server = opened(NodeServer.everything("sse", dir));
        ToolCalls calls = connect("url: \"" + server.url("/sse") + "\"", Duration.ofSeconds(15));

        assertThat(status().up()).isTrue();
        assertThat(status().wire()).isEqualTo("sse");
        assertThat(calls.call(alice, "everything__get-sum", "{\"a\":1,\"b\":2}")
                        .result()
                        .path("text")
                        .asText())
                .contains("3");
    }

    @Test
    void a_server_that_restarted_unnoticed_gets_a_new_session_and_the_call_is_sent_again() {
        NodeServer server = opened(NodeServer.everything("streamableHttp", dir));
        // a health check too rare to notice the restart: the call itself must find out
        ToolCalls calls = connect("url: \"" + server.url("/mcp") + "\"", Duration.ofMinutes(10));
        assertThat(calls.call(alice, "everything__echo", "{\"message\":\"one\"}")
                        .state())
                .isEqualTo(ToolCallState.SUCCEEDED);

        server.kill();
        server.start();

        ToolCallOutcome after = calls.call(alice, "everything__echo", "{\"message\":\"two\"}");
        assertThat(after.state()).isEqualTo(ToolCallState.SUCCEEDED);
        assertThat(after.result().path("text").asText()).contains("two");
        assertThat(status().restarts()).isEqualTo(1);
    }

    @Test
    void a_server_that_is_down_fails_calls_fast_and_is_reconnected_when_it_is_back() {
        NodeServer server = opened(NodeServer.everything("streamableHttp", dir));
        ToolCalls calls = connect("url: \"" + server.url("/mcp") + "\"", Duration.ofMillis(500));

        server.kill();
        await().atMost(Duration.ofSeconds(10)).until(() -> !status().up());
        long started = System.nanoTime();
        ToolCallOutcome during = calls.call(alice, "everything__echo", "{\"message\":\"down\"}");
        assertThat(during.state()).isEqualTo(ToolCallState.FAILED);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));

        server.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> status().up());
        assertThat(calls.call(alice, "everything__echo", "{\"message\":\"back\"}")
                        .state())
                .isEqualTo(ToolCallState.SUCCEEDED);
    }

    @Test
    void a_traced_call_is_a_tools_call_client_span_under_its_tool_span_and_the_server_gets_its_traceparent() {
        NodeServer server = opened(NodeServer.everything("streamableHttp", dir));
        RecordingProxy proxy = opened(RecordingProxy.to(URI.create(server.url("/"))));
        ToolCalls calls = connect("url: \"" + proxy.url("/mcp") + "\"", Duration.ofSeconds(15));
        InMemorySpanExporter exported = InMemorySpanExporter.create();
        OpenTelemetrySdk otel = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(exported))
                        .build())
                .build();
        TurnTracing tracing = TurnTracing.of(otel, false);
        Span turn = otel.getTracer("test").spanBuilder("turn").startSpan();

        ToolCallOutcome echo;
        try (Scope ignored = tracing.storeIn(Context.current().with(turn)).makeCurrent()) {
            echo = calls.call(alice, "everything__echo", "{\"message\":\"traced\"}");
        } finally {
            turn.end();
        }

        assertThat(echo.state()).isEqualTo(ToolCallState.SUCCEEDED);
        SpanData tool = exported.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("execute_tool everything__echo"))
                .findFirst()
                .orElseThrow();
        SpanData mcp = exported.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals("tools/call echo"))
                .findFirst()
                .orElseThrow();
        assertThat(tool.getParentSpanId()).isEqualTo(turn.getSpanContext().getSpanId());
        assertThat(mcp.getParentSpanId()).isEqualTo(tool.getSpanId());
        assertThat(mcp.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(mcp.getAttributes().get(AttributeKey.stringKey("mcp.method.name")))
                .isEqualTo("tools/call");
        assertThat(mcp.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.name")))
                .isEqualTo("echo");
        assertThat(mcp.getAttributes().get(AttributeKey.stringKey("network.transport")))
                .isEqualTo("tcp");
        RecordingProxy.Seen call = proxy.seen().stream()
                .filter(RecordingProxy.Seen::isToolCall)
                .findFirst()
                .orElseThrow();
        assertThat(call.header("traceparent")).startsWith("00-" + mcp.getTraceId() + "-" + mcp.getSpanId() + "-");
        // the handshake and the listing belong to no turn: they carry no trace
        assertThat(proxy.seen().stream().filter(s -> !s.isToolCall()))
                .allSatisfy(s -> assertThat(s.header("traceparent")).isNull());
    }

    @Test
    void configured_headers_and_identity_headers_reach_the_server_and_nothing_of_the_callers_else() {
        NodeServer server = opened(NodeServer.everything("streamableHttp", dir));
        RecordingProxy proxy = opened(RecordingProxy.to(URI.create(server.url("/"))));
        ToolCalls calls = connect("""
                url: "%s"
                headers: { X-Api-Key: "${TODO_KEY}" }
                identity: { userHeader: X-Baton-User, tenantHeader: X-Baton-Tenant }
                """.formatted(proxy.url("/mcp")), Duration.ofSeconds(15));

        assertThat(calls.call(alice, "everything__echo", "{\"message\":\"hi\"}").state())
                .isEqualTo(ToolCallState.SUCCEEDED);

        assertThat(proxy.seen()).allSatisfy(seen -> {
            assertThat(seen.header("X-Api-Key")).isEqualTo("key-from-env");
            assertThat(seen.header("Authorization")).isNull();
            assertThat(seen.header("Cookie")).isNull();
        });
        RecordingProxy.Seen call = proxy.seen().stream()
                .filter(RecordingProxy.Seen::isToolCall)
                .findFirst()
                .orElseThrow();
        assertThat(call.header("X-Baton-User")).isEqualTo("alice");
        assertThat(call.header("X-Baton-Tenant")).isEqualTo("acme");
        // the caller is only named on the calls made for them, not on the handshake or the tool listing
        assertThat(proxy.seen().stream().filter(s -> !s.isToolCall()))
                .allSatisfy(s -> assertThat(s.header("X-Baton-User")).isNull());
    }

    @Test
    void a_call_baton_gives_up_on_is_cancelled_on_the_server() throws Exception {
        NodeServer server = opened(NodeServer.everything("streamableHttp", dir));
        RecordingProxy proxy = opened(RecordingProxy.to(URI.create(server.url("/"))));
        ToolCalls calls = connect("url: \"" + proxy.url("/mcp") + "\"\ntrusted: true", Duration.ofSeconds(15));

        ToolCallOutcome gaveUp = calls.call(
                alice,
                "everything__trigger-long-running-operation",
                "{\"duration\":60,\"steps\":2}",
                Duration.ofSeconds(2));

        assertThat(gaveUp.state()).isNotEqualTo(ToolCallState.SUCCEEDED);
        RecordingProxy.Seen call = proxy.seen().stream()
                .filter(RecordingProxy.Seen::isToolCall)
                .findFirst()
                .orElseThrow();
        JsonNode id = JSON.readTree(call.body()).path("id");
        assertThat(id.isMissingNode()).isFalse();
        // the server is told, on the same session, which request Baton no longer waits for
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(proxy.seen().stream()
                                .filter(s -> s.body().contains("notifications/cancelled"))
                                .map(s -> readTree(s.body()))
                                .filter(n -> n.at("/params/requestId").equals(id))
                                .toList())
                        .hasSize(1));
        RecordingProxy.Seen cancelled = proxy.seen().stream()
                .filter(s -> s.body().contains("notifications/cancelled"))
                .findFirst()
                .orElseThrow();
        assertThat(cancelled.header("Mcp-Session-Id")).isEqualTo(call.header("Mcp-Session-Id"));
    }

    private static JsonNode readTree(String body) {
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            throw new AssertionError(body, e);
        }
    }

    @Test
    void a_redirect_to_another_host_is_never_followed() {
        NodeServer server = opened(NodeServer.everything("streamableHttp", dir));
        RecordingProxy target = opened(RecordingProxy.to(URI.create(server.url("/"))));
        RecordingProxy redirecting = opened(RecordingProxy.redirectingTo(target.url("/mcp")));

        connect("url: \"" + redirecting.url("/mcp") + "\"\ntimeout: 2s", Duration.ofSeconds(15));

        assertThat(status().up()).isFalse();
        assertThat(redirecting.seen()).isNotEmpty();
        assertThat(target.seen()).isEmpty();
    }

    private ToolCalls connect(String serverYaml, Duration healthCheck) {
        String yaml = "restartDelay: 300ms\nhealthCheck: " + healthCheck.toMillis() + "ms\nservers:\n  everything:\n"
                + (serverYaml + "\nstate: shared\nsharedWith: [tester]")
                        .lines()
                        .map(l -> "    " + l)
                        .reduce("", (a, b) -> a + b + "\n");
        McpSettings settings = McpSettings.parse(Yaml.parse(yaml), Map.of("TODO_KEY", "key-from-env"));
        clients = McpClients.start(settings, new InMemoryToolPins(), Clock.systemUTC());
        assertThat(clients.awaitFirstAttempts(Duration.ofSeconds(30))).isTrue();
        return new ToolCalls(clients.toolSources(), List.of("mcp:everything/*"), Clock.systemUTC());
    }

    private ServerStatus status() {
        return clients.status().getFirst();
    }

    private <T extends AutoCloseable> T opened(T resource) {
        opened.add(resource);
        return resource;
    }
}
