package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.domain.JsonFields;
import dev.baton.core.domain.ListingJson;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningException;
import dev.baton.learning.assessment.CourseGrade;
import dev.baton.learning.catalogue.Course;
import dev.baton.learning.commerce.Cart;
import dev.baton.learning.commerce.CartItem;
import dev.baton.learning.engagement.Question;
import dev.baton.learning.enrolment.EnrolledCourse;
import dev.baton.learning.enrolment.Enrolment;
import dev.baton.learning.labs.Booking;
import dev.baton.learning.labs.Lab;
import dev.baton.learning.labs.LabSlot;
import dev.baton.learning.navigation.AppRoute;
import dev.baton.learning.navigation.ResolvedRoute;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The JSON shapes of the learning platform, shared by its tools and its REST API ({@code /v1/learning}), so both
 * speak one shape. Owner fields are never included: a result is always the caller's. Instants are ISO-8601 UTC.
 */
public final class LearningJson {
    /** The mapper results are built with. */
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private LearningJson() {}

    public static ObjectNode course(Course c) {
        return MAPPER.createObjectNode()
                .put("id", c.id())
                .put("title", c.title())
                .put("summary", c.summary())
                .put("instructor", c.instructor())
                .put("category", c.category())
                .put("level", c.level().wireName())
                .put("open", c.open())
                .put("priceCents", c.priceCents());
    }

    public static ObjectNode courses(List<Course> courses) {
        return ListingJson.of("courses", courses, LearningJson::course);
    }

    /** {@code {course, progressPercent, status, enrolledAt}} */
    public static ObjectNode enrolment(EnrolledCourse e) {
        ObjectNode json = MAPPER.createObjectNode();
        json.set("course", course(e.course()));
        return progress(json, e.enrolment());
    }

    public static ObjectNode progress(ObjectNode json, Enrolment e) {
        return json.put("courseId", e.courseId())
                .put("progressPercent", e.progressPercent())
                .put("status", e.status().wireName())
                .put("enrolledAt", instant(e.enrolledAt()))
                .put("updatedAt", instant(e.updatedAt()));
    }

    public static ObjectNode enrolments(List<EnrolledCourse> enrolments) {
        return ListingJson.of("enrollments", enrolments, LearningJson::enrolment);
    }

    public static ObjectNode grade(CourseGrade g) {
        return MAPPER.createObjectNode()
                .put("id", g.grade().id())
                .put("courseId", g.grade().courseId())
                .put("courseTitle", g.courseTitle())
                .put("item", g.grade().item())
                .put("points", g.grade().points())
                .put("maxPoints", g.grade().maxPoints())
                .put("gradedAt", instant(g.grade().gradedAt()));
    }

    public static ObjectNode grades(List<CourseGrade> grades) {
        return ListingJson.of("grades", grades, LearningJson::grade);
    }

    public static ObjectNode cartItem(CartItem i) {
        return MAPPER.createObjectNode()
                .put("type", i.type().wireName())
                .put("itemId", i.itemId())
                .put("title", i.title())
                .put("priceCents", i.priceCents())
                .put("addedAt", instant(i.addedAt()));
    }

    /** {@code {"items": [...], "count": N, "totalCents": T}} */
    public static ObjectNode cart(Cart cart) {
        return ListingJson.of("items", cart.items(), LearningJson::cartItem).put("totalCents", cart.totalCents());
    }

    public static ObjectNode lab(Lab l) {
        return MAPPER.createObjectNode()
                .put("id", l.id())
                .put("name", l.name())
                .put("courseId", l.courseId())
                .put("location", l.location());
    }

    public static ObjectNode labs(List<Lab> labs) {
        return ListingJson.of("labs", labs, LearningJson::lab);
    }

    public static ObjectNode slot(LabSlot s) {
        return MAPPER.createObjectNode()
                .put("labId", s.labId())
                .put("slotStart", instant(s.startsAt()))
                .put("slotEnd", instant(s.endsAt()))
                .put("capacity", s.capacity())
                .put("seatsLeft", s.seatsLeft());
    }

    public static ObjectNode slots(List<LabSlot> slots) {
        return ListingJson.of("slots", slots, LearningJson::slot);
    }

    public static ObjectNode booking(Booking b) {
        return MAPPER.createObjectNode()
                .put("id", b.id())
                .put("labId", b.labId())
                .put("slotStart", instant(b.startsAt()))
                .put("slotEnd", instant(b.endsAt()))
                .put("bookedAt", instant(b.bookedAt()));
    }

    public static ObjectNode bookings(List<Booking> bookings) {
        return ListingJson.of("bookings", bookings, LearningJson::booking);
    }

    /** @param caller marks the caller's own questions ({@code mine}); other askers stay anonymous */
    public static ObjectNode question(Question q, Learner caller) {
        return MAPPER.createObjectNode()
                .put("id", q.id())
                .put("courseId", q.courseId())
                .put("title", q.title())
                .put("body", q.body())
                .put("mine", q.author().equals(caller))
                .put("askedAt", instant(q.askedAt()));
    }

    public static ObjectNode questions(List<Question> questions, Learner caller) {
        return ListingJson.of("questions", questions, q -> question(q, caller));
    }

    public static ObjectNode route(AppRoute r) {
        ObjectNode json = MAPPER.createObjectNode()
                .put("name", r.name())
                .put("description", r.description())
                .put("path", r.pathTemplate());
        r.params().forEach(json.putArray("params")::add);
        return json;
    }

    public static ObjectNode routes(List<AppRoute> routes) {
        return ListingJson.of("routes", routes, LearningJson::route);
    }

    public static ObjectNode resolved(ResolvedRoute r) {
        return MAPPER.createObjectNode().put("route", r.name()).put("path", r.path());
    }

    /**
     * The fields of a request body or tool arguments, refusing anything but an object with {@code allowed} fields;
     * no body at all (a tool called without arguments) reads as no fields.
     */
    public static JsonFields fields(JsonNode body, Set<String> allowed) {
        JsonNode object = body == null || body.isNull() || body.isMissingNode() ? MAPPER.createObjectNode() : body;
        return JsonFields.of(object, allowed, LearningException::malformed);
    }

    /**
     * A required whole number of a body the caller already checked with {@link #fields}.
     *
     * @throws LearningException invalid_request when it is missing or not an integer
     */
    public static int integer(JsonNode body, String field) {
        JsonNode value = body == null ? null : body.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToInt())
            throw LearningException.malformed(field + " must be a whole number");
        return value.intValue();
    }

    private static String instant(Instant value) {
        return value == null ? null : value.toString();
    }
}
