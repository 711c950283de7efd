package dev.baton.tasks.domain;

import java.util.Locale;

/** Where a task is in its life. The wire form is the lower-case name. */
public enum TaskStatus {
    OPEN,
    COMPLETED;

    /** The lower-case form used in JSON and in the database. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Reads the stored form; anything else is a corrupt row, not a user error. */
    public static TaskStatus fromWireName(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
