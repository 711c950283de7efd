package dev.baton.learning.navigation;

import java.util.List;
import java.util.Objects;

/**
 * A page of the learning app a user can be sent to.
 *
 * @param name what a model asks for, e.g. {@code course_detail}
 * @param pathTemplate the path with {@code {param}} placeholders, e.g. {@code /courses/{course_id}}
 * @param params the placeholders the path needs, in order
 */
public record AppRoute(String name, String description, String pathTemplate, List<String> params) {
    public AppRoute {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(pathTemplate, "pathTemplate");
        params = List.copyOf(params);
    }
}
