package dev.baton.testkit.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.util.Callback;

/** One HTTP/2 connection of an {@link H2cClient}: every request sent on it is a stream of the same socket. */
public final class H2cConnection implements AutoCloseable {
    private final Session session;
    private final String authority;

    H2cConnection(Session session, String authority) {
        this.session = session;
        this.authority = authority;
    }

    /**
     * Sends {@code POST path} with a JSON body and reads the answer as Server-Sent Events.
     *
     * @param bearerToken the {@code Authorization: Bearer} token, or null for none
     * @param reading false to read nothing of the answer after its headers: the stream's flow-control window fills
     *     and the server can send it no more, while the connection's other streams go on
     */
    public SseStream post(String path, String bearerToken, String json, boolean reading) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        HttpFields.Mutable headers = HttpFields.build()
                .put(HttpHeader.CONTENT_TYPE, "application/json")
                .put(HttpHeader.ACCEPT, "text/event-stream");
        if (bearerToken != null) headers.put(HttpHeader.AUTHORIZATION, "Bearer " + bearerToken);
        MetaData.Request request = new MetaData.Request(
                "POST", HttpURI.from("http://" + authority + path), HttpVersion.HTTP_2, headers, body.length);
        SseStream stream = new SseStream(reading);
        session.newStream(new HeadersFrame(request, null, false), stream.listener())
                .thenAccept(s -> {
                    stream.opened(s);
                    s.data(new DataFrame(s.getId(), ByteBuffer.wrap(body), true), Callback.NOOP);
                })
                .exceptionally(failure -> {
                    stream.failed(failure);
                    return null;
                });
        return stream;
    }

    /** False once the connection closed, on either side. */
    public boolean isOpen() {
        return !session.isClosed();
    }

    @Override
    public void close() {
        session.close(ErrorCode.NO_ERROR.code, "closed by the client", Callback.NOOP);
    }
}
