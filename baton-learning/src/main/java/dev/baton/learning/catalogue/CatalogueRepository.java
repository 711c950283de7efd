package dev.baton.learning.catalogue;

import java.util.List;
import java.util.Optional;

/** Where the catalogue is kept. */
public interface CatalogueRepository {

    /** Courses matching the query, by title, at most {@code limit}. */
    List<Course> courses(CourseQuery query, int limit);

    Optional<Course> course(String id);

    Optional<Resource> resource(String id);

    /**
     * Stores the courses and resources that are not there yet (by id); safe when several instances seed at once.
     *
     * @return how many courses were added
     */
    int seed(List<Course> courses, List<Resource> resources);

    /** Whether the catalogue has no course: the demo catalogue is seeded only into an empty one. */
    boolean isEmpty();
}
