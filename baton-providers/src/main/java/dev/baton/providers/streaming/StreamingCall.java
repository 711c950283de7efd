package dev.baton.providers.streaming;

import dev.baton.core.model.ModelDelta;
import dev.baton.core.model.ModelFailure;
import dev.baton.core.model.ModelRequest;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one LangChain4j streaming chat as a blocking call: LangChain4j's callbacks arrive on HTTP threads and
 * are queued; the calling (virtual) thread drains the queue, hands deltas to {@code onDelta} in order, and
 * returns the final response. Cancellation and the deadline abort the exchange and return at once, whatever
 * the provider is doing. Provider-neutral: any LangChain4j model built on a {@link CancellableHttpClient} works.
 */
public final class StreamingCall {

    private sealed interface Signal {
        record Delta(ModelDelta delta) implements Signal {}

        record Completed(ChatResponse response) implements Signal {}

        record Failed(Throwable error) implements Signal {}

        record Cancelled() implements Signal {}
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
        var cancellation = request.cancellation();
        if (cancellation.isCancelled()) {
            throw failures.cancelled();
        }
        long deadline = System.nanoTime() + limit.toNanos();
        BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
        boolean completed = false;
        AutoCloseable registration = cancellation.onCancel(() -> {
            exchange.abort();
            signals.add(new Signal.Cancelled());
        });
        try {
            try {
                model.chat(chatRequest, new QueueingHandler(signals));
            } catch (RuntimeException e) {
                throw cancellation.isCancelled() ? failures.cancelled() : failures.classifyBeforeSending(e);
            }
            while (true) {
                long remaining = deadline - System.nanoTime();
                var signal = remaining > 0 ? signals.poll(remaining, TimeUnit.NANOSECONDS) : null;
                if (signal == null) {
                    throw failures.timedOut(limit);
                }
                switch (signal) {
                    case Signal.Delta d -> onDelta.accept(d.delta());
                    case Signal.Completed c -> {
                        completed = true;
                        return c.response();
                    }
                    case Signal.Failed f ->
                        throw cancellation.isCancelled() ? failures.cancelled() : failures.classify(f.error());
                    case Signal.Cancelled c -> throw failures.cancelled();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failures.cancelled();
        } finally {
            if (!completed) {
                exchange.abort();
            }
            unregister(registration);
        }
    }

    private static void unregister(AutoCloseable registration) {
        try {
            registration.close();
        } catch (Exception e) {
            // Cancellation's handle only removes a listener from a list and cannot fail
            throw new IllegalStateException(e);
        }
    }

    private record QueueingHandler(BlockingQueue<Signal> signals) implements StreamingChatResponseHandler {
        @Override
        public void onPartialResponse(String partialResponse) {
            signals.add(new Signal.Delta(new ModelDelta.Text(partialResponse)));
        }

        @Override
        public void onPartialThinking(PartialThinking partialThinking) {
            signals.add(new Signal.Delta(new ModelDelta.Thinking(partialThinking.text())));
        }

        @Override
        public void onCompleteResponse(ChatResponse completeResponse) {
            signals.add(new Signal.Completed(completeResponse));
        }

        @Override
        public void onError(Throwable error) {
            signals.add(new Signal.Failed(error));
        }
    }
}
