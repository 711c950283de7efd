package dev.baton.simulator;

import java.util.ArrayList;
import java.util.List;

/** Puts regex captures into a reply template: {@code $1}..{@code $9}, {@code ${12}}, {@code $$} for a dollar. */
final class CaptureSubstitution {

    private CaptureSubstitution() {}

    static Reply apply(Reply template, List<String> captures) {
        return switch (template) {
            case Reply.Text t -> new Reply.Text(substitute(t.content(), captures, false), t.usage());
            case Reply.ToolCalls c -> {
                var calls = new ArrayList<Reply.ToolCall>();
                for (var call : c.calls()) {
                    calls.add(new Reply.ToolCall(call.name(), substitute(call.argumentsJson(), captures, true)));
                }
                yield new Reply.ToolCalls(substitute(c.text(), captures, false), calls, c.usage());
            }
            case Reply.Failure f ->
                new Reply.Failure(f.fault(), f.partial() == null ? null : apply(f.partial(), captures));
        };
    }

    /**
     * @param json when true the captures are escaped for use inside a JSON string, so a quote typed by the
     *     user cannot break the arguments
     */
    static String substitute(String template, List<String> captures, boolean json) {
        var out = new StringBuilder(template.length());
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c != '$' || i + 1 >= template.length()) {
                out.append(c);
                continue;
            }
            char next = template.charAt(i + 1);
            if (next == '$') {
                out.append('$');
                i++;
            } else if (Character.isDigit(next)) {
                out.append(capture(captures, next - '0', json));
                i++;
            } else if (next == '{' && template.indexOf('}', i) > i + 2) {
                int end = template.indexOf('}', i);
                var number = template.substring(i + 2, end);
                if (number.chars().allMatch(Character::isDigit)) {
                    out.append(capture(captures, Integer.parseInt(number), json));
                    i = end;
                } else {
                    out.append(c);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String capture(List<String> captures, int index, boolean json) {
        var value = index < captures.size() ? captures.get(index) : "";
        return json ? escapeJson(value) : value;
    }

    private static String escapeJson(String value) {
        var out = new StringBuilder(value.length());
        for (char ch : value.toCharArray()) {
            switch (ch) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
                }
            }
        }
        return out.toString();
    }
}
