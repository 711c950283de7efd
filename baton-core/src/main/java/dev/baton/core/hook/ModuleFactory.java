package dev.baton.core.hook;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Creates a module from its configuration. Registered through {@link java.util.ServiceLoader}: list the
 * implementation's class name in {@code META-INF/services/dev.baton.core.hook.ModuleFactory} of your jar and
 * name its {@link #id()} in an agent's {@code modules:} list (see docs/modules.md).
 */
public interface ModuleFactory {

    /** The id agents use to name the module, e.g. {@code pii-redaction}. */
    String id();

    /**
     * A module configured with {@code config} (the entry's {@code config:} object; an empty object when none).
     *
     * @throws IllegalArgumentException when the configuration is invalid (reported at startup)
     */
    Module create(JsonNode config);
}
