package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ToolException;
import dev.baton.core.tool.ToolResultBound;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallResultsTest {

    static McpSchema.CallToolResult result(List<McpSchema.Content> content, Boolean isError, Object structured) {
        return new McpSchema.CallToolResult(content, isError, structured, null);
    }

    @Test
    void text_blocks_are_joined() {
        JsonNode json = CallResults.toJson(
                result(List.of(new McpSchema.TextContent("one"), new McpSchema.TextContent("two")), null, null));

        assertThat(json.path("text").asText()).isEqualTo("one\n\ntwo");
    }

    @Test
    void structured_content_with_its_json_as_text_is_the_structured_object() {
        JsonNode json =
                CallResults.toJson(result(List.of(new McpSchema.TextContent("{\"n\": 1}")), null, Map.of("n", 1)));

        assertThat(json.toString()).isEqualTo("{\"n\":1}");
    }

    @Test
    void structured_content_with_other_text_keeps_both() {
        JsonNode json = CallResults.toJson(
                result(List.of(new McpSchema.TextContent("It is sunny.")), null, Map.of("sky", "clear")));

        assertThat(json.path("text").asText()).isEqualTo("It is sunny.");
        assertThat(json.path("structuredContent").path("sky").asText()).isEqualTo("clear");
    }

    @Test
    void an_error_result_is_a_tool_error_with_the_servers_text() {
        assertThatThrownBy(() ->
                        CallResults.toJson(result(List.of(new McpSchema.TextContent("no such note")), true, null)))
                .isInstanceOf(ToolException.class)
                .hasMessage("no such note")
                .extracting(e -> ((ToolException) e).code())
                .isEqualTo("mcp_tool_error");
    }

    @Test
    void an_error_without_text_still_says_it_failed() {
        assertThatThrownBy(() -> CallResults.toJson(result(List.of(), true, null)))
                .hasMessage("The tool reported an error.");
    }

    @Test
    void long_text_is_left_whole_for_the_one_bound_every_tool_result_passes() {
        String longText = "x".repeat(ToolResultBound.MAX_CHARS + 10);

        JsonNode json = CallResults.toJson(result(List.of(new McpSchema.TextContent(longText)), false, null));

        assertThat(json.path("text").asText()).isEqualTo(longText);
        assertThat(ToolResultBound.apply(json).path("truncated").asBoolean()).isTrue();
    }

    @Test
    void audio_and_text_resources_are_summarised() {
        var audio = new McpSchema.AudioContent(null, "AAAA", "audio/wav");
        var text = new McpSchema.EmbeddedResource(
                null, new McpSchema.TextResourceContents("file:///a.txt", "text/plain", "hello"));

        JsonNode json = CallResults.toJson(result(List.of(audio, text), null, null));

        assertThat(json.path("attachments").get(0).path("type").asText()).isEqualTo("audio");
        assertThat(json.path("attachments").get(0).path("bytes").asLong()).isEqualTo(3);
        assertThat(json.path("attachments").get(1).path("preview").asText()).isEqualTo("hello");
        assertThat(json.path("text").asText()).isEmpty();
    }
}
