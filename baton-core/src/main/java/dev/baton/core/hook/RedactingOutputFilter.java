package dev.baton.core.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * An {@link OutputFilter} that replaces matches of a {@link Redactor} in a streamed answer, including matches split
 * across chunks.
 *
 * <p>It holds back the last {@code holdBack} characters of what it has seen. Any match that could still grow with
 * text not yet received must end after the hold-back point; if it starts before it, the point moves back to the
 * match's start. So as long as no match is longer than {@code holdBack}, no part of one is ever released unredacted.
 * The cost is that the client sees text {@code holdBack} characters late (released at {@link #flush()}).
 */
public final class RedactingOutputFilter implements OutputFilter {

    /** Finds what to redact in a piece of text. */
    @FunctionalInterface
    public interface Redactor {
        /** Non-overlapping matches in ascending order of start. */
        List<Redaction> find(String text);
    }

    /**
     * One match to replace.
     *
     * @param start inclusive
     * @param end exclusive
     * @param replacement what the client sees instead, e.g. {@code [EMAIL]}
     * @param pattern the name of what matched (for the audit trail; never the matched text)
     */
    public record Redaction(int start, int end, String replacement, String pattern) {
        public Redaction {
            Objects.requireNonNull(replacement, "replacement");
            Objects.requireNonNull(pattern, "pattern");
            if (start < 0 || end <= start) {
                throw new IllegalArgumentException("bad range " + start + ".." + end);
            }
        }
    }

    private final Redactor redactor;
    private final int holdBack;
    private final Function<List<String>, HookResult.Continue> report;
    private final StringBuilder pending = new StringBuilder();
    private final Set<String> matched = new LinkedHashSet<>();

    /**
     * @param holdBack characters held back; at least the longest match the redactor can find
     * @param report what to record when something was redacted, given the distinct pattern names (e.g. an audit
     *     note and a {@code pii_detected} extraction); called by {@link #result()} only if something matched
     */
    public RedactingOutputFilter(Redactor redactor, int holdBack, Function<List<String>, HookResult.Continue> report) {
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        if (holdBack < 1) {
            throw new IllegalArgumentException("holdBack must be >= 1");
        }
        this.holdBack = holdBack;
        this.report = Objects.requireNonNull(report, "report");
    }

    @Override
    public String onChunk(String chunk) {
        pending.append(chunk);
        String text = pending.toString();
        List<Redaction> found = redactor.find(text);
        int cut = text.length() - holdBack;
        for (Redaction r : found) {
            if (r.start() < cut && r.end() > cut) {
                cut = r.start();
            }
        }
        if (cut <= 0) {
            return "";
        }
        String released = apply(text, found, cut);
        pending.delete(0, cut);
        return released;
    }

    @Override
    public String flush() {
        String text = pending.toString();
        pending.setLength(0);
        return text.isEmpty() ? "" : apply(text, redactor.find(text), text.length());
    }

    @Override
    public HookResult.Continue result() {
        return matched.isEmpty() ? HookResult.proceed() : report.apply(List.copyOf(matched));
    }

    /** {@code {"pending": "text held back", "matched": ["pattern", ...]}}. */
    @Override
    public JsonNode exportState() {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        state.put("pending", pending.toString());
        matched.forEach(state.putArray("matched")::add);
        return state;
    }

    @Override
    public void importState(JsonNode state) {
        Objects.requireNonNull(state, "state");
        pending.setLength(0);
        pending.append(state.path("pending").asText(""));
        matched.clear();
        state.path("matched").forEach(name -> matched.add(name.asText()));
    }

    /** {@code text[0, cut)} with every match inside it replaced. */
    private String apply(String text, List<Redaction> found, int cut) {
        StringBuilder out = new StringBuilder(cut);
        int at = 0;
        List<Redaction> inside = new ArrayList<>();
        for (Redaction r : found) {
            if (r.end() <= cut && r.start() >= at) {
                inside.add(r);
                out.append(text, at, r.start()).append(r.replacement());
                at = r.end();
            }
        }
        out.append(text, at, cut);
        inside.forEach(r -> matched.add(r.pattern()));
        return out.toString();
    }
}
