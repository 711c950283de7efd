package dev.baton.core.trace;

import io.opentelemetry.api.common.AttributeKey;
import java.util.List;

/**
 * The span attributes of the OpenTelemetry GenAI and MCP semantic conventions Baton sets. The conventions are still
 * incubating (their constants live in an alpha artifact), so the few keys used are spelled out here, once.
 */
final class GenAiAttributes {
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> PROVIDER_NAME = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> RESPONSE_MODEL = AttributeKey.stringKey("gen_ai.response.model");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<List<String>> FINISH_REASONS =
            AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<String> AGENT_ID = AttributeKey.stringKey("gen_ai.agent.id");
    static final AttributeKey<String> AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");
    static final AttributeKey<String> CONVERSATION_ID = AttributeKey.stringKey("gen_ai.conversation.id");
    static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    /** Opt-in content attributes, set only when the operator turned content capture on. */
    static final AttributeKey<String> INPUT_MESSAGES = AttributeKey.stringKey("gen_ai.input.messages");

    static final AttributeKey<String> OUTPUT_MESSAGES = AttributeKey.stringKey("gen_ai.output.messages");
    static final AttributeKey<String> TOOL_CALL_ARGUMENTS = AttributeKey.stringKey("gen_ai.tool.call.arguments");
    static final AttributeKey<String> TOOL_CALL_RESULT = AttributeKey.stringKey("gen_ai.tool.call.result");

    /** Baton's own: the request the turn serves (the X-Request-ID of its logs) and how the turn ended. */
    static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("baton.request.id");

    static final AttributeKey<String> TURN_STATUS = AttributeKey.stringKey("baton.turn.status");

    static final String CHAT = "chat";
    static final String INVOKE_AGENT = "invoke_agent";
    static final String EXECUTE_TOOL = "execute_tool";

    private GenAiAttributes() {}

    /**
     * The convention's provider name for a Baton provider id: its well-known values where one exists ({@code
     * azure.ai.openai}), the id otherwise ({@code openai}, {@code anthropic}, {@code ollama}, ...).
     */
    static String providerName(String provider) {
        if (provider == null || provider.isBlank()) return "unknown";
        return switch (provider) {
            case "azure" -> "azure.ai.openai";
            default -> provider;
        };
    }
}
