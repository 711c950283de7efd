package dev.baton.learning.engagement;

import java.util.List;

/** Where course Q&A questions are kept. */
public interface QuestionRepository {

    void insert(Question question);

    /** The questions asked in the course within the tenant, newest first, at most {@code limit}. */
    List<Question> questions(String tenantId, String courseId, int limit);
}
