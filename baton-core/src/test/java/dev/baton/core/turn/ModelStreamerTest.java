package dev.baton.core.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.hook.OutputFilterChain;
import dev.baton.core.model.ChatMessage;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.ModelRequest;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.text.TextPieces;
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
    private final TextPieces answer = new TextPieces();
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
        assertThat(answer.isEmpty()).isTrue();
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
    void a_turn_held_up_by_its_client_holds_up_the_model_call_inside_its_handover() throws Exception {
        int pieces = 256;
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
        CountDownLatch writing = new CountDownLatch(1);
        AnswerStream stalled = new AnswerStream(new TextPieces(), OutputFilterChain.none(), false, event -> {
            writing.countDown();
            try {
                clientReads.await(); // a client that stopped reading: the turn waits on its stream
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        var turn = Executors.newVirtualThreadPerTaskExecutor()
                .submit(() -> new ModelStreamer()
                        .stream(new ModelBinding("scripted:model", gateway, "model"), request(), stalled));

        // the first delta is being written to the stalled client: the gateway has not got past handing it over
        assertThat(writing.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(handedOver).hasValue(0);

        clientReads.countDown();
        assertThat(turn.get(30, TimeUnit.SECONDS).reply().text()).hasSize(pieces);
        assertThat(handedOver).hasValue(pieces);
    }

    @Test
    void a_gateway_that_hands_deltas_over_on_another_thread_fails_the_call_instead_of_interleaving_text() {
        ModelGateway gateway = new ModelGateway() {
            @Override
            public ModelReply stream(ModelRequest request, Consumer<ModelDelta> onDelta) {
                try {
                    Executors.newVirtualThreadPerTaskExecutor()
                            .submit(() -> onDelta.accept(new ModelDelta.Text("from elsewhere")))
                            .get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    throw (RuntimeException) e.getCause();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return new ModelReply("from elsewhere", List.of(), TokenUsage.ZERO, "model", "stop");
            }

            @Override
            public String provider() {
                return "scripted";
            }
        };

        assertThatThrownBy(() -> new ModelStreamer()
                        .stream(new ModelBinding("scripted:model", gateway, "model"), request(), out))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not the caller's thread");
        assertThat(events).isEmpty();
    }

    @Test
    void deltas_arriving_after_the_turn_was_cancelled_are_dropped_and_end_the_call_as_cancelled() {
        ModelRequest request = request();
        request.cancellation().cancel();
        var deltas = List.<ModelDelta>of(new ModelDelta.Text("too late"));
        var reply = new ModelReply("too late", List.of(), TokenUsage.ZERO, "model", "stop");

        assertThatThrownBy(() -> new ModelStreamer().stream(streaming(deltas, reply), request, out))
                .isInstanceOfSatisfying(
                        ModelFailure.class, f -> assertThat(f.kind()).isEqualTo(ModelFailure.Kind.CANCELLED));
        assertThat(events).isEmpty();
        assertThat(answer.isEmpty()).isTrue();
    }
}
