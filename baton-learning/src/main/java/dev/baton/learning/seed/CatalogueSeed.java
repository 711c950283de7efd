package dev.baton.learning.seed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.learning.catalogue.Course;
import dev.baton.learning.catalogue.CourseLevel;
import dev.baton.learning.catalogue.Resource;
import dev.baton.learning.labs.Lab;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A catalogue to seed: the bundled demo or an operator's own file, in this shape (JSON or YAML):
 *
 * <pre>{@code
 * courses:   [{id, title, summary, instructor, category, level, open, priceCents}]
 * resources: [{id, title, kind, courseId?, priceCents}]
 * labs:      [{id, name, courseId?, location, slots: {days, times: ["10:00"], minutes, capacity}}]
 * }</pre>
 *
 * Ids are slugs of lower-case letters, digits and dashes (at most 48 characters), so a model can carry them.
 */
public record CatalogueSeed(List<Course> courses, List<Resource> resources, List<LabSeed> labs) {
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,47}");

    /** A lab with the pattern its slots follow. */
    public record LabSeed(Lab lab, SlotPattern slots) {}

    public CatalogueSeed {
        courses = List.copyOf(courses);
        resources = List.copyOf(resources);
        labs = List.copyOf(labs);
    }

    /** An empty catalogue: what an operator who switched the demo off starts with. */
    public static final CatalogueSeed NONE = new CatalogueSeed(List.of(), List.of(), List.of());

    /**
     * @throws IllegalArgumentException naming the entry and field that is wrong
     */
    public static CatalogueSeed parse(JsonNode root) {
        Set<String> courseIds = new HashSet<>();
        List<Course> courses = new ArrayList<>();
        for (JsonNode c : root.path("courses")) {
            String id = slug(c, "courses");
            if (!courseIds.add(id)) throw new IllegalArgumentException("courses: id '" + id + "' appears twice");
            courses.add(new Course(
                    id,
                    text(c, "title", "course " + id),
                    c.path("summary").asText(""),
                    text(c, "instructor", "course " + id),
                    text(c, "category", "course " + id),
                    CourseLevel.parse(text(c, "level", "course " + id)),
                    c.path("open").asBoolean(true),
                    c.path("priceCents").asLong(0)));
        }
        List<Resource> resources = new ArrayList<>();
        for (JsonNode r : root.path("resources")) {
            String id = slug(r, "resources");
            resources.add(new Resource(
                    id,
                    text(r, "title", "resource " + id),
                    text(r, "kind", "resource " + id),
                    courseRef(r, courseIds, "resource " + id),
                    r.path("priceCents").asLong(0)));
        }
        List<LabSeed> labs = new ArrayList<>();
        for (JsonNode l : root.path("labs")) {
            String id = slug(l, "labs");
            Lab lab = new Lab(
                    id,
                    text(l, "name", "lab " + id),
                    courseRef(l, courseIds, "lab " + id),
                    l.path("location").asText(""));
            labs.add(new LabSeed(lab, pattern(l.path("slots"), "lab " + id)));
        }
        return new CatalogueSeed(courses, resources, labs);
    }

    private static SlotPattern pattern(JsonNode node, String where) {
        List<LocalTime> times = new ArrayList<>();
        for (JsonNode t : node.path("times")) {
            try {
                times.add(LocalTime.parse(t.asText()));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(where + ": slots.times must be HH:MM (got '" + t.asText() + "')");
            }
        }
        try {
            return new SlotPattern(
                    node.path("days").asInt(14),
                    times,
                    Duration.ofMinutes(node.path("minutes").asInt(60)),
                    node.path("capacity").asInt(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }

    private static String slug(JsonNode node, String section) {
        String id = node.path("id").asText("");
        if (!SLUG.matcher(id).matches()) {
            throw new IllegalArgumentException(
                    section + ": id must be a slug of a-z, 0-9 and '-', at most 48 characters (got '" + id + "')");
        }
        return id;
    }

    private static String courseRef(JsonNode node, Set<String> courseIds, String where) {
        String courseId = node.path("courseId").asText(null);
        if (courseId != null && !courseIds.contains(courseId))
            throw new IllegalArgumentException(where + ": courseId '" + courseId + "' is not a course of this file");
        return courseId;
    }

    private static String text(JsonNode node, String field, String where) {
        String value = node.path(field).asText("").strip();
        if (value.isEmpty()) throw new IllegalArgumentException(where + ": " + field + " is required");
        return value;
    }
}
