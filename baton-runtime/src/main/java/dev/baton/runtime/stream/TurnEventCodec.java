package dev.baton.runtime.stream;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.baton.core.json.PooledJsonFactory;
import dev.baton.core.turn.TurnEvent;
import java.io.UncheckedIOException;

/**
 * The runtime's own encoding of a {@link TurnEvent}, for what keeps events outside the heap (the in-process log's
 * packed turns, Redis Streams) and replays them later: a type name and the event's fields as JSON text. It is no front
 * door's wire: each door renders the decoded event as it renders a live one (the HTTP API's SSE, for instance).
 *
 * <p>Fields are the records' components by name (instants and durations as ISO-8601 text); a field this version does
 * not know is ignored, so a newer instance's events still read.
 */
public final class TurnEventCodec {
    /** Records by their components, nothing else: the events' helper methods are no data. */
    static final JsonMapper MAPPER = JsonMapper.builder(PooledJsonFactory.create())
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            // an absent field reads as null; a JSON null would read as a NullNode where the event had none
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .visibility(PropertyAccessor.CREATOR, JsonAutoDetect.Visibility.ANY)
            .build();

    private TurnEventCodec() {}

    /** The event's type name: {@code started}, {@code chunk}, … {@code failed}. */
    public static String type(TurnEvent event) {
        return switch (event) {
            case TurnEvent.Started s -> "started";
            case TurnEvent.Chunk c -> "chunk";
            case TurnEvent.Thinking t -> "thinking";
            case TurnEvent.ToolCallStarted t -> "tool_call_started";
            case TurnEvent.ToolCallFinished t -> "tool_call_finished";
            case TurnEvent.Blocked b -> "blocked";
            case TurnEvent.ConnectRequired c -> "connect_required";
            case TurnEvent.ApprovalRequired a -> "approval_required";
            case TurnEvent.AwaitingApproval a -> "awaiting_approval";
            case TurnEvent.Done d -> "done";
            case TurnEvent.Failed f -> "failed";
        };
    }

    /** The event's fields as JSON text (its type is kept beside it: {@link #type}). */
    public static String encode(TurnEvent event) {
        try {
            return MAPPER.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The event {@link #type} and {@link #encode} gave.
     *
     * @throws IllegalArgumentException for a type this version does not know, or data that is not such an event
     */
    public static TurnEvent decode(String type, String data) {
        try {
            return MAPPER.readValue(data, classOf(type));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a " + type + " event: " + e.getOriginalMessage(), e);
        }
    }

    private static Class<? extends TurnEvent> classOf(String type) {
        return switch (type) {
            case "started" -> TurnEvent.Started.class;
            case "chunk" -> TurnEvent.Chunk.class;
            case "thinking" -> TurnEvent.Thinking.class;
            case "tool_call_started" -> TurnEvent.ToolCallStarted.class;
            case "tool_call_finished" -> TurnEvent.ToolCallFinished.class;
            case "blocked" -> TurnEvent.Blocked.class;
            case "connect_required" -> TurnEvent.ConnectRequired.class;
            case "approval_required" -> TurnEvent.ApprovalRequired.class;
            case "awaiting_approval" -> TurnEvent.AwaitingApproval.class;
            case "done" -> TurnEvent.Done.class;
            case "failed" -> TurnEvent.Failed.class;
            default -> throw new IllegalArgumentException("unknown turn event type " + type);
        };
    }
}
