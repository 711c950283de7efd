package dev.baton.domain.rest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a domain's route answers.
 *
 * @param status the HTTP status (200, 201, 202, 204)
 * @param body the JSON body; null for none (204)
 */
public record RestResponse(int status, JsonNode body) {

    public RestResponse {
        if (status < 200 || status > 299)
            throw new IllegalArgumentException("a route answers 2xx; refusals are thrown");
        if (body == null && status != 204) throw new IllegalArgumentException("a " + status + " answer needs a body");
    }

    public static RestResponse ok(JsonNode body) {
        return new RestResponse(200, body);
    }

    public static RestResponse created(JsonNode body) {
        return new RestResponse(201, body);
    }

    public static RestResponse accepted(JsonNode body) {
        return new RestResponse(202, body);
    }

    public static RestResponse noContent() {
        return new RestResponse(204, null);
    }
}
