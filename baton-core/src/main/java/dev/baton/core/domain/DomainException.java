package dev.baton.core.domain;

import java.util.Objects;

/**
 * Why a user-scoped domain (tasks, notes) refused a request. Each domain has its own subclass, so a caller can
 * catch exactly one domain's refusals; the kinds, their wire codes and the message conventions are shared.
 *
 * <p>The message is precise and safe to show a user or a model: it never reveals whether another user's record
 * exists, and it never echoes more than a bounded piece of what the caller sent.
 */
public abstract class DomainException extends RuntimeException {
    /** The most characters of an id a message echoes back. */
    public static final int MAX_ECHOED_ID = 64;

    /** What the caller should do next, with its wire code. */
    public enum Kind {
        /** The request is not shaped right: not an object, an unknown field, a wrong type, a missing field. */
        MALFORMED("invalid_request"),
        /** The request is well formed but a value is not acceptable; fix the arguments. */
        INVALID_ARGUMENT("invalid_argument"),
        /** No such record for this user (including: it exists but belongs to someone else). */
        NOT_FOUND("not_found"),
        /** The caller lacks a permission the operation needs. */
        PERMISSION_DENIED("permission_denied"),
        /**
         * The request is valid but the record's current state refuses it (already enrolled, a full lab slot, a
         * closed course): retrying the same request will not help until that state changes.
         */
        CONFLICT("conflict");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    private final Kind kind;

    protected DomainException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public final Kind kind() {
        return kind;
    }

    /** The wire code: "invalid_request", "invalid_argument", "not_found", "permission_denied" or "conflict". */
    public final String code() {
        return kind.code();
    }

    /** "You are not allowed to do this (needs {@code permission})." */
    protected static String permissionDeniedMessage(String permission) {
        return "You are not allowed to do this (needs " + permission + ").";
    }

    /**
     * An id as a message may echo it: at most {@value #MAX_ECHOED_ID} characters, then "..."; "" for null. A
     * caller must not be able to blow up a message (or a log line) with a megabyte of text.
     */
    protected static String echoedId(String id) {
        if (id == null) return "";
        return id.length() <= MAX_ECHOED_ID ? id : id.substring(0, MAX_ECHOED_ID) + "...";
    }
}
