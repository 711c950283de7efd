package dev.baton.server.it;

import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.runtime.session.EndReason;
import dev.baton.runtime.session.SessionEvents;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.time.SettableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server configured like a school would: a real baton.yaml (org limits, assignments, roles with notes), a tutor
 * agent with constraints and its own limits, and a simulator scripted to call the standard tools. Limits are small
 * so each cascade level shows: org maxMessages 4, tutor 3, assignment "essay" 2.
 */
final class StudyFixture {
    static final Instant START = Instant.parse("2026-03-02T09:00:00Z");

    static final String TUTOR = """
            id: tutor
            name: Tutor
            systemPrompt: You are a writing tutor.
            model: default
            tools: [get_assignment_info, search_prior_sessions, create_note]
            constraints:
              topics: [essay writing, rhetoric]
              rules: [Never write the essay for the student.]
            limits:
              maxMessages: 3
              inactivityTimeout: 1h
            """;

    static final String PLAIN = """
            id: plain
            name: Plain
            systemPrompt: You chat.
            model: default
            tools: [search_prior_sessions]
            """;

    static String batonYaml(String databaseUrl, Path agents) {
        return """
                server: {port: 0}
                database: {url: "%s"}
                auth: {jwtSecret: "%s"}
                models: {default: "simulator:default"}
                agents: {dirs: ["%s"]}
                roles:
                  student: [sessions:read:self, sessions:write:self, notes:read:self, notes:write:self, tasks:read:self]
                limits:
                  maxMessages: 4
                  inactivityTimeout: 2h
                lifecycle: {sweepInterval: 0s}
                assignments:
                  - id: essay
                    agentId: tutor
                    title: Persuasive essay
                    instructions: Help the student outline a persuasive essay about school uniforms.
                    class: eng-101
                    availableAt: 2026-03-01T00:00:00Z
                    closesAt: 2026-04-01T00:00:00Z
                    limits: {maxMessages: 2}
                  - {id: later, agentId: tutor, class: eng-101, availableAt: 2026-05-01T00:00:00Z}
                  - {id: over, agentId: tutor, class: eng-101, closesAt: 2026-03-01T00:00:00Z}
                  - {id: quick, agentId: tutor, class: eng-101, limits: {maxSessionDuration: 30m, maxMessages: 10}}
                """.formatted(databaseUrl, TestServer.SECRET, agents);
    }

    static SimulatorScript script() {
        return SimulatorScript.builder()
                .whenUserSays("what is my assignment", Reply.toolCall("get_assignment_info", "{}"))
                .whenToolResult("get_assignment_info", Reply.text("Here is your assignment."))
                .whenUserMatches("search for (\\w+)", Reply.toolCall("search_prior_sessions", "{\"query\":\"$1\"}"))
                .whenToolResult("search_prior_sessions", Reply.text("This is what we said before."))
                .whenUserMatches(
                        "note that (.+)",
                        Reply.toolCall("create_note", "{\"title\":\"Study note\",\"content\":\"$1\"}"))
                .whenToolResult("create_note", Reply.text("Saved your note."))
                .fallback("Let's keep going.")
                .build();
    }

    /** Writes baton.yaml and the agents under {@code dir} and starts a server on them with the settable clock. */
    static TestServer start(Path dir, String databaseUrl, SettableClock clock) {
        try {
            Path agents = Files.createDirectories(dir.resolve("agents"));
            Files.writeString(agents.resolve("tutor.yaml"), TUTOR);
            Files.writeString(agents.resolve("plain.yaml"), PLAIN);
            Path yaml = Files.writeString(dir.resolve("baton.yaml"), batonYaml(databaseUrl, agents));
            BatonConfig config = ConfigLoader.load(yaml, Map.of());
            return TestServer.start(config, LlmSimulator.start(script()), true, clock);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String token(String user, String... classes) {
        return new TokenMinter(JwtSecret.of(TestServer.SECRET))
                .mint(
                        new TokenMinter.Claims(user, user, null, List.of("student"), null, List.of(classes)),
                        Instant.now(),
                        Duration.ofHours(1));
    }

    /** What the session events reported, in order. */
    static final class Recorder implements SessionEvents {
        record Event(String kind, String sessionId, String userId, EndReason reason) {}

        final List<Event> events = new CopyOnWriteArrayList<>();

        @Override
        public void started(Session session, Principal principal) {
            events.add(new Event("started", session.id(), principal.userId(), null));
        }

        @Override
        public void ended(Session session, EndReason reason) {
            events.add(new Event("ended", session.id(), session.userId(), reason));
        }

        List<Event> of(String sessionId) {
            return events.stream().filter(e -> e.sessionId().equals(sessionId)).toList();
        }
    }

    private StudyFixture() {}
}
