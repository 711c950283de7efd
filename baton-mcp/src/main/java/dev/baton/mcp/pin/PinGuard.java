package dev.baton.mcp.pin;

import dev.baton.core.tool.pin.ToolPin;
import dev.baton.core.tool.pin.ToolPins;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, every time a server lists its tools, which of them may be offered: a tool seen for the first time is
 * pinned; one that matches its pin is offered; one that differs (a "rug pull": the description or schema the model
 * relied on changed under it) is disabled until an operator accepts the change, and says so once in the log.
 */
public final class PinGuard {
    private static final Logger log = LoggerFactory.getLogger(PinGuard.class);

    /** What may be done with a listed tool. */
    public sealed interface Verdict {
        record Allowed() implements Verdict {}

        /** The tool differs from its pin. */
        record Changed(ToolPin pin) implements Verdict {}

        /** The pins could not be read: a tool nobody can vouch for is not offered. */
        record Unverified(String reason) implements Verdict {}
    }

    private final ToolPins pins;
    private final Clock clock;
    /** Changes already logged, so a server listing its tools every few seconds does not flood the log. */
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    private final Map<String, List<String>> flags = new ConcurrentHashMap<>();

    public PinGuard(ToolPins pins, Clock clock) {
        this.pins = Objects.requireNonNull(pins, "pins");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Verdict check(String server, String tool, String fingerprint) {
        ToolPin pin;
        try {
            pin = pins.observe(server, tool, fingerprint, clock.instant());
        } catch (RuntimeException e) {
            log.error("MCP tool {}/{} is not offered: its pin could not be checked ({})", server, tool, e.toString());
            return new Verdict.Unverified(e.getMessage() == null ? e.toString() : e.getMessage());
        }
        if (!pin.changed()) {
            reported.remove(server + '/' + tool);
            return new Verdict.Allowed();
        }
        if (reported.add(server + '/' + tool + '@' + pin.changedHash())) {
            log.warn(
                    "MCP tool {}/{} CHANGED since it was pinned (pinned {}, now {}): it is disabled until an operator "
                            + "accepts the change (POST /v1/admin/mcp/pins/{}/{}/accept with {\"hash\":\"{}\"})",
                    server,
                    tool,
                    pin.pinnedHash(),
                    pin.changedHash(),
                    server,
                    tool,
                    pin.changedHash());
        }
        return new Verdict.Changed(pin);
    }

    /**
     * Records what an operator should look at in a tool's text (hidden characters removed, wording that reads as an
     * instruction to the model), shown with its pin, and logs it at WARN the first time it is seen in that version.
     *
     * @param fingerprint of the text as the server sent it
     */
    public void flag(String server, String tool, String fingerprint, List<String> findings) {
        String key = server + '/' + tool;
        if (findings.isEmpty()) {
            flags.remove(key);
            return;
        }
        flags.put(key, List.copyOf(findings));
        if (reported.add(key + '#' + fingerprint))
            log.warn("MCP tool {}/{} needs an operator's review: {}", server, tool, String.join("; ", findings));
    }

    /** What {@link #flag} recorded for the tool here; empty when nothing. */
    public List<String> flags(String server, String tool) {
        return flags.getOrDefault(server + '/' + tool, List.of());
    }

    /** @see ToolPins#accept */
    public boolean accept(String server, String tool, String hash) {
        boolean accepted = pins.accept(server, tool, hash, clock.instant());
        if (accepted) log.warn("MCP tool {}/{}: an operator accepted its change to {}", server, tool, hash);
        return accepted;
    }

    public ToolPins pins() {
        return pins;
    }
}
