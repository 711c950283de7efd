package dev.baton.mcp.pin;

import dev.baton.core.tool.pin.ToolPin;
import dev.baton.core.tool.pin.ToolPins;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pins kept in this process only: for tests and for embedded programs without a database. A restart forgets every
 * pin, so a tool changed while the process was down is pinned afresh; use the database in production.
 */
public final class InMemoryToolPins implements ToolPins {
    private final Map<String, ToolPin> pins = new ConcurrentHashMap<>();

    @Override
    public ToolPin observe(String server, String tool, String hash, Instant now) {
        return pins.compute(key(server, tool), (k, pin) -> {
            if (pin == null) return new ToolPin(server, tool, hash, now, null, null);
            if (pin.pinnedHash().equals(hash)) return new ToolPin(server, tool, hash, pin.pinnedAt(), null, null);
            if (hash.equals(pin.changedHash())) return pin;
            return new ToolPin(server, tool, pin.pinnedHash(), pin.pinnedAt(), hash, now);
        });
    }

    @Override
    public boolean accept(String server, String tool, String hash, Instant now) {
        boolean[] accepted = {false};
        pins.computeIfPresent(key(server, tool), (k, pin) -> {
            if (!hash.equals(pin.changedHash())) return pin;
            accepted[0] = true;
            return new ToolPin(server, tool, hash, now, null, null);
        });
        return accepted[0];
    }

    @Override
    public List<ToolPin> all() {
        return pins.values().stream()
                .sorted(Comparator.comparing(ToolPin::server).thenComparing(ToolPin::tool))
                .toList();
    }

    private static String key(String server, String tool) {
        return server + '\u0000' + tool;
    }
}
