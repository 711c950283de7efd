package dev.baton.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One tool call a turn made, as the runtime reported it.
 *
 * @param arguments the arguments as the model sent them (a JSON text node when they did not parse)
 * @param ok the tool ran and returned a result; false when it failed or was refused
 * @param error why it failed; null when ok
 */
public record ObservedToolCall(String name, JsonNode arguments, boolean ok, String error) {
    public ObservedToolCall {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }
}
