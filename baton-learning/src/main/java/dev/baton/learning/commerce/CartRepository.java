package dev.baton.learning.commerce;

import dev.baton.learning.Learner;
import java.util.List;

/** Where carts are kept; every method is scoped to one learner. */
public interface CartRepository {

    /**
     * Adds the line unless the learner's cart already holds that item (checked by the database).
     *
     * @return false when it was already there
     */
    boolean insert(CartItem item);

    /** The learner's cart lines, oldest first, at most {@code limit}. */
    List<CartItem> items(Learner learner, int limit);

    /** @return whether the learner's cart held the item */
    boolean remove(Learner learner, ItemType type, String itemId);
}
