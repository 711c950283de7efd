package dev.baton.core.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** What of a model's stream reaches the client while it streams. */
class ModelStreamerTest {
    private static final ToolCallRequest CALL = new ToolCallRequest("call_1", "get_weather", "{\"city\":\"Oslo\"}");

    private final List<TurnEvent> events = new CopyOnWriteArrayList<>();
    private final StringBuilder answer = new StringBuilder();
    private final AnswerStream out = new AnswerStream(answer, OutputFilterChain.none(), false, events::add);

    /** A provider that streams {@code deltas} and then finishes with {@code reply}. */
    private static ModelBinding streaming(List<ModelDelta> deltas, ModelReply reply) {
        ModelGateway gateway = new ModelGateway() {
            @Override
            public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
                deltas.forEach(onDelta);
                return reply;
            }

            @Override
            public String provider() {
                return "scripted";
            }
        };
        return new ModelBinding("scripted:model", gateway, "model");
    }

    private static ModelRequest request() {
        return new ModelRequest(
                "model",
                List.of(new ChatMessage.User("weather?")),
                List.of(),
                Duration.ofSeconds(5),
                new Cancellation());
    }

    private static List<ModelDelta> piecesOf(ToolCallRequest call) {
        var arguments = call.argumentsJson();
        return List.of(
                new ModelDelta.ToolCallDelta(0, call.id(), call.name(), arguments.substring(0, 5)),
                new ModelDelta.ToolCallDelta(0, call.id(), call.name(), arguments.substring(5)));
    }

    @Test
    void the_pieces_of_a_tool_call_never_reach_the_client_while_the_model_streams() {
        var reply = new ModelReply("", List.of(CALL), TokenUsage.ZERO, "model", "tool_calls");

        var call = new ModelStreamer().stream(streaming(piecesOf(CALL), reply), request(), out);

        assertThat(events)
                .as("tool calls are shown by the turn once the reply is finished")
                .isEmpty();
        assertThat(answer).isEmpty();
        assertThat(call.reply().toolCalls()).containsExactly(CALL);
    }

    @Test
    void text_before_a_tool_call_streams_and_the_calls_pieces_add_nothing_to_it() {
        var deltas = new ArrayList<ModelDelta>();
        deltas.add(new ModelDelta.Text("Let me check."));
        deltas.addAll(piecesOf(CALL));
        var reply = new ModelReply("Let me check.", List.of(CALL), TokenUsage.ZERO, "model", "tool_calls");

        new ModelStreamer().stream(streaming(deltas, reply), request(), out);

        assertThat(events).containsExactly(new TurnEvent.Chunk("Let me check."));
        assertThat(answer).hasToString("Let me check.");
    }

    @Test
    void a_turn_held_up_by_its_client_holds_up_the_model_call_instead_of_queueing_its_answer() throws Exception {
        int pieces = ModelStreamer.CAPACITY * 4;
        AtomicInteger handedOver = new AtomicInteger();
        ModelGateway gateway = new ModelGateway() {
            @Override
            public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
                for (int i = 0; i < pieces; i++) {
                    onDelta.accept(new ModelDelta.Text("x"));
                    handedOver.incrementAndGet();
                }
                return new ModelReply("x".repeat(pieces), List.of(), TokenUsage.ZERO, "model", "stop");
            }

            @Override
            public String provider() {
                return "scripted";
            }
        };
        CountDownLatch clientReads = new CountDownLatch(1);
        AnswerStream stalled = new AnswerStream(new StringBuilder(), OutputFilterChain.none(), false, event -> {
            try {
                clientReads.await(); // a client that stopped reading: the turn waits on its stream
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        var turn = Executors.newVirtualThreadPerTaskExecutor()
                .submit(() -> new ModelStreamer()
                        .stream(new ModelBinding("scripted:model", gateway, "model"), request(), stalled));

        // one delta held by the turn, a full queue, and the gateway waiting to hand over the next
        await().atMost(Duration.ofSeconds(30)).until(() -> handedOver.get() == ModelStreamer.CAPACITY + 1);
        await().during(Duration.ofMillis(200))
                .atMost(Duration.ofSeconds(5))
                .until(() -> handedOver.get() == ModelStreamer.CAPACITY + 1);

        clientReads.countDown();
        assertThat(turn.get(30, TimeUnit.SECONDS).reply().text()).hasSize(pieces);
        assertThat(handedOver).hasValue(pieces);
    }
}
