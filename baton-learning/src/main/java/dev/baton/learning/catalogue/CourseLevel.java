package dev.baton.learning.catalogue;

import dev.baton.learning.LearningException;
import java.util.Arrays;
import java.util.Locale;

/** How much a course assumes. */
public enum CourseLevel {
    BEGINNER,
    INTERMEDIATE,
    ADVANCED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws LearningException invalid_argument unless {@code value} is beginner, intermediate or advanced */
    public static CourseLevel parse(String value) {
        if (value != null) {
            for (CourseLevel level : values()) {
                if (level.wireName().equalsIgnoreCase(value.strip())) return level;
            }
        }
        throw LearningException.invalidArgument("level must be one of "
                + String.join(
                        ", ", Arrays.stream(values()).map(CourseLevel::wireName).toList())
                + " (got '" + LearningException.echo(value) + "')");
    }
}
