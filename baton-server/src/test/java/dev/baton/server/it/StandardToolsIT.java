package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.testkit.time.SettableClock;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** get_assignment_info, search_prior_sessions and create_note (with /v1/notes) over HTTP, on SQLite (FTS5). */
class StandardToolsIT {

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = StudyFixture.start(dir, TestServer.sqliteUrl(dir), new SettableClock(StudyFixture.START));
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void get_assignment_info_gives_the_sessions_assignment_and_an_error_without_one() {
        StandardToolsChecks.assignmentInfo(t);
    }

    @Test
    void search_prior_sessions_finds_the_callers_own_text_and_never_another_users() {
        StandardToolsChecks.searchPriorSessions(t);
    }

    @Test
    void notes_by_rest_and_by_the_create_note_tool_and_another_users_note_is_404() {
        StandardToolsChecks.notes(t);
    }

    @Test
    void the_standard_tools_are_in_the_catalogue_of_an_agent_that_lists_them() {
        JsonNode tools =
                t.api.get("/v1/tools", StudyFixture.token("zed")).body().path("tools");
        assertThat(tools)
                .extracting(n -> n.path("name").asText())
                .contains("get_assignment_info", "search_prior_sessions", "create_note");
    }
}
