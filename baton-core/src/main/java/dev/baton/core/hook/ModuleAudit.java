package dev.baton.core.hook;

import java.util.Objects;

/**
 * An audit note with the module that wrote it; its original content is always set.
 *
 * @param module the module's id
 */
public record ModuleAudit(String module, HookResult.Audit audit) {
    public ModuleAudit {
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(audit, "audit");
        Objects.requireNonNull(audit.originalContent(), "audit.originalContent");
    }
}
