package dev.baton.core.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolSource;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/** Small builders for tools, agents and principals in core unit tests. */
public final class TestTools {
    public static final ObjectMapper JSON = new ObjectMapper();

    private TestTools() {}

    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A schema with the given properties JSON, required names and no other properties allowed. */
    public static JsonNode objectSchema(String propertiesJson, String... required) {
        return json("{\"type\":\"object\",\"properties\":" + propertiesJson + ",\"required\":"
                + JSON.valueToTree(List.of(required)) + ",\"additionalProperties\":false}");
    }

    public static Tool tool(
            String name,
            JsonNode schema,
            Set<String> permissions,
            Duration timeout,
            BiFunction<JsonNode, ToolContext, JsonNode> body) {
        ToolDefinition def = new ToolDefinition(name, "Test tool " + name, schema, permissions, timeout);
        return new Tool() {
            @Override
            public ToolDefinition definition() {
                return def;
            }

            @Override
            public JsonNode execute(JsonNode arguments, ToolContext context) {
                return body.apply(arguments, context);
            }
        };
    }

    public static ToolSource source(Tool... tools) {
        return new ToolSource() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public List<Tool> tools() {
                return List.of(tools);
            }
        };
    }

    public static AgentDefinition agent(List<String> toolNames, TurnLimits limits) {
        return new AgentDefinition(
                "helper",
                "Helper",
                "",
                "You help with tasks.",
                "simulator:default",
                toolNames,
                List.of(),
                limits,
                List.of(),
                null,
                null,
                null,
                null,
                null);
    }

    public static Principal principal(String... permissions) {
        return new Principal(
                "user-1", "default", "Alice", "alice@example.com", Set.of("student"), Set.of(permissions), List.of());
    }

    public static TurnLimits limits(int historyMessages, int historyTokens, int maxContextTokens) {
        return new TurnLimits(
                5,
                10,
                50,
                historyMessages,
                historyTokens,
                maxContextTokens,
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                Duration.ofSeconds(45));
    }
}
