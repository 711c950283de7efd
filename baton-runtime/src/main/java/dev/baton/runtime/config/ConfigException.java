package dev.baton.runtime.config;

/** A configuration the server cannot start with; the message says what to fix. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
