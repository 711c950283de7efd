package dev.baton.testkit.http;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.client.HTTP2Client;

/**
 * HTTP/2 over cleartext with prior knowledge (the connection starts with HTTP/2's preface, no Upgrade round trip), on
 * Jetty's low-level HTTP/2 client: each request is a stream of a connection the caller opens, so thousands of SSE
 * streams can share a few sockets, and one stream can stop reading while the others go on.
 */
public final class H2cClient implements AutoCloseable {
    private final HTTP2Client client;

    private H2cClient(HTTP2Client client) {
        this.client = client;
    }

    /**
     * @param streamWindowBytes how many bytes of one response the client takes before it has read them (its stream
     *     flow-control window): a stream that stops reading holds the server's writes to it at this many bytes
     */
    public static H2cClient start(int streamWindowBytes) {
        HTTP2Client client = new HTTP2Client();
        client.setInitialStreamRecvWindow(streamWindowBytes);
        // a stream that waits on a slow model or a stalled one the caller stopped reading must not be timed out by
        // the client: the server's own timeouts are what is tested or measured
        client.setIdleTimeout(TimeUnit.MINUTES.toMillis(30));
        client.setStreamIdleTimeout(TimeUnit.MINUTES.toMillis(30));
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP/2 client did not start", e);
        }
        return new H2cClient(client);
    }

    /** Opens one connection to {@code host:port}, speaking HTTP/2 from its first byte. */
    public H2cConnection connect(String host, int port) {
        try {
            Session session = client.connect(new InetSocketAddress(host, port), new Session.Listener() {})
                    .get(30, TimeUnit.SECONDS);
            return new H2cConnection(session, host + ":" + port);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting", e);
        } catch (Exception e) {
            throw new IllegalStateException("could not connect to " + host + ":" + port + " over h2c", e);
        }
    }

    @Override
    public void close() {
        try {
            client.stop();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP/2 client did not stop", e);
        }
    }
}
