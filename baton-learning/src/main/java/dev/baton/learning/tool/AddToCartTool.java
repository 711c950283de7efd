package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.JsonFields;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.commerce.CommerceService;
import dev.baton.learning.commerce.ItemType;
import java.util.Set;

/** {@code add_to_cart}: adds a course or resource to the caller's cart → {@code {"item": CART_ITEM}}. */
final class AddToCartTool extends LearningTool {
    static final String NAME = "add_to_cart";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "item_id": {"type": "string", "minLength": 1, "maxLength": 64,
                            "description": "The course's or resource's id"},
                "type": {"type": "string", "enum": ["course", "resource"]}
              },
              "required": ["item_id", "type"],
              "additionalProperties": false
            }
            """;

    private final CommerceService commerce;

    AddToCartTool(CommerceService commerce) {
        super(NAME, "Adds a course or resource to the user's cart.", SCHEMA, Set.of(LearningPermissions.WRITE), true);
        this.commerce = commerce;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        JsonFields fields = LearningJson.fields(arguments, Set.of("item_id", "type"));
        var item = commerce.add(principal, fields.text("item_id"), ItemType.parse(fields.text("type")));
        return LearningJson.MAPPER.createObjectNode().set("item", LearningJson.cartItem(item));
    }
}
