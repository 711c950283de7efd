package dev.baton.example.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.turn.TurnEvent;
import dev.baton.example.embedded.ReadingList.Book;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.runtime.Baton;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.session.Sessions;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.store.jdbc.Database;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadingListAppTest {
    private static final SimulatorScript SCRIPT = SimulatorScript.builder()
            .whenUserSays("add Dune to my reading list", Reply.toolCall("add_book", "{\"title\":\"Dune\"}"))
            .whenToolResult("add_book", Reply.text("Added Dune."))
            .build();

    private final Principal alice = ReadingListApp.reader("acme", "alice");
    private final Principal bob = ReadingListApp.reader("acme", "bob");
    private final ReadingList books = new ReadingList();

    private LlmSimulator model;
    private ConfiguredModelResolver models;
    private Database db;
    private Baton baton;

    @BeforeEach
    void start(@TempDir Path dir) {
        model = LlmSimulator.start(SCRIPT);
        models = ReadingListApp.models(model.baseUrl(), "gpt-4o-mini", null);
        db = Database.open("jdbc:sqlite:" + dir.resolve("baton.db"));
        baton = ReadingListApp.baton(db, models, books);
    }

    @AfterEach
    void stop() {
        baton.close();
        db.close();
        models.close();
        model.close();
    }

    @Test
    void a_tool_calling_turn_adds_the_book_for_its_caller_only() {
        Session session = baton.sessions().start(alice, "librarian", null);
        List<TurnEvent> events = new ArrayList<>();

        SendResult result = baton.conversations()
                .send(alice, session.id(), "add Dune to my reading list", SendOptions.of("req-1"), events::add);

        assertThat(result)
                .isInstanceOfSatisfying(
                        SendResult.Ran.class,
                        ran -> assertThat(ran.outcome().answer()).isEqualTo("Added Dune."));
        assertThat(books.list(alice)).extracting(Book::title).containsExactly("Dune");
        assertThat(books.list(bob)).isEmpty();
        assertThat(books.list(ReadingListApp.reader("other-tenant", "alice"))).isEmpty();

        assertThat(events)
                .filteredOn(TurnEvent.ToolCallStarted.class::isInstance)
                .singleElement()
                .isInstanceOfSatisfying(TurnEvent.ToolCallStarted.class, call -> {
                    assertThat(call.name()).isEqualTo("add_book");
                    assertThat(call.arguments().path("title").asText()).isEqualTo("Dune");
                });
        assertThat(events)
                .filteredOn(TurnEvent.ToolCallFinished.class::isInstance)
                .singleElement()
                .isInstanceOfSatisfying(TurnEvent.ToolCallFinished.class, finished -> {
                    assertThat(finished.name()).isEqualTo("add_book");
                    assertThat(finished.ok()).isTrue();
                    assertThat(finished.result().path("title").asText()).isEqualTo("Dune");
                });
        assertThat(events.getLast())
                .isInstanceOfSatisfying(
                        TurnEvent.Done.class,
                        done -> assertThat(done.toolsCalled()).containsExactly("add_book"));

        Sessions.MessagePage page = baton.sessions().messages(alice, session.id(), null, 50);
        assertThat(page.messages())
                .extracting(Message::role, Message::content)
                .containsExactly(
                        tuple(MessageRole.USER, "add Dune to my reading list"),
                        tuple(MessageRole.ASSISTANT, "Added Dune."));
    }

    @Test
    void the_model_is_offered_the_tools_without_a_caller_argument() {
        Session session = baton.sessions().start(alice, "librarian", null);

        baton.conversations()
                .send(alice, session.id(), "add Dune to my reading list", SendOptions.of("req-1"), e -> {});

        assertThat(model.requests().getFirst().tools().toString())
                .contains("add_book", "title")
                .doesNotContain("caller");
    }

    @Test
    void a_reader_past_the_typed_rate_limit_is_refused_before_the_model_is_called() {
        Session session = baton.sessions().start(alice, "librarian", null);
        for (int i = 0; i < 10; i++)
            baton.conversations().send(alice, session.id(), "hello " + i, SendOptions.of("req-" + i), e -> {});
        int calls = model.requests().size();

        RefusalException refused = catchThrowableOfType(
                RefusalException.class,
                () -> baton.conversations().send(alice, session.id(), "one more", SendOptions.of("req-10"), e -> {}));

        assertThat(refused.refusal()).isInstanceOf(Refusal.RateLimited.class);
        assertThat(model.requests()).hasSize(calls);
        // the limit is per reader: bob still gets through
        Session bobs = baton.sessions().start(bob, "librarian", null);
        baton.conversations().send(bob, bobs.id(), "hello", SendOptions.of("req-bob"), e -> {});
        assertThat(model.requests()).hasSize(calls + 1);
    }

    @Test
    void sending_to_another_users_session_is_refused_as_not_found() {
        Session alices = baton.sessions().start(alice, "librarian", null);

        RefusalException refused = catchThrowableOfType(
                RefusalException.class,
                () -> baton.conversations()
                        .send(bob, alices.id(), "add Dune to my reading list", SendOptions.of("req-2"), e -> {}));

        assertThat(refused.refusal()).isEqualTo(new Refusal.NotFound("session"));
        assertThat(ReadingListApp.explain(refused.refusal())).isEqualTo("No such conversation.");
        assertThat(model.requests()).isEmpty();
        assertThat(books.list(bob)).isEmpty();
        assertThat(books.list(alice)).isEmpty();
    }

    @Test
    void no_http_server_of_batons_is_on_the_classpath() {
        assertThatThrownBy(() -> Class.forName("dev.baton.server.app.BatonServer"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("io.javalin.Javalin")).isInstanceOf(ClassNotFoundException.class);
    }
}
