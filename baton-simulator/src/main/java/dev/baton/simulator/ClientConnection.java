package dev.baton.simulator;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One accepted socket. Owns the raw socket (rather than the JDK's HttpServer) because the simulator must be
 * able to drop a connection mid-body and to notice a client leaving while nothing is being written.
 */
final class ClientConnection implements AutoCloseable {

    /** How often a waiting connection looks at the socket; bounds how late a disconnect is noticed. */
    private static final int PROBE_MILLIS = 50;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private boolean unexpectedInput;

    ClientConnection(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    HttpRequestHead readRequest() throws IOException {
        socket.setSoTimeout(0);
        return HttpRequestHead.read(in, out);
    }

    /**
     * Waits for {@code duration} while watching the socket.
     *
     * @return false when the client closed the connection meanwhile
     */
    boolean pause(Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            int millis = (int) Math.max(
                    1, Math.min(PROBE_MILLIS, Duration.ofNanos(remaining).toMillis()));
            if (!probe(millis)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sends nothing until the client goes away or {@code closing} turns true.
     *
     * @return true when the client went away, false when the simulator is closing
     */
    boolean awaitClientGone(BooleanSupplier closing) {
        while (!closing.getAsBoolean()) {
            if (!probe(PROBE_MILLIS)) {
                return !closing.getAsBoolean();
            }
        }
        return false;
    }

    /**
     * Sends nothing until {@code release} is counted down, the client goes away or {@code closing} turns true.
     *
     * @return true when released
     */
    boolean awaitRelease(java.util.concurrent.CountDownLatch release, BooleanSupplier closing) {
        while (release.getCount() > 0) {
            if (closing.getAsBoolean() || !probe(PROBE_MILLIS)) {
                return false;
            }
        }
        return true;
    }

    /** Reads with a short timeout: end of stream or an error means the client is gone. */
    private boolean probe(int timeoutMillis) {
        try {
            socket.setSoTimeout(timeoutMillis);
            int b = in.read();
            if (b < 0) {
                return false;
            }
            // A byte while we answer means a pipelined request we will not serve: close after this answer.
            unexpectedInput = true;
            return true;
        } catch (SocketTimeoutException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the client may send another request on this connection. */
    boolean reusable() {
        return !unexpectedInput && !socket.isClosed();
    }

    void sendFixed(int status, Map<String, String> headers, byte[] body, boolean keepAlive) throws IOException {
        var all = new LinkedHashMap<>(headers);
        all.put("Content-Length", Integer.toString(body.length));
        all.put("Connection", keepAlive ? "keep-alive" : "close");
        writeHead(status, all);
        out.write(body);
        out.flush();
    }

    /** Starts a chunked response; follow with {@link #writeChunk} and {@link #endChunked}. */
    void startChunked(int status, Map<String, String> headers, boolean keepAlive) throws IOException {
        var all = new LinkedHashMap<>(headers);
        all.put("Transfer-Encoding", "chunked");
        all.put("Connection", keepAlive ? "keep-alive" : "close");
        writeHead(status, all);
        out.flush();
    }

    void writeChunk(String text) throws IOException {
        var bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0) {
            return;
        }
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    void endChunked() throws IOException {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private void writeHead(int status, Map<String, String> headers) throws IOException {
        var head = new StringBuilder("HTTP/1.1 ")
                .append(status)
                .append(' ')
                .append(reason(status))
                .append("\r\n");
        headers.forEach(
                (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 529 -> "Overloaded";
            default -> "Status " + status;
        };
    }

    /** Drops the connection: whatever body was in flight stays unfinished. */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a broken socket has nothing left to report
        }
    }
}
