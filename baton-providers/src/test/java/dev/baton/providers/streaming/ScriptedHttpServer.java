package dev.baton.providers.streaming;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP/1.1 server on 127.0.0.1 whose answers a test writes itself, byte by byte, to make a provider do what the
 * simulator does not: stream without end, hold back the end of a body, send an endless error. Each connection is
 * served on its own virtual thread, one request after another while the answer leaves it open.
 */
final class ScriptedHttpServer implements AutoCloseable {

    /** Writes the answer to one request whose head and body were read. */
    interface Answer {
        void write(Connection connection) throws IOException;
    }

    /** One accepted connection. */
    static final class Connection {
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        /** The body of the request being answered. */
        String request = "";

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        /** One chunk of a chunked body. */
        void chunk(String text) throws IOException {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            write(Integer.toHexString(bytes.length) + "\r\n" + text + "\r\n");
        }

        /** Waits until the client closes the connection; true when it did (false: it sent a byte instead). */
        boolean awaitClientClose() {
            try {
                return in.read() < 0;
            } catch (IOException e) {
                return true;
            }
        }

        /** @return false once the client closed the connection */
        private boolean readRequest() throws IOException {
            var head = new ByteArrayOutputStream();
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) return false;
                head.write(b);
                matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            int length = 0;
            for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(
                            line.substring("content-length:".length()).trim());
                }
            }
            request = new String(in.readNBytes(length), StandardCharsets.UTF_8);
            return true;
        }
    }

    private final ServerSocket socket;
    private final Answer answer;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    private ScriptedHttpServer(ServerSocket socket, Answer answer) {
        this.socket = socket;
        this.answer = answer;
    }

    static ScriptedHttpServer start(Answer answer) {
        try {
            var socket = new ServerSocket();
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            var server = new ScriptedHttpServer(socket, answer);
            Thread.ofVirtual().name("scripted-http-accept").start(server::accept);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/v1/chat/completions");
    }

    /** How many connections clients opened so far. */
    int connections() {
        return connections.get();
    }

    /** How many requests were read so far. */
    int requests() {
        return requests.get();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                connections.incrementAndGet();
                open.add(client);
                Thread.ofVirtual().name("scripted-http-" + client.getPort()).start(() -> serve(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            var connection = new Connection(client);
            while (connection.readRequest()) {
                requests.incrementAndGet();
                answer.write(connection);
            }
        } catch (IOException e) {
            // the client went away mid-answer: what some tests make it do
        } finally {
            open.remove(client);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket client : open) client.close();
    }
}
