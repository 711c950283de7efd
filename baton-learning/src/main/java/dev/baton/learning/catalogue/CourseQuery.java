package dev.baton.learning.catalogue;

import dev.baton.learning.Texts;

/**
 * Which courses to list. Text matches a course's title, summary, instructor or category, ignoring case; category
 * matches exactly, ignoring case. Any part may be null.
 */
public record CourseQuery(String text, String category, CourseLevel level) {
    public static final int MAX_TEXT = 200;
    public static final CourseQuery ALL = new CourseQuery(null, null, null);

    public CourseQuery {
        text = Texts.optional(text, "query", MAX_TEXT);
        category = Texts.optional(category, "category", MAX_TEXT);
    }

    /** From wire values, any of which may be null. */
    public static CourseQuery of(String text, String category, String level) {
        return new CourseQuery(text, category, level == null ? null : CourseLevel.parse(level));
    }
}
