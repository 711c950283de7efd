package dev.baton.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The benchmark harness works: a real server answers both kinds of turn, history seeds and cuts back, SQL is counted. */
class BenchHarnessIT {

    @Test
    void runsTurnsOverSeededHistoryAndCountsTheirSql() {
        try (BenchServer server = BenchServer.start()) {
            String session = server.startSession();
            server.seedHistory(session, 10);
            assertThat(server.messageCount(session)).isEqualTo(10);

            BenchServer.TurnReply text;
            try (SqlStatementCounter counter = SqlStatementCounter.start()) {
                text = server.send(session, BenchScripts.TEXT_PROMPT);
                // the seeded messages came in behind the server's back: the history is read from the database
                assertThat(counter.bySql().keySet()).anyMatch(BenchHarnessIT::readsHistory);
            }
            assertThat(text.answer()).isEqualTo(BenchScripts.TEXT_ANSWER);
            assertThat(text.toolStates()).isEmpty();
            assertThat(server.messageCount(session)).isEqualTo(12);
            assertThat(server.modelCalls()).isEqualTo(1);
            // the model saw the seeded history: system + 10 prior + the new user message
            assertThat(server.messagesInLastModelCall()).isEqualTo(12);

            BenchServer.TurnReply tool;
            try (SqlStatementCounter counter = SqlStatementCounter.start()) {
                tool = server.send(session, BenchScripts.TOOL_PROMPT);
                assertThat(counter.bySql().keySet())
                        .anyMatch(sql -> sql.startsWith("INSERT INTO tasks"))
                        .anyMatch(sql -> sql.startsWith("INSERT INTO messages"))
                        // the server stored the last turn's messages itself: its window of them is the history
                        .noneMatch(BenchHarnessIT::readsHistory);
            }
            assertThat(tool.answer()).isEqualTo(BenchScripts.TOOL_ANSWER);
            assertThat(tool.toolStates()).containsExactly("succeeded");
            assertThat(server.modelCalls()).isEqualTo(3);

            server.resetHistory(session, 10);
            assertThat(server.messageCount(session)).isEqualTo(10);
            assertThat(server.modelCalls()).isZero();
            assertThat(server.send(session, BenchScripts.TEXT_PROMPT).answer()).isEqualTo(BenchScripts.TEXT_ANSWER);
            assertThat(server.messageCount(session)).isEqualTo(12);
        }
    }

    private static boolean readsHistory(String sql) {
        return sql.startsWith("SELECT") && sql.contains("FROM messages") && sql.contains("LIMIT");
    }
}
