package dev.baton.tasks.domain;

import java.util.Objects;

/**
 * A change to an optional field: leave it, clear it, or replace it. Needed because "not given" and "set to
 * nothing" mean different things for a task's description and due date.
 */
public sealed interface Patch<T> {

    record Keep<T>() implements Patch<T> {}

    record Clear<T>() implements Patch<T> {}

    record Replace<T>(T value) implements Patch<T> {
        public Replace {
            Objects.requireNonNull(value, "value");
        }
    }

    static <T> Patch<T> keep() {
        return new Keep<>();
    }

    static <T> Patch<T> clear() {
        return new Clear<>();
    }

    /** Replace with {@code value}, or clear when it is null. */
    static <T> Patch<T> replaceOrClear(T value) {
        return value == null ? new Clear<>() : new Replace<>(value);
    }

    /** The field's value after this change. */
    default T applyTo(T current) {
        return switch (this) {
            case Keep<T> k -> current;
            case Clear<T> c -> null;
            case Replace<T> r -> r.value();
        };
    }

    default boolean isKeep() {
        return this instanceof Keep<T>;
    }
}
