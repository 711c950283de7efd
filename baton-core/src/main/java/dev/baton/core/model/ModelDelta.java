package dev.baton.core.model;

/** A piece of a streaming model response, delivered as it arrives. */
public sealed interface ModelDelta {
    record Text(String content) implements ModelDelta {}

    record Thinking(String content) implements ModelDelta {}
}
