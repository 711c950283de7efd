package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.runtime.session.EndReason;
import dev.baton.testkit.time.SettableClock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage-dependent parts on PostgreSQL: tsvector search, notes, the lifecycle's SQL and the sweep. */
class StandardToolsPostgresIT {

    @TempDir
    Path dir;

    @Test
    void search_notes_and_the_lifecycle_work_on_postgresql() {
        try (Postgres pg = Postgres.freshSchema()) {
            SettableClock clock = new SettableClock(StudyFixture.START);
            try (TestServer t = StudyFixture.start(dir, pg.url(), clock)) {
                StudyFixture.Recorder events = new StudyFixture.Recorder();
                t.server.runtime().sessionEvents().add(events);

                StandardToolsChecks.searchPriorSessions(t);
                StandardToolsChecks.notes(t);
                StandardToolsChecks.assignmentInfo(t);

                String token = StudyFixture.token("pg-lifecycle", "eng-101");
                String essay = t.api.post("/v1/sessions", token, "{\"assignmentId\":\"essay\"}")
                        .body()
                        .path("id")
                        .asText();
                StandardToolsChecks.send(t, token, essay, "one");
                StandardToolsChecks.send(t, token, essay, "two");
                assertThat(t.api.get("/v1/sessions/" + essay, token)
                                .body()
                                .path("state")
                                .asText())
                        .isEqualTo("completed");

                String idle = t.api.startSession(token, "tutor");
                clock.advance(Duration.ofMinutes(61));
                t.server.runtime().sessions().lifecycle().sweep(100);
                assertThat(t.api.get("/v1/sessions/" + idle, token)
                                .body()
                                .path("state")
                                .asText())
                        .isEqualTo("completed");
                assertThat(events.of(essay))
                        .extracting(StudyFixture.Recorder.Event::reason)
                        .containsExactly(null, EndReason.MAX_MESSAGES);
                assertThat(events.of(idle))
                        .extracting(StudyFixture.Recorder.Event::reason)
                        .containsExactly(null, EndReason.INACTIVITY);
            }
        }
    }
}
