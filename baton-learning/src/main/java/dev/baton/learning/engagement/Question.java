package dev.baton.learning.engagement;

import dev.baton.learning.Learner;
import java.time.Instant;
import java.util.Objects;

/** A question a learner asked in a course's Q&A. */
public record Question(String id, Learner author, String courseId, String title, String body, Instant askedAt) {
    public Question {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(author, "author");
        Objects.requireNonNull(courseId, "courseId");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(askedAt, "askedAt");
    }
}
