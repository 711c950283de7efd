package dev.baton.runtime.durable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.auth.Principal;

/** Who a leased turn runs for, as stored with its lease: the whole principal, so a takeover runs it as that user. */
final class PrincipalJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PrincipalJson() {}

    static String encode(Principal principal) {
        try {
            return JSON.writeValueAsString(principal);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("principal not writable as JSON", e);
        }
    }

    static Principal decode(String json) {
        try {
            return JSON.readValue(json, Principal.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("stored principal is not readable: " + e.getOriginalMessage(), e);
        }
    }
}
