package dev.baton.simulator;

import java.util.regex.Pattern;

/**
 * The chat protocols the simulator speaks, told apart by the request path. The same {@link SimulatorScript}
 * answers all of them: rules see every request through the same {@link RecordedRequest} helpers.
 */
public enum WireProtocol {
    /**
     * OpenAI Chat Completions: {@code POST /v1/chat/completions}, also Azure OpenAI's deployment path and Gemini's
     * OpenAI-compatible {@code /v1beta/openai/chat/completions}.
     */
    OPENAI_CHAT,
    /** Anthropic Messages: {@code POST /v1/messages}. */
    ANTHROPIC_MESSAGES,
    /** Ollama's native chat: {@code POST /api/chat}, streamed as NDJSON. */
    OLLAMA_CHAT;

    private static final Pattern AZURE_CHAT = Pattern.compile("^/openai/deployments/([^/]+)/chat/completions$");

    /** The protocol served on {@code path}, or null for a path that is no chat endpoint. */
    static WireProtocol of(String path) {
        return switch (path) {
            case "/v1/chat/completions", "/chat/completions", "/v1beta/openai/chat/completions" -> OPENAI_CHAT;
            case "/v1/messages", "/messages" -> ANTHROPIC_MESSAGES;
            case "/api/chat" -> OLLAMA_CHAT;
            default -> AZURE_CHAT.matcher(path).matches() ? OPENAI_CHAT : null;
        };
    }

    /** The deployment named by an Azure OpenAI path, or null for any other path. */
    static String azureDeployment(String path) {
        var matcher = AZURE_CHAT.matcher(path);
        return matcher.matches() ? matcher.group(1) : null;
    }
}
