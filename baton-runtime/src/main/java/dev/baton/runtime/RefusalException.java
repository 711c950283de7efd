package dev.baton.runtime;

import java.util.Objects;

/**
 * Thrown by the runtime's services when they refuse a call; carries the {@link Refusal}, which is what callers
 * switch on. No stack trace is filled in: a refusal is an answer, not a fault.
 */
public final class RefusalException extends RuntimeException {
    private final transient Refusal refusal;

    public RefusalException(Refusal refusal) {
        super(Objects.requireNonNull(refusal, "refusal").message(), null, false, false);
        this.refusal = refusal;
    }

    public Refusal refusal() {
        return refusal;
    }

    public static RefusalException notFound(String what) {
        return new RefusalException(new Refusal.NotFound(what));
    }

    public static RefusalException invalidInput(String message) {
        return new RefusalException(new Refusal.InvalidInput(message));
    }

    public static RefusalException forbidden(String message) {
        return new RefusalException(new Refusal.Forbidden(message));
    }
}
