package dev.baton.runtime.config;

/** A configuration the server cannot start with; the message says what to fix (and where, when it knows). */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
