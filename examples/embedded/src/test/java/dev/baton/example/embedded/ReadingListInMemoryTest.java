package dev.baton.example.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Message;
import dev.baton.core.conversation.MessageRole;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.SessionState;
import dev.baton.core.turn.TurnEvent;
import dev.baton.example.embedded.ReadingList.Book;
import dev.baton.providers.resolver.ConfiguredModelResolver;
import dev.baton.runtime.Baton;
import dev.baton.runtime.Refusal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.conversation.SendResult;
import dev.baton.runtime.tool.AnnotatedTools;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reading list's tools tested with {@link Baton#inMemory}: no database, one line to a whole Baton, a turn over real
 * HTTP to the LLM simulator.
 */
class ReadingListInMemoryTest {
    private static final SimulatorScript SCRIPT = SimulatorScript.builder()
            .whenUserSays("add Dune to my reading list", Reply.toolCall("add_book", "{\"title\":\"Dune\"}"))
            .whenToolResult("add_book", Reply.text("Added Dune."))
            .build();

    private final ReadingList books = new ReadingList();
    private final Principal alice = ReadingListApp.reader("acme", "alice");

    private LlmSimulator model;
    private ConfiguredModelResolver models;
    private Baton baton;

    @BeforeEach
    void start() {
        model = LlmSimulator.start(SCRIPT);
        models = ReadingListApp.models(model.baseUrl(), "gpt-4o-mini", null);
        baton = Baton.inMemory(models, ReadingListApp.LIBRARIAN, AnnotatedTools.from(new ReadingListTools(books)));
    }

    @AfterEach
    void stop() {
        baton.close();
        models.close();
        model.close();
    }

    @Test
    void a_turn_calls_the_annotated_tool_as_its_caller_and_answers() {
        Session session = baton.sessions().start(alice, ReadingListApp.LIBRARIAN.id(), null);
        List<TurnEvent> events = new ArrayList<>();

        SendResult result = baton.conversations()
                .send(alice, session.id(), "add Dune to my reading list", SendOptions.withNewRequestId(), events::add);

        assertThat(result)
                .isInstanceOfSatisfying(
                        SendResult.Ran.class,
                        ran -> assertThat(ran.outcome().answer()).isEqualTo("Added Dune."));
        assertThat(books.list(alice)).extracting(Book::title).containsExactly("Dune");
        assertThat(books.list(ReadingListApp.reader("acme", "bob"))).isEmpty();
        assertThat(events)
                .filteredOn(TurnEvent.ToolCallFinished.class::isInstance)
                .singleElement()
                .isInstanceOfSatisfying(TurnEvent.ToolCallFinished.class, call -> {
                    assertThat(call.name()).isEqualTo("add_book");
                    assertThat(call.ok()).isTrue();
                });
        assertThat(events.getLast()).isInstanceOf(TurnEvent.Done.class);
        assertThat(model.requests().getFirst().tools().toString())
                .contains("add_book")
                .doesNotContain("caller");
        assertThat(baton.sessions().messages(alice, session.id(), null, 10).messages())
                .extracting(Message::role, Message::content)
                .containsExactly(
                        tuple(MessageRole.USER, "add Dune to my reading list"),
                        tuple(MessageRole.ASSISTANT, "Added Dune."));
    }

    @Test
    void sessions_are_the_callers_own_and_a_completed_one_takes_no_more_messages() {
        Session session = baton.sessions().start(alice, ReadingListApp.LIBRARIAN.id(), null);
        Principal bob = ReadingListApp.reader("acme", "bob");

        RefusalException foreign = catchThrowableOfType(RefusalException.class, () -> send(bob, session));
        assertThat(foreign.refusal()).isEqualTo(new Refusal.NotFound("session"));

        assertThat(baton.sessions().complete(alice, session.id()).state()).isEqualTo(SessionState.COMPLETED);
        RefusalException completed = catchThrowableOfType(RefusalException.class, () -> send(alice, session));
        assertThat(completed.refusal()).isInstanceOf(Refusal.SessionCompleted.class);
        assertThat(model.requests()).isEmpty();
        assertThat(books.list(alice)).isEmpty();
    }

    private void send(Principal caller, Session session) {
        baton.conversations()
                .send(caller, session.id(), "add Dune to my reading list", SendOptions.withNewRequestId(), e -> {});
    }
}
