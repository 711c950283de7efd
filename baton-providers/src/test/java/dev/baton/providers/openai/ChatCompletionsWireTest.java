package dev.baton.providers.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.model.ToolSpec;
import dev.baton.core.turn.Cancellation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatCompletionsWireTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void the_request_streams_with_usage_and_keeps_each_message_and_schema_as_given() throws Exception {
        JsonNode schema = JSON.readTree("{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\","
                + "\"minLength\":1}},\"additionalProperties\":false}");
        var request = new ModelRequest(
                "gpt-test",
                List.of(
                        new ChatMessage.System(" "),
                        new ChatMessage.User("add milk"),
                        new ChatMessage.Assistant(
                                "", List.of(new ToolCallRequest("c1", "add_task", "{\"title\":\"milk\"}"))),
                        new ChatMessage.ToolResult("c1", "add_task", "{\"ok\":true}"),
                        new ChatMessage.Assistant("Added.", List.of())),
                List.of(new ToolSpec("add_task", "Adds a task", schema)),
                Duration.ofSeconds(5),
                new Cancellation(),
                0.5);

        JsonNode body = JSON.readTree(ChatCompletionsRequest.body(request));

        assertThat(body.path("model").asText()).isEqualTo("gpt-test");
        assertThat(body.path("stream").asBoolean()).isTrue();
        assertThat(body.path("stream_options").path("include_usage").asBoolean())
                .isTrue();
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.5);
        JsonNode messages = body.path("messages");
        assertThat(messages).hasSize(4); // the blank system message is left out
        assertThat(messages.get(0).toString()).isEqualTo("{\"role\":\"user\",\"content\":\"add milk\"}");
        assertThat(messages.get(1).has("content")).isFalse();
        assertThat(messages.get(1).path("tool_calls").get(0).toString())
                .isEqualTo("{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"add_task\","
                        + "\"arguments\":\"{\\\"title\\\":\\\"milk\\\"}\"}}");
        assertThat(messages.get(2).toString())
                .isEqualTo("{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"{\\\"ok\\\":true}\"}");
        assertThat(messages.get(3).path("content").asText()).isEqualTo("Added.");
        assertThat(body.path("tools").get(0).path("function").path("parameters"))
                .isEqualTo(schema);
    }

    @Test
    void text_reasoning_tool_calls_usage_and_finish_reason_are_assembled_from_the_chunks() throws Exception {
        var stream = new ChatCompletionsStream();
        List<ModelDelta> deltas = new ArrayList<>();

        for (String chunk : List.of(
                "{\"model\":\"gpt-real\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
                "{\"choices\":[{\"delta\":{\"reasoning_content\":\"thinking\"}}]}",
                "{\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}",
                "{\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"one\",\"arguments\":\"\"}}]}}]}",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"two\","
                        + "\"arguments\":\"{}\"}}]}}]}",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"x\\\":\"}}]}}]}",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]}}]}",
                "{\"choices\":[{\"delta\":{},\"finish_reason\":\"TOOL_CALLS\"}]}",
                "{\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":5,"
                        + "\"prompt_tokens_details\":{\"cached_tokens\":4}}}")) {
            stream.accept(chunk, deltas::add);
        }
        assertThat(stream.done()).isFalse();
        stream.accept("[DONE]", deltas::add);

        var reply = stream.reply("asked");
        assertThat(stream.done()).isTrue();
        assertThat(reply.text()).isEqualTo("Hello");
        assertThat(reply.model()).isEqualTo("gpt-real");
        assertThat(reply.finishReason()).isEqualTo("tool_calls");
        assertThat(reply.usage().inputTokens()).isEqualTo(12);
        assertThat(reply.usage().outputTokens()).isEqualTo(5);
        assertThat(reply.usage().cachedInputTokens()).isEqualTo(4);
        assertThat(reply.toolCalls())
                .containsExactly(new ToolCallRequest("a", "one", "{\"x\":1}"), new ToolCallRequest("b", "two", "{}"));
        assertThat(deltas)
                .containsExactly(
                        new ModelDelta.Thinking("thinking"),
                        new ModelDelta.Text("Hel"),
                        new ModelDelta.Text("lo"),
                        new ModelDelta.ToolCallDelta(1, "b", "two", "{}"),
                        new ModelDelta.ToolCallDelta(0, "a", "one", "{\"x\":"),
                        new ModelDelta.ToolCallDelta(0, "a", "one", "1}"));
    }

    @Test
    void calls_without_index_or_id_are_told_apart_by_new_ids_and_numbered() throws Exception {
        var stream = new ChatCompletionsStream();
        stream.accept(
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"x\",\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]}}]}",
                d -> {});
        stream.accept("{\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\"}\"}}]}}]}", d -> {});
        stream.accept(
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"y\",\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]},"
                        + "\"finish_reason\":\"tool_calls\"}]}",
                d -> {});

        assertThat(stream.finished()).isTrue();
        assertThat(stream.reply("m").toolCalls())
                .containsExactly(new ToolCallRequest("x", "f", "{}"), new ToolCallRequest("y", "g", "{}"));

        var unnamed = new ChatCompletionsStream();
        unnamed.accept(
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}",
                d -> {});
        assertThat(unnamed.reply("m").toolCalls()).containsExactly(new ToolCallRequest("call_0", "f", "{}"));
    }

    @Test
    void an_error_in_the_stream_and_a_chunk_that_is_no_object_are_refused() {
        var stream = new ChatCompletionsStream();

        assertThatThrownBy(() ->
                        stream.accept("{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}", d -> {}))
                .isInstanceOf(ChatCompletionsStream.StreamError.class)
                .hasMessageContaining("server_error: overloaded");
        assertThatThrownBy(() -> stream.accept("[1,2]", d -> {})).isInstanceOf(ChatCompletionsStream.StreamError.class);
    }
}
