package dev.baton.core.hook;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What the pipeline needs to know about a module to run it.
 *
 * <p>Priority bands (lower runs first): 1–10 safety, 20–40 content modifiers, 50 default, 60–80 enrichment,
 * 90–99 logging and analytics.
 *
 * @param id the module's id, as named in configuration ({@code pii-redaction}); also recorded in audit rows
 * @param priority 1–99, lower runs first; modules with equal priority keep their configured order
 * @param timeout how long one hook call may take before it counts as a failure
 * @param failClosed when true a failure or timeout blocks the turn with {@code safeResponse} instead of being
 *     skipped
 * @param hooks the hooks the module wants to be called for
 * @param safeResponse what the user is told when the module fails closed; null for the pipeline's default
 */
public record ModuleDescriptor(
        String id, int priority, Duration timeout, boolean failClosed, Set<Hook> hooks, String safeResponse) {

    public static final int DEFAULT_PRIORITY = 50;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    public ModuleDescriptor {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("module id is blank");
        }
        if (priority < 1 || priority > 99) {
            throw new IllegalArgumentException("priority must be 1..99, got " + priority);
        }
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        hooks = hooks == null || hooks.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(hooks));
    }

    /** A fail-open module with the default priority and timeout, called for {@code hooks}. */
    public static ModuleDescriptor of(String id, Hook... hooks) {
        return new ModuleDescriptor(id, DEFAULT_PRIORITY, DEFAULT_TIMEOUT, false, Set.of(hooks), null);
    }

    public ModuleDescriptor withPriority(int newPriority) {
        return new ModuleDescriptor(id, newPriority, timeout, failClosed, hooks, safeResponse);
    }

    public ModuleDescriptor withTimeout(Duration newTimeout) {
        return new ModuleDescriptor(id, priority, newTimeout, failClosed, hooks, safeResponse);
    }

    /** This module failing closed: a failure blocks the turn with {@code response} (null for the default). */
    public ModuleDescriptor failingClosed(String response) {
        return new ModuleDescriptor(id, priority, timeout, true, hooks, response);
    }

    public boolean handles(Hook hook) {
        return hooks.contains(hook);
    }
}
