package dev.baton.runtime.flag;

import dev.baton.runtime.experiment.OperatorAuditRecord;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Feature flag values set at runtime, shared by every instance (baton-store-jdbc's); a value here overrides
 * baton.yaml and the {@code FF_} variables until it is cleared. Each change is written with its audit record.
 */
public interface FlagStore {

    /** Every flag set at runtime: name to percentage (0 to 100). */
    Map<String, Integer> overrides();

    void set(String name, int percentage, OperatorAuditRecord audit);

    /** Removes the runtime value; false when there was none. */
    boolean clear(String name, OperatorAuditRecord audit);

    /** Runtime values in this process only (no audit trail kept): for a runtime without a database. */
    static FlagStore inMemory() {
        Map<String, Integer> values = new ConcurrentHashMap<>();
        return new FlagStore() {
            @Override
            public Map<String, Integer> overrides() {
                return Map.copyOf(values);
            }

            @Override
            public void set(String name, int percentage, OperatorAuditRecord audit) {
                values.put(name, percentage);
            }

            @Override
            public boolean clear(String name, OperatorAuditRecord audit) {
                return values.remove(name) != null;
            }
        };
    }
}
