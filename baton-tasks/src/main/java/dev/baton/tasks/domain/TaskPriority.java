package dev.baton.tasks.domain;

import java.util.Locale;

/** How important a task is. The wire form is the lower-case name. */
public enum TaskPriority {
    LOW,
    MEDIUM,
    HIGH;

    /** The lower-case form used in JSON and in the database. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @throws TaskException invalid_argument unless {@code value} is low, medium or high (case-insensitive)
     */
    public static TaskPriority parse(String value) {
        if (value != null) {
            for (TaskPriority p : values()) {
                if (p.wireName().equalsIgnoreCase(value.strip())) return p;
            }
        }
        throw TaskException.invalidArgument("priority must be one of low, medium, high (got '" + value + "')");
    }
}
