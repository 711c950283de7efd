package dev.baton.learning.commerce;

import dev.baton.learning.Learner;
import java.time.Instant;
import java.util.Objects;

/**
 * One line of a learner's cart. Title and price are copied when the item is added: the line shows what the learner
 * saw then.
 */
public record CartItem(
        String id, Learner learner, ItemType type, String itemId, String title, long priceCents, Instant addedAt) {
    public CartItem {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(learner, "learner");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(itemId, "itemId");
        Objects.requireNonNull(title, "title");
        if (priceCents < 0) throw new IllegalArgumentException("priceCents must be >= 0");
        Objects.requireNonNull(addedAt, "addedAt");
    }
}
