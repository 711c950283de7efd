package dev.baton.server.it;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A client that sends a message asking for an SSE answer over a raw socket with a tiny receive buffer and then never
 * reads: no HTTP client stops reading on purpose.
 */
final class StalledSseClient {
    private StalledSseClient() {}

    /** Connects {@code socket} to the server on {@code port} and sends {@code content} to {@code session}. */
    static void send(Socket socket, int port, String token, String session, String content) throws IOException {
        socket.setReceiveBufferSize(1024);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        byte[] body = ("{\"content\":\"" + content + "\"}").getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/sessions/" + session + "/messages HTTP/1.1\r\nHost: localhost\r\n"
                        + "Authorization: Bearer " + token + "\r\nAccept: text/event-stream\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }
}
