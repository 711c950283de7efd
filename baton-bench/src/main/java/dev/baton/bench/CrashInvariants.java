package dev.baton.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link CrashDrill} checks in the database once every client is done: each turn asked for left exactly one user
 * message and one complete assistant message in its session, in order, and the answer its client got is that
 * message; each {@code add_task} title exists once, with one tool-call row linked to the turn's answer (its audit
 * trail); every answer has the usage of its model calls; no turn is left leased.
 */
final class CrashInvariants {
    /**
     * @param violations every broken invariant, one line each (none: the run passed)
     * @param duplicateTitles task titles stored more than once
     * @param tasks task rows
     * @param toolCalls tool-call rows
     * @param leftRunning {@code running_turns} rows left
     * @param unknownOutcomes tool calls a takeover found in flight and did not run again ({@code tool_outcome_unknown})
     * @param unknownButDone of those, the ones whose task had been written: the effect done, its record lost
     */
    record Findings(
            List<String> violations,
            int duplicateTitles,
            int tasks,
            int toolCalls,
            int leftRunning,
            int unknownOutcomes,
            int unknownButDone) {}

    private record StoredMessage(String id, String role, String content, String status) {}

    private CrashInvariants() {}

    /** Waits (up to a minute) for the turns taken over to end, then checks. */
    static Findings check(String jdbcUrl, List<CrashTurnResult> results) throws SQLException, InterruptedException {
        List<String> violations = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl)) {
            Instant until = Instant.now().plus(Duration.ofMinutes(1));
            int running;
            while ((running = count(c, "SELECT count(*) FROM running_turns")) > 0
                    && Instant.now().isBefore(until)) {
                Thread.sleep(500); // polling: a turn taken over at the very end may still be answering
            }
            if (running > 0) violations.add(running + " running_turns rows left a minute after the last answer");

            Map<String, List<CrashTurnResult>> bySession = new LinkedHashMap<>();
            for (CrashTurnResult r : results) {
                if (r.failure() != null) violations.add(r.turn().id() + ": the client got no answer: " + r.failure());
                bySession.computeIfAbsent(r.sessionId(), s -> new ArrayList<>()).add(r);
            }
            for (var session : bySession.entrySet()) {
                checkSession(c, session.getKey(), session.getValue(), violations);
            }

            int tasks = count(c, "SELECT count(*) FROM tasks");
            int toolCalls = count(c, "SELECT count(*) FROM tool_calls");
            int duplicates =
                    count(c, "SELECT count(*) FROM (SELECT title FROM tasks GROUP BY title HAVING count(*) > 1) d");
            long toolTurns = results.stream().filter(r -> r.turn().tool()).count();
            if (duplicates > 0) violations.add(duplicates + " task titles stored more than once");
            if (tasks != toolCalls) violations.add(tasks + " tasks but " + toolCalls + " tool_calls rows");
            if (tasks != toolTurns) violations.add(tasks + " tasks for " + toolTurns + " tool turns");
            String unknown = "FROM tool_calls c WHERE c.error_message LIKE 'tool_outcome_unknown%'";
            int unknownOutcomes = count(c, "SELECT count(*) " + unknown);
            int unknownButDone = count(
                    c,
                    "SELECT count(*) " + unknown + " AND EXISTS (SELECT 1 FROM tasks t WHERE c.tool_args LIKE"
                            + " '%\"' || t.title || '\"%')");
            return new Findings(violations, duplicates, tasks, toolCalls, running, unknownOutcomes, unknownButDone);
        }
    }

    /**
     * The session holds the turns sent in it, in order, each once: its user message, then its answer. Each turn is
     * judged on its own, so one turn stored twice is one violation, not one for every turn after it.
     */
    private static void checkSession(
            Connection c, String sessionId, List<CrashTurnResult> turns, List<String> violations) throws SQLException {
        List<StoredMessage> messages = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, role, content, status FROM messages WHERE session_id = ? ORDER BY seq")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    messages.add(new StoredMessage(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)));
                }
            }
        }
        int lastUser = -1;
        for (CrashTurnResult r : turns) {
            String id = r.turn().id();
            String expected = CrashScript.answer(id, r.turn().tool());
            List<Integer> users = positions(messages, "user", r.turn().prompt());
            if (users.size() != 1)
                violations.add(id + ": " + users.size() + " user messages (session " + sessionId + ")");
            if (users.isEmpty()) continue;
            if (users.getFirst() < lastUser) violations.add(id + ": stored before the turn sent ahead of it");
            lastUser = users.getLast();
            int at = users.getLast() + 1;
            if (at >= messages.size() || !messages.get(at).role().equals("assistant")) {
                violations.add(id + ": no answer right after its user message (session " + sessionId + ")");
                continue;
            }
            StoredMessage answer = messages.get(at);
            if (!answer.content().equals(expected)) {
                violations.add(
                        id + ": its answer is not the model's answer to it: \"" + abbreviated(answer.content()) + "\"");
            }
            int copies = positions(messages, "assistant", expected).size();
            if (copies > 1) violations.add(id + ": its answer stored " + copies + " times");
            if (!answer.status().equals("complete")) violations.add(id + ": its answer is " + answer.status());
            if (r.answer() != null && !r.answer().equals(answer.content())) {
                violations.add(id + ": the client got \"" + abbreviated(r.answer()) + "\", not the stored answer");
            }
            if (r.messageId() != null && !r.messageId().equals(answer.id())) {
                violations.add(id + ": the client was told message " + r.messageId() + ", stored " + answer.id());
            }
            int usage = count(c, "SELECT count(*) FROM ai_usage WHERE message_id = ?", answer.id());
            int calls = r.turn().tool() ? 2 : 1;
            if (usage < calls) {
                violations.add(id + ": " + usage + " usage rows for its " + calls + " model calls");
            }
            if (r.turn().tool()) checkTool(c, sessionId, r, answer, violations);
        }
        if (messages.size() != 2 * turns.size()) {
            violations.add(
                    "session " + sessionId + ": " + messages.size() + " messages for " + turns.size() + " turns");
        }
    }

    private static String abbreviated(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "…";
    }

    private static List<Integer> positions(List<StoredMessage> messages, String role, String content) {
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).role().equals(role) && messages.get(i).content().equals(content)) at.add(i);
        }
        return at;
    }

    /** The task once, and its call once, succeeded and linked to the answer. */
    private static void checkTool(
            Connection c, String sessionId, CrashTurnResult r, StoredMessage answer, List<String> violations)
            throws SQLException {
        String id = r.turn().id();
        String title = CrashScript.title(id);
        int tasks = count(c, "SELECT count(*) FROM tasks WHERE title = ?", title);
        if (tasks != 1) violations.add(id + ": " + tasks + " tasks titled \"" + title + "\"");
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT state, message_id, error_message FROM tool_calls WHERE session_id = ? AND tool_name = 'add_task'"
                        + " AND tool_args LIKE ?")) {
            ps.setString(1, sessionId);
            ps.setString(2, "%\"" + title + "\"%");
            int rows = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    if (!"succeeded".equals(rs.getString(1)) || !answer.id().equals(rs.getString(2))) {
                        String error = rs.getString(3);
                        violations.add(id + ": its add_task call is " + rs.getString(1)
                                + (error == null ? "" : " (" + error.split(":", 2)[0] + ")") + ", linked to message "
                                + rs.getString(2) + " (the answer is " + answer.id() + ")");
                    }
                }
            }
            if (rows != 1) violations.add(id + ": " + rows + " add_task calls recorded");
        }
    }

    private static int count(Connection c, String sql, String... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setString(i + 1, args[i]);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
