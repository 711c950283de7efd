package dev.baton.store.jdbc;

/** A database failure, unchecked so store ports stay free of {@link java.sql.SQLException}. */
public class StoreException extends RuntimeException {

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
