package dev.baton.domain.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import java.util.Map;

/** A request as a domain's route sees it: who calls, the path and query parameters, the JSON body. */
public interface RestRequest {

    /** The authenticated caller (the model never chooses it). */
    Principal caller();

    /** A parameter of the route's path. */
    String pathParam(String name);

    /** A query parameter's first value, or null. */
    String queryParam(String name);

    /** Every query parameter's first value (null for one given without a value), in the order given. */
    Map<String, String> queryParams();

    /** The body: a JSON object read under the front door's input rules (size, encoding), or a 400 refusal. */
    JsonNode body();
}
