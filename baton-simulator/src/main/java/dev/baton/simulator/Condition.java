package dev.baton.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * When a declarative rule applies. A match yields its captures: index 0 is the whole match, 1.. the regex
 * groups, usable in the reply as {@code $1}, {@code $2}.
 *
 * <p>The user-message conditions only match while the last message of the request is the user's, so a
 * tool-call rule does not fire again when its own tool result comes back.
 */
public sealed interface Condition {

    Optional<List<String>> match(RecordedRequest request);

    /** The last user message contains {@code text}, ignoring case. */
    record UserContains(String text) implements Condition {
        public UserContains {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public Optional<List<String>> match(RecordedRequest request) {
            if (!"user".equals(request.lastRole())) {
                return Optional.empty();
            }
            var message = request.lastUserMessage();
            int at = message.toLowerCase(Locale.ROOT).indexOf(text.toLowerCase(Locale.ROOT));
            return at < 0 ? Optional.empty() : Optional.of(List.of(message.substring(at, at + text.length())));
        }
    }

    /** The last user message matches {@code regex} somewhere (case-insensitive, dot matches newlines). */
    record UserMatches(Pattern regex) implements Condition {
        public UserMatches {
            Objects.requireNonNull(regex, "regex");
        }

        public static UserMatches of(String regex) {
            return new UserMatches(compile(regex));
        }

        @Override
        public Optional<List<String>> match(RecordedRequest request) {
            return "user".equals(request.lastRole()) ? groups(regex, request.lastUserMessage()) : Optional.empty();
        }
    }

    /**
     * The last message is a tool result, optionally of the named tool and with content matching a regex. Without
     * a regex the only capture is the whole result content.
     */
    record ToolResult(String toolName, Pattern contentRegex) implements Condition {
        public static ToolResult any() {
            return new ToolResult(null, null);
        }

        public static ToolResult of(String toolName) {
            return new ToolResult(toolName, null);
        }

        public static ToolResult of(String toolName, String contentRegex) {
            return new ToolResult(toolName, contentRegex == null ? null : compile(contentRegex));
        }

        @Override
        public Optional<List<String>> match(RecordedRequest request) {
            var result = request.lastToolResult();
            if (result.isEmpty()
                    || (toolName != null && !toolName.equals(result.get().toolName()))) {
                return Optional.empty();
            }
            var content = result.get().content();
            return contentRegex == null ? Optional.of(List.of(content)) : groups(contentRegex, content);
        }
    }

    /** Every request. */
    record Always() implements Condition {
        @Override
        public Optional<List<String>> match(RecordedRequest request) {
            return Optional.of(List.of(""));
        }
    }

    private static Pattern compile(String regex) {
        return Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
    }

    private static Optional<List<String>> groups(Pattern regex, String text) {
        var matcher = regex.matcher(text);
        if (!matcher.find()) {
            return Optional.empty();
        }
        var captures = new ArrayList<String>();
        for (int i = 0; i <= matcher.groupCount(); i++) {
            captures.add(matcher.group(i) == null ? "" : matcher.group(i));
        }
        return Optional.of(List.copyOf(captures));
    }
}
