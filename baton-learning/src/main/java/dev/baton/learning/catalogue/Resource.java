package dev.baton.learning.catalogue;

import java.util.Objects;

/**
 * Something sold besides courses: a book, a lab kit, a recorded workshop.
 *
 * @param kind what it is, e.g. {@code ebook}
 * @param courseId the course it goes with, or null
 */
public record Resource(String id, String title, String kind, String courseId, long priceCents) {
    public Resource {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(kind, "kind");
        if (priceCents < 0) throw new IllegalArgumentException("priceCents must be >= 0");
    }
}
