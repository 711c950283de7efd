package dev.baton.learning.catalogue;

import java.util.Objects;

/**
 * A course of the catalogue. The catalogue is shared by every learner of the deployment.
 *
 * @param id a short stable slug such as {@code quantum-physics-101}, so a model and a URL can both carry it
 * @param open whether it takes new enrolments
 * @param priceCents the price in the smallest unit of the deployment's currency; 0 for free
 */
public record Course(
        String id,
        String title,
        String summary,
        String instructor,
        String category,
        CourseLevel level,
        boolean open,
        long priceCents) {
    public Course {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        summary = summary == null ? "" : summary;
        Objects.requireNonNull(instructor, "instructor");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(level, "level");
        if (priceCents < 0) throw new IllegalArgumentException("priceCents must be >= 0");
    }
}
