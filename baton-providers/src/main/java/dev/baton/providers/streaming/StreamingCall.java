package dev.baton.providers.streaming;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelRequest;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs one LangChain4j streaming chat as a {@link GatewayCall}: LangChain4j's callbacks arrive on HTTP threads
 * and are queued; the calling (virtual) thread hands deltas to {@code onDelta} in order and returns the final
 * response. Provider-neutral: any LangChain4j model built on a {@link CancellableHttpClient} works.
 */
public final class StreamingCall {

    /** What LangChain4j's handler reports, in order. */
    private sealed interface Event {
        record Delta(ModelDelta delta) implements Event {}

        record Completed(ChatResponse response) implements Event {}
    }

    private StreamingCall() {}

    /**
     * @param exchange the HTTP client {@code model} was built on, aborted when the call ends early
     * @param limit the whole call's time limit
     * @throws ModelFailure for every failure, {@code CANCELLED} when the request's cancellation fired
     */
    public static ChatResponse run(
            StreamingChatModel model,
            ChatRequest chatRequest,
            CancellableHttpClient exchange,
            ModelRequest request,
            Duration limit,
            FailureClassifier failures,
            Consumer<ModelDelta> onDelta) {
        GatewayCall<Event> call = GatewayCall.open(request, limit, failures, exchange::abort);
        exchange.pacedBy(call::whenRoom);
        return call.await(
                () -> {
                    try {
                        model.chat(chatRequest, new QueueingHandler(call));
                    } catch (RuntimeException e) {
                        throw call.isCancelled() ? failures.cancelled() : failures.classifyBeforeSending(e);
                    }
                },
                event -> switch (event) {
                    case Event.Delta d -> {
                        onDelta.accept(d.delta());
                        yield Optional.empty();
                    }
                    case Event.Completed c -> Optional.of(c.response());
                });
    }

    private record QueueingHandler(GatewayCall<Event> call) implements StreamingChatResponseHandler {
        @Override
        public void onPartialResponse(String partialResponse) {
            call.next(new Event.Delta(new ModelDelta.Text(partialResponse)));
        }

        @Override
        public void onPartialThinking(PartialThinking partialThinking) {
            call.next(new Event.Delta(new ModelDelta.Thinking(partialThinking.text())));
        }

        /**
         * LangChain4j reports a piece of a tool call when its arguments grow (not for the piece that only names
         * the call); reported so that a reply that only calls tools does not look silent until it is complete.
         */
        @Override
        public void onPartialToolCall(PartialToolCall partialToolCall) {
            call.next(new Event.Delta(new ModelDelta.ToolCallDelta(
                    partialToolCall.index(),
                    partialToolCall.id(),
                    partialToolCall.name(),
                    partialToolCall.partialArguments())));
        }

        @Override
        public void onCompleteResponse(ChatResponse completeResponse) {
            call.next(new Event.Completed(completeResponse));
        }

        @Override
        public void onError(Throwable error) {
            call.fail(error);
        }
    }
}
