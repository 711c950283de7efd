package dev.baton.simulator;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a user of the learning platform agent asked for, read from a handful of plain phrasings. */
sealed interface PlatformIntent {

    record ListCourses() implements PlatformIntent {}

    record Search(String query) implements PlatformIntent {}

    /** @param course an id (slug) or words to search for */
    record Enrol(String course) implements PlatformIntent {}

    record MyCourses() implements PlatformIntent {}

    /** @param course an id, or null for every course */
    record Grades(String course) implements PlatformIntent {}

    record AddToCart(String item, boolean resource) implements PlatformIntent {}

    record BookLab(String labId, String start) implements PlatformIntent {}

    record Ask(String courseId, String question) implements PlatformIntent {}

    /** @param param the route's one parameter value, or null */
    record Navigate(String route, String param) implements PlatformIntent {}

    record Unknown() implements PlatformIntent {}

    int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    Pattern SLUG = Pattern.compile("[a-z0-9]+(?:-[a-z0-9]+)+|[a-z]+-?\\d+");
    Pattern POLITE = Pattern.compile("^(?:please\\s+|can you\\s+|could you\\s+)", FLAGS);
    Pattern LIST = Pattern.compile(
            "^(?:list|show(?: me)?|what are)(?: all| the)?(?: available)? courses$|^what courses\\b.*$", FLAGS);
    Pattern SEARCH = Pattern.compile(
            "^(?:search|find|look for)(?: for)?(?: a| the)?(?: courses?)?(?: about| on| in| for)?\\s+(.+)$|^courses (?:about|on|in)\\s+(.+)$",
            FLAGS);
    Pattern ENROL =
            Pattern.compile("^(?:enrol|enroll|sign me up|register)(?: me)?(?: in| into| on| for)?\\s+(.+)$", FLAGS);
    Pattern MY_COURSES =
            Pattern.compile("\\b(?:my (?:courses|enrol(?:l)?ments|progress)|what am i enrolled in)\\b", FLAGS);
    Pattern GRADES = Pattern.compile("\\bmy grades(?:\\s+(?:in|for)\\s+(.+))?$", FLAGS);
    Pattern CART = Pattern.compile("^add\\s+(?:the\\s+)?(resource\\s+)?(.+?)\\s+to\\s+(?:my\\s+)?cart$", FLAGS);
    Pattern BOOK = Pattern.compile(
            "^book\\s+(?:a\\s+(?:seat|slot)\\s+in\\s+)?(?:the\\s+)?(.+?)\\s+(?:at|on|for)\\s+(\\d{4}-\\d{2}-\\d{2}T\\S+)$",
            FLAGS);
    Pattern ASK = Pattern.compile("^ask(?: a question)?\\s+(?:in|about)\\s+(\\S+?)\\s*:\\s*(.+)$", FLAGS);
    Pattern NAVIGATE = Pattern.compile(
            "^(?:open|go to|take me to|navigate to)\\s+(?:my\\s+|the\\s+)?(cart|grades|courses|bookings|profile|catalogue|labs|checkout|course\\s+(\\S+))$",
            FLAGS);

    static PlatformIntent parse(String message) {
        String text = POLITE.matcher(message.strip().replaceAll("[.!?]+$", ""))
                .replaceFirst("")
                .strip();
        Matcher m;
        if ((m = NAVIGATE.matcher(text)).matches()) {
            String target = m.group(1).toLowerCase(Locale.ROOT);
            if (m.group(2) != null) return new Navigate("course_detail", m.group(2));
            return new Navigate(
                    switch (target) {
                        case "courses" -> "my_courses";
                        case "bookings" -> "my_bookings";
                        default -> target;
                    },
                    null);
        }
        if (LIST.matcher(text).matches()) return new ListCourses();
        if ((m = CART.matcher(text)).matches()) return new AddToCart(m.group(2).strip(), m.group(1) != null);
        if ((m = BOOK.matcher(text)).matches()) return new BookLab(labId(m.group(1)), m.group(2));
        if ((m = ASK.matcher(text)).matches())
            return new Ask(m.group(1), m.group(2).strip());
        if ((m = GRADES.matcher(text)).find())
            return new Grades(m.group(1) == null ? null : m.group(1).strip());
        if (MY_COURSES.matcher(text).find()) return new MyCourses();
        if ((m = ENROL.matcher(text)).matches())
            return new Enrol(m.group(1).replaceFirst("(?i)^the\\s+", "").strip());
        if ((m = SEARCH.matcher(text)).matches()) return new Search(m.group(1) != null ? m.group(1) : m.group(2));
        return new Unknown();
    }

    /** Whether the user named an id rather than words. */
    static boolean isId(String text) {
        return SLUG.matcher(text).matches();
    }

    /** "physics lab" and "physics" both name the lab physics-lab. */
    private static String labId(String name) {
        String slug = name.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        return slug.endsWith("-lab") ? slug : slug + "-lab";
    }
}
