package dev.baton.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * When the pieces of a streamed answer arrived, read line by line as they come with the JDK {@code HttpClient}: the
 * same client, and so the same client-side cost, for Baton's event stream and for the model's own stream, so that
 * the difference between the two is what Baton adds.
 *
 * @param tokenNanos from the request's start to each piece of answer text (a Baton {@code chunk} event, or an OpenAI
 *     delta with content)
 * @param endNanos from the request's start to the end of the stream
 */
record StreamTimings(List<Long> tokenNanos, long endNanos) {

    StreamTimings {
        tokenNanos = List.copyOf(tokenNanos);
    }

    /** From the request's start to the first piece of answer text. */
    long firstTokenNanos() {
        if (tokenNanos.isEmpty()) throw new IllegalStateException("the stream carried no answer text");
        return tokenNanos.getFirst();
    }

    /** The gaps between consecutive pieces of answer text. */
    List<Long> gaps() {
        List<Long> gaps = new ArrayList<>(Math.max(0, tokenNanos.size() - 1));
        for (int i = 1; i < tokenNanos.size(); i++) gaps.add(tokenNanos.get(i) - tokenNanos.get(i - 1));
        return gaps;
    }

    /** A stream whose answer text started {@code offsetNanos} later (a later model call of the same turn). */
    StreamTimings shiftedBy(long offsetNanos) {
        return new StreamTimings(tokenNanos.stream().map(t -> t + offsetNanos).toList(), endNanos + offsetNanos);
    }

    /**
     * Sends {@code request} and reads its event stream to the end.
     *
     * @param isToken which {@code data:} lines carry answer text
     * @param isEnd which {@code data:} line ends the stream (the client stops reading there)
     * @throws IllegalStateException when the answer is not a 200 event stream
     */
    static StreamTimings read(
            HttpClient http, HttpRequest request, Predicate<String> isToken, Predicate<String> isEnd) {
        long start = System.nanoTime();
        List<Long> tokens = new ArrayList<>();
        HttpResponse<Stream<String>> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofLines());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        try (Stream<String> lines = response.body()) {
            if (response.statusCode() != 200)
                throw new IllegalStateException("status " + response.statusCode() + ": "
                        + String.join("\n", lines.limit(5).toList()));
            String event = "";
            for (Iterator<String> it = lines.iterator(); it.hasNext(); ) {
                String line = it.next();
                if (line.startsWith("event:")) event = line.substring(6).trim();
                if (!line.startsWith("data:")) continue;
                String data = event + "|" + line.substring(5).trim();
                if (isToken.test(data)) tokens.add(System.nanoTime() - start);
                if (isEnd.test(data)) {
                    long end = System.nanoTime() - start;
                    // read on to the end of the response, as Baton's web app does: closed before its end, the JDK
                    // client drops the connection, and the next turn's time would include opening a new one
                    while (it.hasNext()) it.next();
                    return new StreamTimings(tokens, end);
                }
            }
        }
        throw new IllegalStateException("the stream closed before its end");
    }

    /** Baton's event stream: {@code chunk} events carry text, {@code done} ends it, {@code error} fails it. */
    static StreamTimings baton(HttpClient http, HttpRequest request) {
        return read(http, request, data -> data.startsWith("chunk|"), data -> {
            if (data.startsWith("error|")) throw new IllegalStateException("the turn failed: " + data);
            return data.startsWith("done|");
        });
    }

    /** An OpenAI Chat Completions stream: deltas with content carry text, {@code [DONE]} ends it. */
    static StreamTimings openAi(HttpClient http, URI endpoint, String body) {
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer direct")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return read(
                http,
                request,
                data -> data.contains("\"content\":\"") && !data.contains("\"content\":\"\""),
                data -> data.endsWith("[DONE]"));
    }
}
