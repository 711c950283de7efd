package dev.baton.core.model;

/** Resolves a "provider:model" reference (DESIGN §8) to a configured gateway. */
public interface ModelResolver {

    /** @throws IllegalArgumentException when the provider is unknown or not configured */
    ModelBinding resolve(String reference);
}
