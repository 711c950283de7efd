package dev.baton.learning.assessment;

import dev.baton.learning.Learner;
import java.util.List;

/** Where grades are kept; reads are scoped to one learner. */
public interface GradeRepository {

    void insert(Grade grade);

    /**
     * The learner's grades with their course titles, by course then newest first, at most {@code limit}.
     *
     * @param courseId only this course's, or null for every course
     */
    List<CourseGrade> grades(Learner learner, String courseId, int limit);
}
