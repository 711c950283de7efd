package dev.baton.example.spring;

import dev.baton.core.domain.DomainException;

/** The library refusing something: the model hears its code and message, the REST API its status. */
public final class LoanException extends DomainException {
    private static final long serialVersionUID = 1L;

    private LoanException(Kind kind, String message) {
        super(kind, message);
    }

    static LoanException notFound(String message) {
        return new LoanException(Kind.NOT_FOUND, message);
    }

    static LoanException conflict(String message) {
        return new LoanException(Kind.CONFLICT, message);
    }
}
