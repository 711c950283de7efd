package dev.baton.core.hook;

import java.util.Objects;

/** An extraction with the module that produced it. */
public record ModuleExtraction(String module, HookResult.Extraction extraction) {
    public ModuleExtraction {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(extraction, "extraction");
    }
}
