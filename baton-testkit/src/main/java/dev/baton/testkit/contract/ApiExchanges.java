package dev.baton.testkit.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * HTTP exchanges with Baton's v1 API over the JDK's {@link HttpClient} (a client neither door wrote): JSON requests
 * and answers, Server-Sent Event streams read to their end, and HS256 tokens as {@code baton serve} reads them.
 */
public final class ApiExchanges {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final String baseUrl;
    private final String secret;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    /** @param baseUrl what comes before {@code /v1} (the scheme, host, port and any base path) */
    public ApiExchanges(String baseUrl, String secret) {
        this.baseUrl = baseUrl;
        this.secret = secret;
    }

    /** An answer: its status, headers and body (as JSON when it parses, else missing). */
    public record Answer(int status, Map<String, List<String>> headers, String raw) {
        public JsonNode body() {
            if (raw == null || raw.isBlank()) return MissingNode.getInstance();
            try {
                return JSON.readTree(raw);
            } catch (IOException e) {
                return MissingNode.getInstance();
            }
        }

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream())
                    .findFirst()
                    .orElse(null);
        }

        /** The error body's code, or null. */
        public String errorCode() {
            JsonNode code = body().path("error").path("code");
            return code.isTextual() ? code.asText() : null;
        }
    }

    /** One Server-Sent Event: its id ({@code -1} without), name and data. */
    public record Event(long id, String type, JsonNode data) {}

    /** A streamed answer read to its end: status, headers and the events (none for a status other than 200). */
    public record Streamed(int status, Map<String, List<String>> headers, List<Event> events, String raw) {
        public List<String> types() {
            return events.stream().map(Event::type).toList();
        }

        public Event first(String type) {
            return events.stream()
                    .filter(e -> e.type().equals(type))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + type + " event in " + types()));
        }
    }

    /** A token of {@code user} in {@code tenant} with {@code role}, valid for an hour. */
    public String token(String user, String tenant, String role) {
        Instant now = Instant.now();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .subject(user)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(1))))
                .claim("roles", List.of(role))
                .claim("tenant", tenant)
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        try {
            jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    public Answer get(String path, String token, String... headers) {
        return send(request(path, token, headers).GET().build());
    }

    public Answer delete(String path, String token) {
        return send(request(path, token).DELETE().build());
    }

    public Answer post(String path, String token, String json, String... headers) {
        return send(request(path, token, headers)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    /** A POST answered as Server-Sent Events ({@code Accept: text/event-stream}), read to the stream's end. */
    public Streamed postStreaming(String path, String token, String json, String... headers) {
        return stream(request(path, token, headers)
                .header("Accept", "text/event-stream")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    /** A GET answered as Server-Sent Events, read to the stream's end. */
    public Streamed getStreaming(String path, String token, String... headers) {
        return stream(request(path, token, headers)
                .header("Accept", "text/event-stream")
                .GET()
                .build());
    }

    private HttpRequest.Builder request(String path, String token, String... headers) {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT);
        if (token != null) b.header("Authorization", "Bearer " + token);
        for (int i = 0; i + 1 < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return b;
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.headers().map(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Streamed stream(HttpRequest request) {
        try {
            HttpResponse<Stream<String>> r = http.send(request, HttpResponse.BodyHandlers.ofLines());
            List<Event> events = new ArrayList<>();
            StringBuilder raw = new StringBuilder();
            try (Stream<String> lines = r.body()) {
                long id = -1;
                String type = null;
                StringBuilder data = new StringBuilder();
                for (String line : (Iterable<String>) lines::iterator) {
                    raw.append(line).append('\n');
                    if (r.statusCode() != 200) continue;
                    if (line.isEmpty()) {
                        if (type != null || !data.isEmpty())
                            events.add(new Event(id, type == null ? "message" : type, JSON.readTree(data.toString())));
                        id = -1;
                        type = null;
                        data.setLength(0);
                    } else if (line.startsWith("id:")) {
                        id = Long.parseLong(field(line));
                    } else if (line.startsWith("event:")) {
                        type = field(line);
                    } else if (line.startsWith("data:")) {
                        if (!data.isEmpty()) data.append('\n');
                        data.append(field(line));
                    }
                }
            }
            return new Streamed(r.statusCode(), r.headers().map(), List.copyOf(events), raw.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A field's value: after the colon, without the one space the SSE format allows there. */
    private static String field(String line) {
        String value = line.substring(line.indexOf(':') + 1);
        return value.startsWith(" ") ? value.substring(1) : value;
    }
}
