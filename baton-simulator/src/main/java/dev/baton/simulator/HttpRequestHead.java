package dev.baton.simulator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP/1.1 request read off a socket: just enough of RFC 9112 for JSON APIs (Content-Length and chunked
 * bodies, keep-alive). Pipelining is not supported; no mainstream HTTP client uses it.
 */
record HttpRequestHead(String method, String target, Map<String, List<String>> headers, byte[] body) {

    private static final int MAX_LINE = 16 * 1024;
    private static final int MAX_HEADERS = 200;
    private static final int MAX_BODY = 64 * 1024 * 1024;

    /** The target without its query string. */
    String path() {
        int query = target.indexOf('?');
        return query < 0 ? target : target.substring(0, query);
    }

    String header(String name) {
        var values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    /** The query string without its {@code ?}, "" when there is none. */
    String query() {
        int query = target.indexOf('?');
        return query < 0 ? "" : target.substring(query + 1);
    }

    /** HTTP/1.1 keeps the connection open unless the client said otherwise. */
    boolean keepAlive() {
        var connection = header("connection");
        return connection == null || !connection.toLowerCase(Locale.ROOT).contains("close");
    }

    /**
     * Reads the next request.
     *
     * @param out where to send {@code 100 Continue} when the client waits for it before sending the body
     * @return null when the client closed the connection between requests
     * @throws MalformedRequest when the bytes are not an HTTP request we can read
     */
    static HttpRequestHead read(InputStream in, OutputStream out) throws IOException {
        var requestLine = readLine(in);
        while (requestLine != null && requestLine.isEmpty()) {
            requestLine = readLine(in); // tolerate stray CRLF between requests (RFC 9112 §2.2)
        }
        if (requestLine == null) {
            return null;
        }
        var parts = requestLine.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
            throw new MalformedRequest("bad request line");
        }
        var headers = new LinkedHashMap<String, List<String>>();
        String line;
        while ((line = readLine(in)) != null && !line.isEmpty()) {
            int colon = line.indexOf(':');
            if (colon <= 0 || headers.size() > MAX_HEADERS) {
                throw new MalformedRequest("bad header line");
            }
            headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        if (line == null) {
            throw new MalformedRequest("connection closed inside the headers");
        }
        var head = new HttpRequestHead(parts[0], parts[1], headers, new byte[0]);
        var expect = head.header("expect");
        if (expect != null && expect.equalsIgnoreCase("100-continue")) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        return new HttpRequestHead(parts[0], parts[1], headers, readBody(in, head));
    }

    private static byte[] readBody(InputStream in, HttpRequestHead head) throws IOException {
        var transferEncoding = head.header("transfer-encoding");
        if (transferEncoding != null
                && transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return readChunked(in);
        }
        var length = head.header("content-length");
        if (length == null) {
            return new byte[0];
        }
        long size;
        try {
            size = Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            throw new MalformedRequest("bad Content-Length");
        }
        if (size < 0 || size > MAX_BODY) {
            throw new MalformedRequest("Content-Length out of range");
        }
        var body = in.readNBytes((int) size);
        if (body.length != size) {
            throw new MalformedRequest("connection closed inside the body");
        }
        return body;
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        var body = new ByteArrayOutputStream();
        while (true) {
            var sizeLine = readLine(in);
            if (sizeLine == null) {
                throw new MalformedRequest("connection closed inside a chunked body");
            }
            int semicolon = sizeLine.indexOf(';');
            int size;
            try {
                size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new MalformedRequest("bad chunk size");
            }
            if (size == 0) {
                String trailer;
                while ((trailer = readLine(in)) != null && !trailer.isEmpty()) {
                    // trailers carry nothing the simulator needs
                }
                return body.toByteArray();
            }
            if (size < 0 || body.size() + size > MAX_BODY) {
                throw new MalformedRequest("chunked body too large");
            }
            var chunk = in.readNBytes(size);
            if (chunk.length != size) {
                throw new MalformedRequest("connection closed inside a chunk");
            }
            body.write(chunk);
            readLine(in); // the CRLF after the chunk data
        }
    }

    /** A line without its CRLF (a bare LF is accepted), or null at end of stream before any byte. */
    private static String readLine(InputStream in) throws IOException {
        var line = new ByteArrayOutputStream(128);
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                var bytes = line.toByteArray();
                int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
            }
            if (line.size() >= MAX_LINE) {
                throw new MalformedRequest("line too long");
            }
            line.write(b);
        }
        if (line.size() > 0) {
            throw new MalformedRequest("connection closed inside a line");
        }
        return null;
    }

    /** The client sent something that is not a readable HTTP/1.1 request. */
    static final class MalformedRequest extends IOException {
        MalformedRequest(String message) {
            super(message);
        }
    }
}
