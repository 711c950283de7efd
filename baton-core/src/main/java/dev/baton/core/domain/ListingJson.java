package dev.baton.core.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Function;

/** The shape every listing answers with, over the REST API and to a model alike: {@code {"<name>": [...], "count": N}}. */
public final class ListingJson {
    private ListingJson() {}

    /** @param name what the items are, e.g. "tasks" */
    public static <T> ObjectNode of(String name, List<T> items, Function<? super T, ? extends JsonNode> toJson) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        ArrayNode array = json.putArray(name);
        items.forEach(item -> array.add(toJson.apply(item)));
        json.put("count", items.size());
        return json;
    }
}
