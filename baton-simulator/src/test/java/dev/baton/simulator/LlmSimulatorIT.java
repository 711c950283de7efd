package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LlmSimulatorIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String ANSWER = "The quick brown fox jumps over the lazy dog.";

    private LlmSimulator sim;
    private SimClient client;

    @BeforeEach
    void start() {
        sim = LlmSimulator.start(SimulatorScript.builder()
                .whenUserMatches(
                        "weather in (\\w+)", Reply.toolCall("get_weather", "{\"city\":\"$1\",\"unit\":\"celsius\"}"))
                .whenUserMatches("^note (.+)$", Reply.toolCall("save_note", "{\"text\":\"$1\"}"))
                .whenToolResult("get_weather", Reply.text("It is sunny in $0."))
                .whenUserSays("broken", Reply.fault(Fault.http503()))
                .fallback(ANSWER)
                .build());
        client = new SimClient(sim.baseUrl());
    }

    @AfterEach
    void stop() {
        client.close();
        sim.close();
    }

    @Test
    void base_url_points_at_the_openai_v1_root_on_loopback() {
        assertThat(sim.baseUrl()).isEqualTo("http://127.0.0.1:" + sim.port() + "/v1");
        assertThat(sim.port()).isPositive();
    }

    @Test
    void non_streaming_request_gets_a_chat_completion_with_usage() {
        var body = ChatBody.create().system("Be brief.").user("hello there").json();

        var completion = client.postJson(body);

        assertThat(completion.path("object").asText()).isEqualTo("chat.completion");
        assertThat(completion.path("id").asText()).startsWith("chatcmpl-");
        assertThat(completion.path("model").asText()).isEqualTo("gpt-test");
        var choice = completion.path("choices").path(0);
        assertThat(choice.path("message").path("role").asText()).isEqualTo("assistant");
        assertThat(choice.path("message").path("content").asText()).isEqualTo(ANSWER);
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
        var usage = completion.path("usage");
        // "Be brief." (9) + "hello there" (11) = 20 characters -> 5 tokens; the answer has 44 -> 11
        assertThat(usage.path("prompt_tokens").asInt()).isEqualTo(5);
        assertThat(usage.path("completion_tokens").asInt()).isEqualTo(11);
        assertThat(usage.path("total_tokens").asInt()).isEqualTo(16);
    }

    @Test
    void streamed_text_reassembles_to_the_scripted_reply_and_ends_with_done() {
        var stream = client.stream(ChatBody.create().user("hello").stream(false).json());

        assertThat(stream.status()).isEqualTo(200);
        assertThat(stream.failure()).isNull();
        assertThat(stream.done()).isTrue();
        assertThat(stream.text()).isEqualTo(ANSWER);
        assertThat(stream.contentChunks()).hasSize(9); // one word per delta
        var chunks = stream.chunks();
        assertThat(chunks).allSatisfy(c -> assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk"));
        assertThat(chunks.getFirst()
                        .path("choices")
                        .path(0)
                        .path("delta")
                        .path("role")
                        .asText())
                .isEqualTo("assistant");
        assertThat(chunks.getLast()
                        .path("choices")
                        .path(0)
                        .path("finish_reason")
                        .asText())
                .isEqualTo("stop");
        assertThat(chunks).noneMatch(c -> c.has("usage"));
    }

    @Test
    void chunk_size_groups_words_per_delta() {
        sim.script(SimulatorScript.builder().fallback(ANSWER).chunkSize(3).build());

        var stream = client.stream(ChatBody.create().user("hello").stream(false).json());

        assertThat(stream.text()).isEqualTo(ANSWER);
        assertThat(stream.contentChunks()).hasSize(3);
    }

    @Test
    void usage_chunk_comes_last_and_only_when_asked_for() {
        var stream = client.stream(ChatBody.create().user("hello").stream(true).json());

        assertThat(stream.done()).isTrue();
        var chunks = stream.chunks();
        var last = chunks.getLast();
        assertThat(last.path("choices").isArray()).isTrue();
        assertThat(last.path("choices")).isEmpty();
        assertThat(last.path("usage").path("completion_tokens").asInt()).isEqualTo(11);
        assertThat(last.path("usage").path("total_tokens").asInt())
                .isEqualTo(last.path("usage").path("prompt_tokens").asInt() + 11);
        assertThat(chunks.subList(0, chunks.size() - 1))
                .allSatisfy(c -> assertThat(c.path("usage").isNull()).isTrue());
    }

    @Test
    void streamed_tool_call_arguments_are_split_across_deltas_and_reassemble_into_json() throws IOException {
        var stream =
                client.stream(ChatBody.create().user("What is the weather in Paris?").tools("get_weather").stream(false)
                        .json());

        assertThat(stream.done()).isTrue();
        var calls = stream.contentChunks().stream()
                .map(c -> c.path("choices")
                        .path(0)
                        .path("delta")
                        .path("tool_calls")
                        .path(0))
                .toList();
        var first = calls.getFirst();
        assertThat(first.path("index").asInt()).isZero();
        assertThat(first.path("id").asText()).startsWith("call_");
        assertThat(first.path("type").asText()).isEqualTo("function");
        assertThat(first.path("function").path("name").asText()).isEqualTo("get_weather");
        assertThat(first.path("function").path("arguments").asText()).isEmpty();
        assertThat(calls.size() - 1).as("argument fragments").isGreaterThan(2);
        var arguments = new StringBuilder();
        calls.forEach(c -> arguments.append(c.path("function").path("arguments").asText()));
        assertThat(ChatBody.JSON.readTree(arguments.toString()))
                .isEqualTo(ChatBody.JSON.readTree("{\"city\":\"Paris\",\"unit\":\"celsius\"}"));
        assertThat(stream.chunks()
                        .getLast()
                        .path("choices")
                        .path(0)
                        .path("finish_reason")
                        .asText())
                .isEqualTo("tool_calls");
    }

    @Test
    void non_streaming_tool_call_carries_string_arguments_with_the_regex_capture() throws IOException {
        var completion =
                client.postJson(ChatBody.create().user("weather in Oslo please").json());

        var message = completion.path("choices").path(0).path("message");
        assertThat(message.path("content").isNull()).isTrue();
        var call = message.path("tool_calls").path(0);
        assertThat(call.path("type").asText()).isEqualTo("function");
        assertThat(call.path("function").path("name").asText()).isEqualTo("get_weather");
        assertThat(ChatBody.JSON
                        .readTree(call.path("function").path("arguments").asText())
                        .path("city")
                        .asText())
                .isEqualTo("Oslo");
        assertThat(completion.path("choices").path(0).path("finish_reason").asText())
                .isEqualTo("tool_calls");
    }

    @Test
    void captured_quotes_stay_valid_json_in_tool_arguments() throws IOException {
        var completion =
                client.postJson(ChatBody.create().user("note say \"hi\" \\ bye").json());

        var arguments = completion
                .path("choices")
                .path(0)
                .path("message")
                .path("tool_calls")
                .path(0)
                .path("function")
                .path("arguments")
                .asText();
        assertThat(ChatBody.JSON.readTree(arguments).path("text").asText()).isEqualTo("say \"hi\" \\ bye");
    }

    @Test
    void a_tool_result_is_answered_by_the_tool_result_rule_not_the_user_rule() {
        var body = ChatBody.create()
                .user("weather in Paris")
                .assistantCalls("call_1", "get_weather", "{\"city\":\"Paris\"}")
                .toolResult("call_1", "{\"sky\":\"clear\"}")
                .json();

        var completion = client.postJson(body);

        assertThat(completion
                        .path("choices")
                        .path(0)
                        .path("message")
                        .path("content")
                        .asText())
                .isEqualTo("It is sunny in {\"sky\":\"clear\"}.");
    }

    @Test
    void http_500_and_503_use_the_openai_error_shape() throws IOException {
        sim.enqueueFault(Fault.http500());

        var serverError = client.post(ChatBody.create().user("hi").json());
        var overloaded = client.post(ChatBody.create().user("this is broken").json());

        assertThat(serverError.statusCode()).isEqualTo(500);
        var error = ChatBody.JSON.readTree(serverError.body()).path("error");
        assertThat(error.path("message").asText()).isNotBlank();
        assertThat(error.path("type").asText()).isEqualTo("server_error");
        assertThat(error.has("code")).isTrue();
        assertThat(overloaded.statusCode()).isEqualTo(503);
        assertThat(ChatBody.JSON
                        .readTree(overloaded.body())
                        .path("error")
                        .path("code")
                        .asText())
                .isEqualTo("overloaded");
    }

    @Test
    void queued_faults_apply_once_each_in_order_before_any_rule() {
        sim.enqueueFault(Fault.rateLimited(7));
        sim.enqueueFault(Fault.http500());

        var first = client.post(ChatBody.create().user("hi").json());
        var second = client.post(ChatBody.create().user("hi").json());
        var third = client.post(ChatBody.create().user("hi").json());

        assertThat(first.statusCode()).isEqualTo(429);
        assertThat(first.headers().firstValue("Retry-After")).contains("7");
        assertThat(first.body()).contains("rate_limit_exceeded");
        assertThat(second.statusCode()).isEqualTo(500);
        assertThat(third.statusCode()).isEqualTo(200);
        assertThat(sim.requests()).hasSize(3);
    }

    @Test
    void hang_sends_nothing_until_the_client_gives_up_and_counts_the_disconnect() {
        sim.enqueueFault(Fault.hang());
        var pending = client.http()
                .sendAsync(
                        client.chatRequest(ChatBody.create().user("hi").json()), HttpResponse.BodyHandlers.ofString());
        sim.awaitRequest(0, WAIT);
        assertThat(pending).isNotDone();

        pending.cancel(true);

        assertThat(sim.awaitClientDisconnect(WAIT)).isTrue();
        assertThat(sim.clientDisconnects()).isEqualTo(1);
        assertThatThrownBy(pending::join).hasCauseInstanceOf(CancellationException.class);
    }

    @Test
    void a_client_leaving_during_first_token_latency_is_a_disconnect() {
        sim.script(SimulatorScript.builder()
                .firstTokenLatency(Duration.ofMinutes(5))
                .build());
        var pending = client.http()
                .sendAsync(
                        client.chatRequest(
                                ChatBody.create().user("hi").stream(false).json()),
                        HttpResponse.BodyHandlers.ofString());
        sim.awaitRequest(0, WAIT);

        pending.cancel(true);

        assertThat(sim.awaitClientDisconnect(WAIT)).isTrue();
    }

    @Test
    void a_client_closing_mid_stream_is_counted_as_a_disconnect() throws Exception {
        sim.script(SimulatorScript.builder()
                .fallback("word ".repeat(200))
                .tokensPerSecond(20)
                .build());
        var response = client.http()
                .send(
                        client.chatRequest(
                                ChatBody.create().user("hi").stream(false).json()),
                        HttpResponse.BodyHandlers.ofInputStream());
        try (var body = new java.io.BufferedReader(
                new java.io.InputStreamReader(response.body(), java.nio.charset.StandardCharsets.UTF_8))) {
            assertThat(body.readLine()).startsWith("data: ");
        }

        assertThat(sim.awaitClientDisconnect(WAIT)).isTrue();
    }

    @Test
    void concurrent_streams_are_served_in_parallel_and_each_completes() {
        int clients = 16;
        try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            var streams = java.util.stream.IntStream.range(0, clients)
                    .mapToObj(i -> java.util.concurrent.CompletableFuture.supplyAsync(
                            () -> client.stream(ChatBody.create().user("client " + i).stream(true)
                                    .json()),
                            executor))
                    .toList();

            assertThat(streams).allSatisfy(f -> {
                var stream = f.join();
                assertThat(stream.done()).isTrue();
                assertThat(stream.text()).isEqualTo(ANSWER);
            });
        }
        assertThat(sim.requests()).hasSize(clients);
        assertThat(sim.requests())
                .extracting(RecordedRequest::lastUserMessage)
                .containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, clients)
                        .mapToObj(i -> "client " + i)
                        .toList());
    }

    @Test
    void disconnect_after_n_chunks_streams_exactly_n_content_chunks_and_no_done() {
        sim.enqueueFault(Fault.disconnectAfter(3));

        var stream = client.stream(ChatBody.create().user("hello").stream(true).json());

        assertThat(stream.contentChunks()).hasSize(3);
        assertThat(stream.text()).isEqualTo("The quick brown");
        assertThat(stream.data()).doesNotContain("[DONE]");
        assertThat(stream.failure()).as("the chunked body was cut off").isNotNull();
        assertThat(sim.clientDisconnects()).isZero();
    }

    @Test
    void malformed_chunk_arrives_mid_stream() {
        sim.enqueueFault(Fault.malformedChunk(2));

        var stream = client.stream(ChatBody.create().user("hello").stream(false).json());

        assertThat(stream.data()).contains("{not json");
        int malformedAt = stream.data().indexOf("{not json");
        assertThat(malformedAt)
                .as("role chunk and two content chunks come first")
                .isEqualTo(3);
        assertThatThrownBy(() -> ChatBody.JSON.readTree(stream.data().get(malformedAt)))
                .isInstanceOf(IOException.class);
    }

    @Test
    void every_request_is_recorded_with_its_exact_body_even_when_faulted() throws IOException {
        sim.enqueueFault(Fault.http500());
        var body = ChatBody.create()
                .system("You are terse.")
                .user("first")
                .tools("get_weather")
                .json();

        client.post(body);
        client.post(ChatBody.create().user("second").json());

        var recorded = sim.awaitRequest(0, WAIT);
        assertThat(recorded.method()).isEqualTo("POST");
        assertThat(recorded.path()).isEqualTo("/v1/chat/completions");
        assertThat(recorded.rawBody()).isEqualTo(body);
        assertThat(recorded.body()).isEqualTo(ChatBody.JSON.readTree(body));
        assertThat(recorded.header("authorization")).contains("Bearer test-key");
        assertThat(recorded.messages()).hasSize(2);
        assertThat(recorded.toolNames()).containsExactly("get_weather");
        assertThat(recorded.lastUserMessage()).isEqualTo("first");
        assertThat(sim.awaitRequest(1, WAIT).lastUserMessage()).isEqualTo("second");

        sim.clearRequests();
        assertThat(sim.requests()).isEmpty();
    }

    @Test
    void await_request_fails_when_nothing_arrives() {
        assertThatThrownBy(() -> sim.awaitRequest(0, Duration.ofMillis(50)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("request #0");
    }

    @Test
    void models_lists_one_model_and_unknown_paths_get_an_openai_404() throws IOException {
        var models = ChatBody.JSON.readTree(client.get("/models").body());
        var unknown = client.get("/embeddings");

        assertThat(models.path("object").asText()).isEqualTo("list");
        assertThat(models.path("data")).hasSize(1);
        assertThat(models.path("data").path(0).path("object").asText()).isEqualTo("model");
        assertThat(unknown.statusCode()).isEqualTo(404);
        var error = ChatBody.JSON.readTree(unknown.body()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).contains("/v1/embeddings");
    }

    @Test
    void a_body_that_is_not_json_gets_a_400() {
        var response = client.post("{oops");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("invalid_request_error");
        assertThat(sim.requests().getFirst().rawBody()).isEqualTo("{oops");
    }

    @Test
    void the_script_can_be_replaced_while_running() {
        sim.script(SimulatorScript.replyingWith("second script"));

        var completion = client.postJson(ChatBody.create().user("hello").json());

        assertThat(completion
                        .path("choices")
                        .path(0)
                        .path("message")
                        .path("content")
                        .asText())
                .isEqualTo("second script");
    }

    @Test
    void a_yaml_script_drives_the_simulator() {
        try (var yaml = getClass().getResourceAsStream("/weather-script.yaml")) {
            sim.script(SimulatorScript.fromYaml(yaml));
        } catch (IOException e) {
            throw new AssertionError(e);
        }

        var completion =
                client.postJson(ChatBody.create().user("Weather in Rome?").json());

        assertThat(completion
                        .path("choices")
                        .path(0)
                        .path("message")
                        .path("tool_calls")
                        .path(0)
                        .path("function")
                        .path("arguments")
                        .asText())
                .isEqualTo("{\"city\":\"Rome\"}");
        assertThat(completion.path("usage").path("prompt_tokens").asInt()).isEqualTo(100);
    }

    @Test
    void closing_ends_a_hanging_request_and_frees_the_port() {
        sim.enqueueFault(Fault.hang());
        var pending = client.http()
                .sendAsync(
                        client.chatRequest(ChatBody.create().user("hi").json()), HttpResponse.BodyHandlers.ofString());
        sim.awaitRequest(0, WAIT);

        sim.close();

        assertThatThrownBy(pending::join).hasCauseInstanceOf(IOException.class);
        assertThat(sim.clientDisconnects()).isZero();
        try (var again = LlmSimulator.start(SimulatorScript.replyingWith("again"), sim.port())) {
            assertThat(again.port()).isEqualTo(sim.port());
        }
    }

    @Test
    void the_recording_keeps_the_last_requests_only_unless_a_test_asks_for_all() {
        sim.keepRequests(3);
        for (int i = 0; i < 5; i++) {
            client.postJson(ChatBody.create().user("message " + i).json());
        }
        assertThat(sim.requests())
                .extracting(RecordedRequest::lastUserMessage)
                .containsExactly("message 2", "message 3", "message 4");
        assertThat(sim.requestCount()).isEqualTo(5);
        assertThat(sim.awaitRequest(4, WAIT).lastUserMessage()).isEqualTo("message 4");
        assertThatThrownBy(() -> sim.awaitRequest(1, WAIT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no longer kept");

        sim.keepAllRequests();
        for (int i = 5; i < 10; i++) {
            client.postJson(ChatBody.create().user("message " + i).json());
        }
        assertThat(sim.requests()).hasSize(8);
    }

    @Test
    void a_simulator_keeps_a_bounded_number_of_requests_by_default() {
        sim.clearRequests();
        for (int i = 0; i < LlmSimulator.DEFAULT_KEPT_REQUESTS + 5; i++) {
            client.postJson(ChatBody.create().user("m").json());
        }
        assertThat(sim.requests()).hasSize(LlmSimulator.DEFAULT_KEPT_REQUESTS);
    }

    @Test
    void hold_after_streams_some_chunks_waits_for_its_release_then_finishes() throws Exception {
        var release = new java.util.concurrent.CountDownLatch(1);
        sim.enqueueFault(Fault.holdAfter(2, release));
        var response = client.http()
                .send(
                        client.chatRequest(
                                ChatBody.create().user("hello").stream(true).json()),
                        HttpResponse.BodyHandlers.ofLines());
        var lines = response.body().iterator();
        var content = new StringBuilder();
        int chunks = 0;
        while (chunks < 2 && lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("data: {") && line.contains("\"content\":\"")) {
                chunks++;
                content.append(ChatWire.JSON
                        .readTree(line.substring(6))
                        .path("choices")
                        .path(0)
                        .path("delta")
                        .path("content")
                        .asText());
            }
        }
        assertThat(chunks).isEqualTo(2);
        // held: nothing more comes until the release; then the stream ends normally with the whole answer
        release.countDown();
        boolean doneSeen = false;
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.equals("data: [DONE]")) doneSeen = true;
            else if (line.startsWith("data: {"))
                content.append(ChatWire.JSON
                        .readTree(line.substring(6))
                        .path("choices")
                        .path(0)
                        .path("delta")
                        .path("content")
                        .asText(""));
        }
        assertThat(doneSeen).isTrue();
        assertThat(content.toString()).isEqualTo(ANSWER);
    }
}
