package dev.baton.learning.labs;

import java.util.Objects;

/**
 * A lab learners book time in.
 *
 * @param courseId the course it belongs to, or null for a general lab
 */
public record Lab(String id, String name, String courseId, String location) {
    public Lab {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        location = location == null ? "" : location;
    }
}
