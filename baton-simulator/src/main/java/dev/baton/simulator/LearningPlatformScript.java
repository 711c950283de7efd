package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * The bundled script for the learning platform agent: it drives the nine platform tools for plain phrasings (see
 * {@link PlatformIntent}), such as "list courses", "search courses about physics", "enroll me in calculus-1", "my
 * courses", "my grades in calculus-1", "add quantum-workbook resource to my cart", "book the physics lab at
 * 2026-11-19T10:00:00Z", "ask in calculus-1: what is a limit?" and "open my cart". Enrolling by name searches first
 * and enrols only when exactly one course matches: it never invents an id.
 */
public final class LearningPlatformScript {

    public static final String HELP = """
            I can help with your courses. Try "list courses", "search courses about physics", "enroll me in \
            calculus-1", "my courses", "my grades", "add python-cheatsheet resource to my cart", "book the physics lab \
            at <slot start>", "ask in calculus-1: <question>" or "open my cart". (Simulated model — set \
            OPENAI_API_KEY to use a real one.)""";

    private LearningPlatformScript() {}

    public static SimulatorScript create() {
        return SimulatorScript.builder()
                .responder("learning-platform", request -> Optional.of(respond(request)))
                .fallback(HELP)
                .build();
    }

    static Reply respond(RecordedRequest request) {
        PlatformIntent intent = PlatformIntent.parse(request.lastUserMessage());
        var toolResult = request.lastToolResult();
        if (toolResult.isPresent()) return afterTool(request, intent, toolResult.get());
        return switch (intent) {
            case PlatformIntent.ListCourses list -> call(request, "list_courses", json());
            case PlatformIntent.Search search -> call(request, "search_courses", json().put("query", search.query()));
            case PlatformIntent.Enrol enrol ->
                PlatformIntent.isId(enrol.course())
                        ? call(request, "enroll_in_course", json().put("course_id", enrol.course()))
                        : call(request, "search_courses", json().put("query", enrol.course()));
            case PlatformIntent.MyCourses mine -> call(request, "get_my_enrollments", json());
            case PlatformIntent.Grades grades ->
                call(
                        request,
                        "get_course_grades",
                        grades.course() == null ? json() : json().put("course_id", grades.course()));
            case PlatformIntent.AddToCart add ->
                PlatformIntent.isId(add.item())
                        ? call(
                                request,
                                "add_to_cart",
                                json().put("item_id", add.item()).put("type", add.resource() ? "resource" : "course"))
                        : call(request, "search_courses", json().put("query", add.item()));
            case PlatformIntent.BookLab book ->
                call(request, "book_lab", json().put("lab_id", book.labId()).put("slot_start", book.start()));
            case PlatformIntent.Ask ask ->
                call(
                        request,
                        "ask_question",
                        json().put("course_id", ask.courseId())
                                .put(
                                        "title",
                                        ask.question().length() <= 80
                                                ? ask.question()
                                                : ask.question().substring(0, 80))
                                .put("body", ask.question()));
            case PlatformIntent.Navigate nav ->
                call(
                        request,
                        "navigate_to_route",
                        nav.param() == null
                                ? json().put("route_name", nav.route())
                                : json().put("route_name", nav.route())
                                        .set("params", json().put("course_id", nav.param())));
            case PlatformIntent.Unknown unknown -> Reply.text(HELP);
        };
    }

    private static Reply afterTool(RecordedRequest request, PlatformIntent intent, ToolResultMessage result) {
        JsonNode json = ScriptJson.parse(result.content());
        var error = ScriptJson.error(json);
        if (error.isPresent()) return Reply.text("Sorry, I couldn't do that: " + error.get() + ".");
        return switch (result.toolName()) {
            case "list_courses" -> Reply.text(courses("Here are the courses on offer:", json.path("courses")));
            case "search_courses" -> afterSearch(request, intent, json.path("courses"));
            case "enroll_in_course" ->
                Reply.text("You're enrolled in "
                        + json.at("/enrollment/course/title").asText() + ".");
            case "get_my_enrollments" -> Reply.text(enrolments(json.path("enrollments")));
            case "get_course_grades" -> Reply.text(grades(json.path("grades")));
            case "add_to_cart" ->
                Reply.text("I've added " + json.at("/item/title").asText() + " to your cart.");
            case "book_lab" ->
                Reply.text("Booked: " + json.at("/booking/labId").asText() + " at "
                        + json.at("/booking/slotStart").asText() + ".");
            case "ask_question" ->
                Reply.text("I've posted your question “"
                        + json.at("/question/title").asText() + "” in the course's Q&A.");
            case "navigate_to_route" ->
                Reply.text("You'll find it at " + json.path("path").asText() + ".");
            default -> Reply.text("Done.");
        };
    }

    private static Reply afterSearch(RecordedRequest request, PlatformIntent intent, JsonNode courses) {
        boolean enrolling = intent instanceof PlatformIntent.Enrol;
        boolean buying = intent instanceof PlatformIntent.AddToCart;
        if (!enrolling && !buying) return Reply.text(courses("I found these courses:", courses));
        if (courses.size() != 1) {
            return Reply.text(
                    courses.isEmpty()
                            ? "I couldn't find a course like that."
                            : courses("Several courses match; which one do you mean?", courses));
        }
        String id = courses.get(0).path("id").asText();
        return enrolling
                ? call(request, "enroll_in_course", json().put("course_id", id))
                : call(request, "add_to_cart", json().put("item_id", id).put("type", "course"));
    }

    private static String courses(String heading, JsonNode courses) {
        if (courses.isEmpty()) return "I couldn't find any courses.";
        StringBuilder text = new StringBuilder(heading);
        for (JsonNode c : courses) {
            text.append("\n- ")
                    .append(c.path("title").asText())
                    .append(" (")
                    .append(c.path("id").asText())
                    .append(", ")
                    .append(c.path("level").asText())
                    .append(", ")
                    .append(c.path("instructor").asText())
                    .append(')');
        }
        return text.toString();
    }

    private static String enrolments(JsonNode enrolments) {
        if (enrolments.isEmpty()) return "You're not enrolled in any course yet.";
        StringBuilder text = new StringBuilder("Your courses:");
        for (JsonNode e : enrolments) {
            text.append("\n- ")
                    .append(e.at("/course/title").asText())
                    .append(": ")
                    .append(e.path("progressPercent").asInt())
                    .append("% done");
        }
        return text.toString();
    }

    private static String grades(JsonNode grades) {
        if (grades.isEmpty()) return "You have no grades yet.";
        StringBuilder text = new StringBuilder("Your grades:");
        for (JsonNode g : grades) {
            text.append("\n- ")
                    .append(g.path("courseTitle").asText())
                    .append(", ")
                    .append(g.path("item").asText())
                    .append(": ")
                    .append(g.path("points").asInt())
                    .append('/')
                    .append(g.path("maxPoints").asInt());
        }
        return text.toString();
    }

    private static Reply call(RecordedRequest request, String tool, JsonNode arguments) {
        return ScriptJson.call(request, tool, arguments);
    }

    private static ObjectNode json() {
        return ChatWire.JSON.createObjectNode();
    }
}
