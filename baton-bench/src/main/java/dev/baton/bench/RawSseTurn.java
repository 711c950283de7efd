package dev.baton.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One streamed turn over a plain socket ({@code POST /v1/chat} with {@code stream: true}, a new conversation): cheap
 * enough to hold ten thousand at once on virtual threads, and able to stop reading entirely, which no HTTP client
 * library does on purpose.
 */
final class RawSseTurn {
    /**
     * How a streamed turn went.
     *
     * @param status the HTTP status, 0 when none was read
     * @param ended "done", "error: ..." or why the stream stopped before either
     * @param headersNanos, firstChunkNanos, endNanos from the request, -1 when not reached
     */
    record Result(int status, String ended, long headersNanos, long firstChunkNanos, long endNanos) {
        boolean ok() {
            return status == 200 && ended.equals("done");
        }
    }

    private RawSseTurn() {}

    /** Opens a connection and sends the request; nothing is read. */
    static Socket send(int port, String token, String message, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) socket.setReceiveBufferSize(receiveBuffer);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 60_000);
        byte[] body = ("{\"message\":\"" + message + "\",\"agentId\":\"tasks\",\"stream\":true}")
                .getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/chat HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                        + "\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\nConnection: close\r\n"
                        + "Content-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        return socket;
    }

    /** A whole turn, read to its {@code done} or {@code error} event. */
    static Result run(int port, String token, String message) {
        long start = System.nanoTime();
        long headers = -1, first = -1;
        int status = 0;
        try (Socket socket = send(port, token, message, 0)) {
            socket.setSoTimeout(300_000);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String statusLine = line(in);
            if (statusLine == null) return new Result(0, "no response", -1, -1, -1);
            status = Integer.parseInt(statusLine.split(" ")[1]);
            boolean chunked = false;
            for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
                if (h.toLowerCase().startsWith("transfer-encoding:")
                        && h.toLowerCase().contains("chunked")) chunked = true;
            }
            headers = System.nanoTime() - start;
            if (status != 200) return new Result(status, "status " + status, headers, -1, System.nanoTime() - start);
            InputStream body = chunked ? new ChunkedBody(in) : in;
            String event = null;
            for (String l = line(body); l != null; l = line(body)) {
                if (l.startsWith("event: ")) event = l.substring(7);
                else if (l.startsWith("data: ") && event != null) {
                    if (event.equals("chunk") && first < 0) first = System.nanoTime() - start;
                    if (event.equals("done"))
                        return new Result(status, "done", headers, first, System.nanoTime() - start);
                    if (event.equals("error"))
                        return new Result(
                                status, "error: " + l.substring(6), headers, first, System.nanoTime() - start);
                }
            }
            return new Result(status, "closed before done", headers, first, System.nanoTime() - start);
        } catch (IOException | RuntimeException e) {
            return new Result(status, e.toString(), headers, first, System.nanoTime() - start);
        }
    }

    /** A line without its CR LF; null at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(128);
        int c;
        while ((c = in.read()) != -1 && c != '\n') if (c != '\r') b.write(c);
        if (c == -1 && b.size() == 0) return null;
        return b.toString(StandardCharsets.UTF_8);
    }

    /** The body of a chunked response. */
    private static final class ChunkedBody extends InputStream {
        private final InputStream in;
        private long left;
        private boolean ended;

        ChunkedBody(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            if (ended) return -1;
            if (left == 0) {
                String size = line(in);
                if (size != null && size.isEmpty()) size = line(in); // the CR LF after the previous chunk
                if (size == null) return -1;
                int semi = size.indexOf(';');
                left = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                if (left == 0) {
                    ended = true;
                    return -1;
                }
            }
            int c = in.read();
            if (c >= 0) left--;
            return c;
        }
    }
}
