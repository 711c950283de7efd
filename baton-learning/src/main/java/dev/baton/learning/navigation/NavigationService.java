package dev.baton.learning.navigation;

import dev.baton.core.auth.Principal;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** A static map of the learning app's routes: no database, no state; parameters are URL-encoded into the path. */
public final class NavigationService {

    /** The app's routes, in the order they are listed. */
    public static final List<AppRoute> ROUTES = List.of(
            new AppRoute("home", "The learner's dashboard", "/", List.of()),
            new AppRoute("catalogue", "Every course on offer", "/courses", List.of()),
            new AppRoute("course_detail", "One course's page", "/courses/{course_id}", List.of("course_id")),
            new AppRoute("my_courses", "The learner's enrolled courses and progress", "/me/courses", List.of()),
            new AppRoute("grades", "The learner's grades", "/me/grades", List.of()),
            new AppRoute(
                    "course_grades",
                    "The learner's grades in one course",
                    "/me/grades/{course_id}",
                    List.of("course_id")),
            new AppRoute("cart", "The learner's cart", "/cart", List.of()),
            new AppRoute("checkout", "Pay for the cart", "/cart/checkout", List.of()),
            new AppRoute("labs", "Every lab and its free slots", "/labs", List.of()),
            new AppRoute("lab_booking", "Book a slot of one lab", "/labs/{lab_id}/book", List.of("lab_id")),
            new AppRoute("my_bookings", "The learner's lab bookings", "/me/bookings", List.of()),
            new AppRoute("course_questions", "A course's Q&A", "/courses/{course_id}/questions", List.of("course_id")),
            new AppRoute("profile", "The learner's profile and settings", "/me", List.of()));

    private static final int MAX_PARAM = 200;

    private final Map<String, AppRoute> byName = new LinkedHashMap<>();

    public NavigationService() {
        ROUTES.forEach(r -> byName.put(r.name(), r));
    }

    public List<AppRoute> routes(Principal principal) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        return ROUTES;
    }

    /**
     * The path of a route with its parameters filled in.
     *
     * @throws LearningException invalid_argument for an unknown route, a missing or unknown parameter
     */
    public ResolvedRoute resolve(Principal principal, String routeName, Map<String, String> params) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        Objects.requireNonNull(params, "params");
        AppRoute route = byName.get(routeName == null ? "" : routeName.strip());
        if (route == null) {
            throw LearningException.invalidArgument("unknown route '" + LearningException.echo(routeName)
                    + "'; known routes: " + String.join(", ", byName.keySet()));
        }
        Set<String> unknown = new TreeSet<>(params.keySet());
        unknown.removeAll(route.params());
        if (!unknown.isEmpty()) {
            throw LearningException.invalidArgument("route '" + route.name() + "' takes "
                    + (route.params().isEmpty() ? "no parameters" : "only " + String.join(", ", route.params()))
                    + " (got " + String.join(", ", unknown) + ")");
        }
        String path = route.pathTemplate();
        for (String param : route.params()) {
            String value = params.get(param);
            if (value == null || value.isBlank() || value.length() > MAX_PARAM) {
                throw LearningException.invalidArgument("route '" + route.name() + "' needs " + param);
            }
            path = path.replace(
                    "{" + param + "}",
                    URLEncoder.encode(value.strip(), StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return new ResolvedRoute(route.name(), path);
    }
}
