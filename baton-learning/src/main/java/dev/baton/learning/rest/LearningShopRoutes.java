package dev.baton.learning.rest;

import dev.baton.core.domain.JsonFields;
import dev.baton.domain.rest.RestRequest;
import dev.baton.domain.rest.RestResponse;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.domain.rest.Routes;
import dev.baton.learning.LearningModule;
import dev.baton.learning.commerce.ItemType;
import dev.baton.learning.tool.LearningJson;
import java.util.Set;

/**
 * {@code /v1/learning/cart}, {@code …/labs} and {@code …/bookings}: the same commerce and labs services the
 * platform's tools call; the services check permissions, ownership and every rule.
 */
public final class LearningShopRoutes implements RouteGroup {
    private final LearningModule learning;

    public LearningShopRoutes(LearningModule learning) {
        this.learning = learning;
    }

    @Override
    public void register(Routes routes) {
        routes.get(
                "/v1/learning/cart",
                req -> RestResponse.ok(LearningJson.cart(learning.commerce().cart(req.caller()))));
        routes.post("/v1/learning/cart", this::addToCart);
        routes.delete("/v1/learning/cart/{type}/{itemId}", req -> {
            learning.commerce().remove(req.caller(), req.pathParam("itemId"), ItemType.parse(req.pathParam("type")));
            return RestResponse.noContent();
        });
        routes.get(
                "/v1/learning/labs",
                req -> RestResponse.ok(LearningJson.labs(learning.labs().labs(req.caller()))));
        routes.get(
                "/v1/learning/labs/{id}/slots",
                req -> RestResponse.ok(
                        LearningJson.slots(learning.labs().upcomingSlots(req.caller(), req.pathParam("id")))));
        routes.get(
                "/v1/learning/bookings",
                req -> RestResponse.ok(LearningJson.bookings(learning.labs().bookings(req.caller()))));
        routes.post("/v1/learning/bookings", this::book);
    }

    private RestResponse addToCart(RestRequest req) {
        JsonFields body = LearningJson.fields(req.body(), Set.of("itemId", "type"));
        var item = learning.commerce().add(req.caller(), body.text("itemId"), ItemType.parse(body.text("type")));
        return RestResponse.created(LearningCourseRoutes.one("item", LearningJson.cartItem(item)));
    }

    private RestResponse book(RestRequest req) {
        JsonFields body = LearningJson.fields(req.body(), Set.of("labId", "slotStart"));
        var booking = learning.labs().book(req.caller(), body.text("labId"), body.text("slotStart"));
        return RestResponse.created(LearningCourseRoutes.one("booking", LearningJson.booking(booking)));
    }
}
