package dev.baton.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How one {@link WireProtocol} renders answers, errors and streams. {@link CompletionPlayer} decides what to
 * send and when (pacing, faults); a format only decides what it looks like on the wire.
 */
sealed interface WireFormat permits OpenAiFormat, AnthropicFormat, OllamaFormat {

    /** One complete answer, ready to render. */
    record Answer(
            ChatWire.CompletionId id,
            String text,
            List<Reply.ToolCall> calls,
            List<String> callIds,
            ChatWire.Usage usage) {}

    /** What a frame of a stream is, which decides how faults and pacing treat it. */
    enum FrameKind {
        /** Sent at once when the stream opens (role chunk, {@code message_start}). */
        HEAD,
        /** A content chunk: paced, counted by {@link Fault.DisconnectAfter} and friends. */
        CONTENT,
        /** Structure between content chunks ({@code content_block_start/stop}): sent unpaced, not counted. */
        MARK,
        /** The end of a complete stream (finish reason, usage, completion marker). */
        TAIL
    }

    /** One piece of a streamed body, written as it is. */
    record Frame(FrameKind kind, String text, int tokens) {}

    static WireFormat of(WireProtocol protocol) {
        return switch (protocol) {
            case OPENAI_CHAT -> OpenAiFormat.INSTANCE;
            case ANTHROPIC_MESSAGES -> AnthropicFormat.INSTANCE;
            case OLLAMA_CHAT -> OllamaFormat.INSTANCE;
        };
    }

    String completionId(long sequence);

    String callId(long sequence, int index);

    String streamContentType();

    ObjectNode error(int status, String type, String code, String message);

    /** Headers of a 429 besides {@code Content-Type}. */
    Map<String, String> rateLimitHeaders(int retryAfterSeconds);

    ObjectNode rateLimitError(int retryAfterSeconds);

    ObjectNode completion(Answer answer);

    /**
     * The whole stream of a complete answer, in order, each frame rendered only when it is taken: a huge answer is
     * never rendered up front, and one whose client stops reading is rendered no further.
     */
    Stream<Frame> stream(Answer answer, int chunkSize, boolean includeUsage);

    /** A frame that is not valid for the protocol. */
    String malformedFrame();

    /** The protocol's way to report a failure after the stream has started. */
    String streamErrorFrame(String type, String message);
}
