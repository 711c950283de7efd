package dev.baton.learning.commerce;

import java.util.List;

/** A learner's cart: its lines, oldest first, and what they add up to. */
public record Cart(List<CartItem> items) {
    public Cart {
        items = List.copyOf(items);
    }

    public long totalCents() {
        return items.stream().mapToLong(CartItem::priceCents).sum();
    }
}
