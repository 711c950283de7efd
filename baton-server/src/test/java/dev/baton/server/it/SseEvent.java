package dev.baton.server.it;

import com.fasterxml.jackson.databind.JsonNode;

/** One parsed Server-Sent Event as a client sees it. */
record SseEvent(long id, String event, JsonNode data) {
    String type() {
        return data.path("type").asText();
    }
}
