package dev.baton.modules.pii;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.hook.ModuleFactory;
import dev.baton.modules.config.ModuleConfig;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;

/**
 * Creates {@code pii-redaction} modules. Config (all optional):
 *
 * <pre>{@code
 * modules:
 *   - id: pii-redaction
 *     config:
 *       types: [email, phone, card, ssn, iban]   # default: all
 *       input: true      # redact the user message before the model sees it
 *       output: true     # redact the streamed answer
 *       afterAi: false   # also check the complete answer after the model (stops incremental streaming)
 * }</pre>
 *
 * Priority 5 (safety band) unless the entry sets {@code priority}.
 */
public final class PiiRedactionFactory implements ModuleFactory {

    private static final Set<String> KEYS = Set.of("types", "input", "output", "afterAi");

    @Override
    public String id() {
        return PiiRedactionModule.ID;
    }

    @Override
    public Module create(JsonNode config) {
        ModuleConfig c = ModuleConfig.of(PiiRedactionModule.ID, config, KEYS);
        Set<PiiType> types = EnumSet.noneOf(PiiType.class);
        for (String name : c.strings("types")) {
            try {
                types.add(PiiType.fromWire(name));
            } catch (IllegalArgumentException e) {
                throw c.invalid("types", "names an unknown type '" + name + "' (email, phone, card, ssn, iban)");
            }
        }
        PiiDetector detector = types.isEmpty() ? PiiDetector.all() : PiiDetector.of(types);
        Set<Hook> hooks = new HashSet<>();
        if (c.bool("input", true)) {
            hooks.add(Hook.BEFORE_AI);
        }
        if (c.bool("afterAi", false)) {
            hooks.add(Hook.AFTER_AI);
        }
        ModuleDescriptor base = new ModuleDescriptor(
                PiiRedactionModule.ID,
                PiiRedactionModule.DEFAULT_PRIORITY,
                ModuleDescriptor.DEFAULT_TIMEOUT,
                false,
                hooks,
                null);
        return new PiiRedactionModule(base, detector, c.bool("output", true));
    }
}
