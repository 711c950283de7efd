package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Anthropic Messages and Ollama chat wires, and Azure's path, driven by the same script as OpenAI's. */
class WireProtocolsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(10);

    private LlmSimulator sim;
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** One named SSE event. */
    record Event(String name, JsonNode data) {}

    @BeforeEach
    void start() {
        sim = LlmSimulator.start(SimulatorScript.builder()
                .whenUserMatches("weather in (\\w+)", Reply.toolCall("get_weather", "{\"city\":\"$1\",\"days\":[1,2]}"))
                .whenToolResult("get_weather", Reply.text("Sunny, says $0"))
                .fallback("The quick brown fox jumps.")
                .build());
    }

    @AfterEach
    void stop() {
        http.shutdownNow();
        sim.close();
    }

    private static String anthropicBody(boolean stream, String... userThenToolResult) {
        var root = JSON.createObjectNode().put("model", "claude-test").put("max_tokens", 100);
        root.put("stream", stream);
        root.putArray("system").addObject().put("type", "text").put("text", "Be brief.");
        var messages = root.putArray("messages");
        messages.addObject().put("role", "user").put("content", userThenToolResult[0]);
        if (userThenToolResult.length > 1) {
            var assistant = messages.addObject().put("role", "assistant").putArray("content");
            var use = assistant
                    .addObject()
                    .put("type", "tool_use")
                    .put("id", "toolu_9")
                    .put("name", "get_weather");
            use.putObject("input").put("city", "Oslo");
            var result =
                    messages.addObject().put("role", "user").putArray("content").addObject();
            result.put("type", "tool_result").put("tool_use_id", "toolu_9").put("content", userThenToolResult[1]);
        }
        root.putArray("tools")
                .addObject()
                .put("name", "get_weather")
                .putObject("input_schema")
                .put("type", "object");
        return root.toString();
    }

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(sim.rootUrl() + path))
                .timeout(WAIT)
                .header("Content-Type", "application/json");
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(
                request.POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<Event> events(String body) throws IOException {
        var events = new ArrayList<Event>();
        for (var block : body.split("\n\n")) {
            String name = null;
            String data = null;
            for (var line : block.split("\n")) {
                if (line.startsWith("event: ")) {
                    name = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
            if (name != null) {
                events.add(new Event(name, JSON.readTree(data)));
            }
        }
        return events;
    }

    @Test
    void an_anthropic_stream_of_a_tool_call_has_the_messages_event_sequence_and_split_input_json() throws Exception {
        var response = post(
                "/v1/messages",
                anthropicBody(true, "weather in Oslo"),
                "x-api-key",
                "sk-ant",
                "anthropic-version",
                "2023-06-01");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        var events = events(response.body());
        assertThat(events.getFirst().name()).isEqualTo("message_start");
        assertThat(events.getFirst()
                        .data()
                        .path("message")
                        .path("usage")
                        .path("input_tokens")
                        .asInt())
                .isPositive();
        var names = events.stream().map(Event::name).distinct().toList();
        assertThat(names)
                .containsSubsequence(
                        "message_start",
                        "content_block_start",
                        "content_block_delta",
                        "content_block_stop",
                        "message_delta",
                        "message_stop");
        var start = events.stream()
                .filter(e -> e.name().equals("content_block_start"))
                .findFirst()
                .orElseThrow();
        assertThat(start.data().path("content_block").path("type").asText()).isEqualTo("tool_use");
        assertThat(start.data().path("content_block").path("name").asText()).isEqualTo("get_weather");
        var fragments = events.stream()
                .filter(e -> e.name().equals("content_block_delta"))
                .map(e -> e.data().path("delta"))
                .toList();
        assertThat(fragments)
                .hasSizeGreaterThan(2)
                .allSatisfy(d -> assertThat(d.path("type").asText()).isEqualTo("input_json_delta"));
        var json = new StringBuilder();
        fragments.forEach(d -> json.append(d.path("partial_json").asText()));
        assertThat(JSON.readTree(json.toString())).isEqualTo(JSON.readTree("{\"city\":\"Oslo\",\"days\":[1,2]}"));
        var messageDelta = events.get(events.size() - 2).data();
        assertThat(messageDelta.path("delta").path("stop_reason").asText()).isEqualTo("tool_use");
        assertThat(messageDelta.path("usage").path("output_tokens").asInt()).isPositive();

        var recorded = sim.awaitRequest(0, WAIT);
        assertThat(recorded.protocol()).isEqualTo(WireProtocol.ANTHROPIC_MESSAGES);
        assertThat(recorded.header("x-api-key")).contains("sk-ant");
        assertThat(recorded.header("anthropic-version")).contains("2023-06-01");
        assertThat(recorded.toolNames()).containsExactly("get_weather");
        assertThat(recorded.messages().getFirst().path("content").asText()).isEqualTo("Be brief.");
    }

    @Test
    void an_anthropic_tool_result_drives_the_same_rule_as_an_openai_tool_message() throws Exception {
        var response = post("/v1/messages", anthropicBody(false, "weather in Oslo", "{\"sky\":\"clear\"}"));

        var message = JSON.readTree(response.body());
        assertThat(message.path("type").asText()).isEqualTo("message");
        assertThat(message.path("content").path(0).path("text").asText()).isEqualTo("Sunny, says {\"sky\":\"clear\"}");
        assertThat(message.path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(message.path("usage").path("output_tokens").asInt()).isPositive();
        var recorded = sim.awaitRequest(0, WAIT);
        assertThat(recorded.lastRole()).isEqualTo("tool");
        assertThat(recorded.lastToolResult()).hasValueSatisfying(r -> {
            assertThat(r.toolCallId()).isEqualTo("toolu_9");
            assertThat(r.toolName()).isEqualTo("get_weather");
        });
        assertThat(recorded.lastUserMessage()).isEqualTo("weather in Oslo");
    }

    @Test
    void anthropic_faults_come_in_anthropic_form() throws Exception {
        sim.enqueueFault(Fault.overloaded());
        sim.enqueueFault(Fault.rateLimited(4));
        sim.enqueueFault(Fault.http500());
        sim.enqueueFault(Fault.overloadedMidStream(1));

        var overloaded = post("/v1/messages", anthropicBody(true, "hi"));
        var limited = post("/v1/messages", anthropicBody(true, "hi"));
        var failed = post("/v1/messages", anthropicBody(true, "hi"));
        var midStream = post("/v1/messages", anthropicBody(true, "hi"));

        assertThat(overloaded.statusCode()).isEqualTo(529);
        assertThat(JSON.readTree(overloaded.body()).path("error").path("type").asText())
                .isEqualTo("overloaded_error");
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("retry-after")).contains("4");
        assertThat(JSON.readTree(limited.body()).path("error").path("type").asText())
                .isEqualTo("rate_limit_error");
        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(JSON.readTree(failed.body()).path("error").path("type").asText())
                .isEqualTo("api_error");
        var events = events(midStream.body());
        assertThat(events.stream().filter(e -> e.name().equals("content_block_delta")))
                .hasSize(1);
        assertThat(events.getLast().name()).isEqualTo("error");
        assertThat(events.getLast().data().path("error").path("type").asText()).isEqualTo("overloaded_error");
        assertThat(events).noneMatch(e -> e.name().equals("message_stop"));
    }

    @Test
    void ollama_streams_ndjson_lines_ending_with_done_and_the_token_counts() throws Exception {
        var body = """
                {"model":"llama3.1","messages":[{"role":"user","content":"hello"}]}""";

        var response = post("/api/chat", body);

        assertThat(response.headers().firstValue("content-type")).contains("application/x-ndjson");
        var lines = response.body().strip().lines().map(WireProtocolsIT::json).toList();
        assertThat(lines).hasSizeGreaterThan(2);
        var text = new StringBuilder();
        lines.forEach(l -> text.append(l.path("message").path("content").asText()));
        assertThat(text.toString()).isEqualTo("The quick brown fox jumps.");
        assertThat(lines.subList(0, lines.size() - 1))
                .allSatisfy(l -> assertThat(l.path("done").asBoolean()).isFalse());
        var last = lines.getLast();
        assertThat(last.path("done").asBoolean()).isTrue();
        assertThat(last.path("done_reason").asText()).isEqualTo("stop");
        assertThat(last.path("prompt_eval_count").asInt()).isPositive();
        assertThat(last.path("eval_count").asInt()).isPositive();
    }

    @Test
    void ollama_tool_calls_carry_object_arguments_and_results_are_matched_by_position() throws Exception {
        var call = JSON.readTree(post("/api/chat", """
                {"model":"llama3.1","stream":false,"messages":[{"role":"user","content":"weather in Lima"}]}""").body())
                .path("message")
                .path("tool_calls")
                .path(0)
                .path("function");
        var answer = JSON.readTree(post("/api/chat", """
                {"model":"llama3.1","stream":false,"messages":[{"role":"user","content":"weather in Lima"},
                 {"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Lima"}}}]},
                 {"role":"tool","content":"warm"}]}""").body());

        assertThat(call.path("name").asText()).isEqualTo("get_weather");
        assertThat(call.path("arguments").path("city").asText()).isEqualTo("Lima");
        assertThat(answer.path("message").path("content").asText()).isEqualTo("Sunny, says warm");
        assertThat(sim.awaitRequest(1, WAIT).lastToolResult())
                .hasValueSatisfying(r -> assertThat(r.toolName()).isEqualTo("get_weather"));
    }

    @Test
    void the_azure_deployment_path_is_the_openai_wire_and_its_api_key_and_version_are_recorded() throws Exception {
        var response = post(
                "/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21",
                "{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}",
                "api-key",
                "az-key");

        assertThat(JSON.readTree(response.body()).path("object").asText()).isEqualTo("chat.completion");
        var recorded = sim.awaitRequest(0, WAIT);
        assertThat(recorded.protocol()).isEqualTo(WireProtocol.OPENAI_CHAT);
        assertThat(recorded.header("api-key")).contains("az-key");
        assertThat(recorded.query()).isEqualTo("api-version=2024-10-21");
        assertThat(recorded.model()).isEqualTo("gpt4o");
    }

    private static JsonNode json(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }
}
