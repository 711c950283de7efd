package dev.baton.core.model;

import java.util.Objects;

/** A gateway together with the model name to ask it for: what "provider:model" resolves to. */
public record ModelBinding(String reference, ModelGateway gateway, String model) {
    public ModelBinding {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(model, "model");
    }
}
