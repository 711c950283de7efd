package dev.baton.core.model;

import java.util.List;

/** Resolves a "provider:model" reference (DESIGN §8) to a configured gateway. */
public interface ModelResolver {

    /** @throws IllegalArgumentException when the provider is unknown or not configured */
    ModelBinding resolve(String reference);

    /**
     * Resolves a primary model with fallbacks used in order when it fails or its circuit is open. Resolvers
     * without fallback support answer with the primary alone.
     */
    default ModelBinding resolve(String primary, List<String> fallbacks) {
        return resolve(primary);
    }
}
