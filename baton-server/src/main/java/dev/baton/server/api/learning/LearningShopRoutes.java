package dev.baton.server.api.learning;

import dev.baton.core.domain.JsonFields;
import dev.baton.learning.LearningModule;
import dev.baton.learning.commerce.ItemType;
import dev.baton.learning.tool.LearningJson;
import dev.baton.server.http.Caller;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Set;

/**
 * {@code /v1/learning/cart}, {@code …/labs} and {@code …/bookings}: the cart and lab bookings, over the same services
 * as {@code add_to_cart} and {@code book_lab}.
 */
public final class LearningShopRoutes {
    private final LearningModule learning;
    private final int maxBodyBytes;

    public LearningShopRoutes(LearningModule learning, int maxBodyBytes) {
        this.learning = learning;
        this.maxBodyBytes = maxBodyBytes;
    }

    public void register(RoutesConfig routes) {
        routes.get(
                "/v1/learning/cart",
                ctx -> ctx.json(LearningJson.cart(learning.commerce().cart(Caller.of(ctx)))));
        routes.post("/v1/learning/cart", this::addToCart);
        routes.delete("/v1/learning/cart/{type}/{itemId}", ctx -> {
            learning.commerce().remove(Caller.of(ctx), ctx.pathParam("itemId"), ItemType.parse(ctx.pathParam("type")));
            ctx.status(204);
        });
        routes.get(
                "/v1/learning/labs",
                ctx -> ctx.json(LearningJson.labs(learning.labs().labs(Caller.of(ctx)))));
        routes.get(
                "/v1/learning/labs/{id}/slots",
                ctx -> ctx.json(
                        LearningJson.slots(learning.labs().upcomingSlots(Caller.of(ctx), ctx.pathParam("id")))));
        routes.get(
                "/v1/learning/bookings",
                ctx -> ctx.json(LearningJson.bookings(learning.labs().bookings(Caller.of(ctx)))));
        routes.post("/v1/learning/bookings", this::book);
    }

    private void addToCart(Context ctx) {
        JsonFields body = LearningJson.fields(RequestBody.jsonObject(ctx, maxBodyBytes), Set.of("itemId", "type"));
        var item = learning.commerce().add(Caller.of(ctx), body.text("itemId"), ItemType.parse(body.text("type")));
        ctx.status(201).json(LearningCourseRoutes.one("item", LearningJson.cartItem(item)));
    }

    private void book(Context ctx) {
        JsonFields body = LearningJson.fields(RequestBody.jsonObject(ctx, maxBodyBytes), Set.of("labId", "slotStart"));
        var booking = learning.labs().book(Caller.of(ctx), body.text("labId"), body.text("slotStart"));
        ctx.status(201).json(LearningCourseRoutes.one("booking", LearningJson.booking(booking)));
    }
}
