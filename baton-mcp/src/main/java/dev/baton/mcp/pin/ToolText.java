package dev.baton.mcp.pin;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A server's text (a tool's title or description) made fit for the model: characters nobody sees on a screen but a
 * model reads — Unicode tag characters, zero-width characters, bidi controls — are removed, and visible wording that
 * reads as an instruction to the model rather than a description of the tool is noticed, so an operator can look at
 * it. The cleaned tool is still offered (what was hidden no longer reaches the model), but the operator is told: a
 * server that hides text from people is not to be trusted.
 *
 * @param text what the model may read
 * @param invisible how many invisible characters were removed
 * @param instructions the patterns of {@link #INSTRUCTION_PATTERNS} the text matched, for the operator
 */
public record ToolText(String text, int invisible, List<String> instructions) {

    /**
     * Wording that addresses the model instead of describing the tool. Deliberately short and literal: it is a hint for
     * a person, not a filter (a tool is never held back for it alone, only flagged), so false positives cost a glance.
     */
    public static final List<Pattern> INSTRUCTION_PATTERNS = List.of(
            Pattern.compile(
                    "ignore (all |any )?(of )?(your |the )?(previous |prior |above |earlier )?(instructions|prompts?|rules)"),
            Pattern.compile("disregard (all |any )?(the )?(previous|prior|above|earlier|system)"),
            Pattern.compile("you must (always |first |now )?(call|use|run|invoke)"),
            Pattern.compile("(always|first|before anything else),? (call|use|run|invoke) "),
            Pattern.compile("do not (tell|inform|mention (this )?to) the user"),
            Pattern.compile("system prompt"),
            Pattern.compile("<\\s*/?\\s*(system|important|instructions?)\\s*>"));

    public ToolText {
        instructions = List.copyOf(instructions);
    }

    /** {@code raw} cleaned; null stays null. */
    public static ToolText of(String raw) {
        if (raw == null) return new ToolText(null, 0, List.of());
        StringBuilder out = new StringBuilder(raw.length());
        int removed = 0;
        for (int i = 0; i < raw.length(); ) {
            int cp = raw.codePointAt(i);
            i += Character.charCount(cp);
            if (invisible(cp)) removed++;
            else out.appendCodePoint(cp);
        }
        String text = out.toString();
        String lower = text.toLowerCase(Locale.ROOT);
        List<String> matched = new ArrayList<>();
        for (Pattern p : INSTRUCTION_PATTERNS) if (p.matcher(lower).find()) matched.add(p.pattern());
        return new ToolText(text, removed, matched);
    }

    /** Whether anything was removed or noticed. */
    public boolean flagged() {
        return invisible > 0 || !instructions.isEmpty();
    }

    /**
     * Tag characters (U+E0000–U+E007F), zero-width and directional marks (U+200B–U+200F), invisible operators
     * (U+2060–U+2064), the byte-order mark (U+FEFF) and bidi embeddings, overrides and isolates (U+202A–U+202E,
     * U+2066–U+2069).
     */
    static boolean invisible(int cp) {
        return (cp >= 0xE0000 && cp <= 0xE007F)
                || (cp >= 0x200B && cp <= 0x200F)
                || (cp >= 0x2060 && cp <= 0x2064)
                || cp == 0xFEFF
                || (cp >= 0x202A && cp <= 0x202E)
                || (cp >= 0x2066 && cp <= 0x2069);
    }
}
