package dev.baton.server.http;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How the HTTP server takes connections (baton.yaml's {@code server:} section).
 *
 * @param acceptQueue how many connections the kernel may hold for Baton before it accepts them (the listen backlog,
 *     {@code server.acceptQueue}, 1,024 by default): a burst of connections beyond it is refused or reset. Linux caps
 *     it at {@code net.core.somaxconn} (4,096 on kernels since 5.4, 128 before), so raise that too for a larger queue
 */
public record HttpSettings(int acceptQueue) {
    public static final int DEFAULT_ACCEPT_QUEUE = 1024;
    public static final HttpSettings DEFAULTS = new HttpSettings(DEFAULT_ACCEPT_QUEUE);

    public HttpSettings {
        if (acceptQueue < 1 || acceptQueue > 65_535)
            throw new IllegalArgumentException("server.acceptQueue must be 1..65535");
    }

    /** The {@code server:} section; a missing key keeps the default. */
    public static HttpSettings from(JsonNode server) {
        JsonNode queue = server == null ? null : server.path("acceptQueue");
        if (queue == null || queue.isMissingNode() || queue.isNull()) return DEFAULTS;
        if (!queue.canConvertToInt()) throw new IllegalArgumentException("server.acceptQueue must be a number");
        return new HttpSettings(queue.asInt());
    }
}
