package dev.baton.providers.streaming;

/**
 * A provider's stream that the calling thread reads itself ({@link GatewayCall#pull}), rather than one whose pieces
 * HTTP threads push into a queue: nothing is read from the connection until the caller asks for the next piece, so a
 * caller held up by its client leaves the rest of the answer in the socket.
 *
 * <p>Only the calling thread polls, demands and finishes; {@code ready} may run on any thread.
 *
 * @param <T> what the stream yields
 */
public interface PulledStream<T> {

    /**
     * The next piece if one can be had without waiting, else {@code null}: then {@link #demand} says when to ask again.
     *
     * @throws Exception what the stream failed with (a status the provider answered, a broken connection)
     */
    T poll() throws Exception;

    /**
     * Runs {@code ready} once {@link #poll} may have more, or the stream failed or was aborted. Called after a poll
     * returned {@code null}; calling it again before {@code ready} ran changes nothing.
     */
    void demand(Runnable ready);

    /**
     * The call is over; called once, by the calling thread, and then nothing else of the stream is. When the caller has
     * its whole answer, whatever the provider still sends is read and dropped without the caller waiting for it (so the
     * connection can serve another call), or the connection is closed; otherwise the exchange was aborted already and
     * the stream only lets go of what it holds.
     *
     * @param answered whether the caller has its whole answer
     */
    void finish(boolean answered);
}
