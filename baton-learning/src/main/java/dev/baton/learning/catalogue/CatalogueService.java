package dev.baton.learning.catalogue;

import dev.baton.core.auth.Principal;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.Texts;
import java.util.List;
import java.util.Objects;

/** The catalogue: courses with instructor, category and level, and the resources sold beside them. */
public final class CatalogueService {
    /** A listing returns at most this many courses. */
    public static final int MAX_LISTED = 100;

    private final CatalogueRepository repository;

    public CatalogueService(CatalogueRepository repository) {
        this.repository = Objects.requireNonNull(repository, "repository");
    }

    /** Every course, by title. */
    public List<Course> listCourses(Principal principal) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        return repository.courses(CourseQuery.ALL, MAX_LISTED);
    }

    /** Courses matching the query, by title. */
    public List<Course> search(Principal principal, CourseQuery query) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        return repository.courses(Objects.requireNonNull(query, "query"), MAX_LISTED);
    }

    /** @throws LearningException not_found for an unknown course */
    public Course course(Principal principal, String courseId) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        return find(courseId);
    }

    /** For the other learning services: the course, or not_found. */
    public Course find(String courseId) {
        if (!Texts.plausibleId(courseId)) throw LearningException.notFound("course", courseId);
        return repository.course(courseId).orElseThrow(() -> LearningException.notFound("course", courseId));
    }

    /** For the other learning services: the resource, or not_found. */
    public Resource findResource(String resourceId) {
        if (!Texts.plausibleId(resourceId)) throw LearningException.notFound("resource", resourceId);
        return repository.resource(resourceId).orElseThrow(() -> LearningException.notFound("resource", resourceId));
    }
}
