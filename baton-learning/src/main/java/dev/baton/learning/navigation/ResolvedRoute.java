package dev.baton.learning.navigation;

import java.util.Objects;

/** A route with its parameters filled in: where the app should go. */
public record ResolvedRoute(String name, String path) {
    public ResolvedRoute {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
    }
}
