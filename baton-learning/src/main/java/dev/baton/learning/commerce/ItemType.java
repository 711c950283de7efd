package dev.baton.learning.commerce;

import dev.baton.learning.LearningException;
import java.util.Locale;

/** What a cart line is. */
public enum ItemType {
    COURSE,
    RESOURCE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws LearningException invalid_argument unless {@code value} is course or resource */
    public static ItemType parse(String value) {
        if (value != null) {
            for (ItemType type : values()) {
                if (type.wireName().equalsIgnoreCase(value.strip())) return type;
            }
        }
        throw LearningException.invalidArgument(
                "type must be course or resource (got '" + LearningException.echo(value) + "')");
    }
}
