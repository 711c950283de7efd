package dev.baton.simulator;

import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** What a user of the task agent asked for, read from a handful of plain phrasings. */
sealed interface TaskIntent {

    /** @param dueDate ISO date or null; @param priority "low", "medium", "high" or null */
    record Add(String title, String dueDate, String priority) implements TaskIntent {}

    /** Several tasks in one message ("add a task to buy groceries and call the dentist"), each as {@link Add}. */
    record AddSeveral(List<Add> tasks) implements TaskIntent {
        public AddSeveral {
            tasks = List.copyOf(tasks);
        }
    }

    record ListTasks() implements TaskIntent {}

    record Complete(String name) implements TaskIntent {}

    record Delete(String name) implements TaskIntent {}

    /** @param dateAsked the user asked for the date or day rather than the time */
    record CurrentTime(boolean dateAsked) implements TaskIntent {}

    record Unknown() implements TaskIntent {}

    int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    Pattern POLITE = Pattern.compile(
            "^(?:(?:hey|hi|ok|okay)[,!]?\\s+)?(?:please\\s+|can you\\s+|could you\\s+|would you\\s+)?", FLAGS);
    Pattern TIME = Pattern.compile(
            "\\b(?:what(?:'s|’s| is) the (time|date|day)|what (time|day) is it|(today'?s date)|current (time|date))\\b",
            FLAGS);
    List<Pattern> COMPLETE = List.of(
            Pattern.compile("^mark\\s+(.+?)\\s+(?:as\\s+)?(?:done|complete|completed|finished)$", FLAGS),
            Pattern.compile("^mark\\s+(?:as\\s+)?(?:done|complete|completed)\\s*:?\\s+(.+)$", FLAGS),
            Pattern.compile("^(?:complete|finish|check off|tick off)\\s+(.+)$", FLAGS));
    Pattern DELETE = Pattern.compile("^(?:delete|remove)\\s+(.+)$", FLAGS);
    List<Pattern> ADD = List.of(
            Pattern.compile("^remind me to\\s+(.+)$", FLAGS), Pattern.compile("^(?:add|create)\\s+(.+)$", FLAGS));
    Pattern ADD_FILLER = Pattern.compile(
            "^(?:(?:a|an|the)\\s+)?(?:new\\s+)?(?:task|todo|to-do|reminder)\\b\\s*(?:to\\b|called\\b|named\\b|:)?\\s*",
            FLAGS);
    Pattern TO_MY_LIST = Pattern.compile("\\s+to\\s+(?:my\\s+)?(?:tasks|task list|list|to-?do list)$", FLAGS);
    Pattern PRIORITY = Pattern.compile("(?:,\\s*|\\s+)(?:with\\s+)?(high|medium|low)\\s+priority$", FLAGS);
    Pattern DUE = Pattern.compile(
            "\\s+(?:due\\s+|by\\s+|for\\s+|on\\s+)?(today|tonight|tomorrow|\\d{4}-\\d{2}-\\d{2})$", FLAGS);
    Pattern LIST = Pattern.compile(
            "\\b(?:list|show|display|see|view|what are|what's on|whats on)\\b.*\\b(?:tasks?|to-?dos?)\\b|\\b(?:what|which)\\s+tasks\\b|^(?:my\\s+)?tasks$",
            FLAGS);
    /**
     * Where one task ends and the next begins: "and" (or a comma) before a word that starts a to-do, so that "buy salt
     * and pepper" stays one task while "buy groceries and call the dentist" is two.
     */
    Pattern NEXT_TASK = Pattern.compile(
            "\\s*(?:,\\s*(?:and\\s+)?|\\s+and\\s+)(?=(?:buy|call|email|send|pay|book|clean|pick up|write|finish|submit|read|"
                    + "visit|water|walk|fix|schedule|review|check|prepare|renew|cancel|order|return|take|make|get|"
                    + "go|meet|text|wash|feed|plan|study|practice|practise)\\b)",
            FLAGS);

    Pattern NAME_FILLER = Pattern.compile("^(?:(?:the|my)\\s+)?(?:task\\s+)?", FLAGS);
    Pattern QUOTES = Pattern.compile("^[\"'“”‘’]+|[\"'“”‘’]+$");

    static TaskIntent parse(String message, Clock clock) {
        var text = POLITE.matcher(message.strip())
                .replaceFirst("")
                .replaceAll("[.!?]+$", "")
                .strip();
        var time = TIME.matcher(text);
        if (time.find()) {
            var asked = (time.group(1) != null ? time.group(1) : time.group(2) != null ? time.group(2) : "date")
                    .toLowerCase(Locale.ROOT);
            return new CurrentTime(time.group(3) != null || !asked.equals("time"));
        }
        for (var pattern : COMPLETE) {
            var matcher = pattern.matcher(text);
            if (matcher.matches()) {
                return name(matcher.group(1)).<TaskIntent>map(Complete::new).orElseGet(Unknown::new);
            }
        }
        var delete = DELETE.matcher(text);
        if (delete.matches()) {
            return name(delete.group(1)).<TaskIntent>map(Delete::new).orElseGet(Unknown::new);
        }
        for (var pattern : ADD) {
            var matcher = pattern.matcher(text);
            if (matcher.matches()) {
                var several = several(matcher.group(1), clock);
                return several.isPresent() ? several.get() : add(matcher.group(1), clock);
            }
        }
        return LIST.matcher(text).find() ? new ListTasks() : new Unknown();
    }

    /** Two or more tasks named in one message; empty when it names one (or a part is not a task). */
    private static Optional<TaskIntent> several(String rest, Clock clock) {
        var parts = NEXT_TASK.split(
                ADD_FILLER.matcher(rest.strip()).replaceFirst("").strip());
        if (parts.length < 2) return Optional.empty();
        var tasks = new java.util.ArrayList<Add>();
        for (var part : parts) {
            if (!(add(part, clock) instanceof Add one)) return Optional.empty();
            tasks.add(one);
        }
        return Optional.of(new AddSeveral(tasks));
    }

    private static TaskIntent add(String rest, Clock clock) {
        var title = ADD_FILLER.matcher(rest.strip()).replaceFirst("").strip();
        title = TO_MY_LIST.matcher(title).replaceFirst("").strip();
        String priority = null;
        var priorityMatch = PRIORITY.matcher(title);
        if (priorityMatch.find()) {
            priority = priorityMatch.group(1).toLowerCase(Locale.ROOT);
            title = title.substring(0, priorityMatch.start()).strip();
        }
        String due = null;
        var dueMatch = DUE.matcher(title);
        if (dueMatch.find()) {
            var today = LocalDate.now(clock);
            due = switch (dueMatch.group(1).toLowerCase(Locale.ROOT)) {
                case "today", "tonight" -> today.toString();
                case "tomorrow" -> today.plusDays(1).toString();
                default -> dueMatch.group(1);
            };
            title = title.substring(0, dueMatch.start()).strip();
        }
        title = QUOTES.matcher(title).replaceAll("").strip();
        if (title.isEmpty() || title.length() > 200) {
            return new Unknown();
        }
        return new Add(title, due, priority);
    }

    private static Optional<String> name(String raw) {
        var name =
                NAME_FILLER.matcher(QUOTES.matcher(raw.strip()).replaceAll("")).replaceFirst("");
        name = QUOTES.matcher(name.replaceAll("(?i)\\s+task$", ""))
                .replaceAll("")
                .strip();
        return name.isEmpty() ? Optional.empty() : Optional.of(name);
    }
}
