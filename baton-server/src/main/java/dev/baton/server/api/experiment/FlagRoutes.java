package dev.baton.server.api.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.flag.FeatureFlags;
import dev.baton.runtime.flag.FlagState;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;

/**
 * Feature flags for callers with {@code admin:flags} (the rules are {@link FeatureFlags}'):
 *
 * <ul>
 *   <li>{@code GET /v1/admin/flags}: every flag, its percentage and where it comes from;
 *   <li>{@code PUT /v1/admin/flags/{name}} with {@code {"on": true}} or {@code {"percentage": 25}}: sets it for
 *       every instance, audited;
 *   <li>{@code DELETE /v1/admin/flags/{name}}: back to {@code FF_<NAME>} or baton.yaml (404 when it had no runtime
 *       value).
 * </ul>
 */
public final class FlagRoutes {
    private final FeatureFlags flags;
    private final int maxBodyBytes;

    public FlagRoutes(FeatureFlags flags, int maxBodyBytes) {
        this.flags = flags;
        this.maxBodyBytes = maxBodyBytes;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/admin/flags", this::list);
        routes.put("/v1/admin/flags/{name}", this::set);
        routes.delete("/v1/admin/flags/{name}", this::clear);
    }

    private void list(Context ctx) {
        Caller.with(ctx, FeatureFlags.ADMIN);
        ObjectNode body = Json.MAPPER.createObjectNode();
        ArrayNode list = body.putArray("flags");
        for (FlagState f : flags.all()) list.add(ExperimentViews.flag(f));
        ctx.json(body);
    }

    private void set(Context ctx) {
        Principal admin = Caller.with(ctx, FeatureFlags.ADMIN);
        JsonNode request = RequestBody.jsonObject(ctx, maxBodyBytes);
        JsonNode on = request.path("on");
        JsonNode pct = request.path("percentage");
        int percentage;
        if (on.isBoolean() && pct.isMissingNode()) percentage = on.booleanValue() ? 100 : 0;
        else if (pct.isIntegralNumber() && pct.canConvertToInt() && on.isMissingNode()) percentage = pct.intValue();
        else throw RefusalException.invalidInput("give either 'on' (true or false) or 'percentage' (0 to 100)");
        ctx.json(ExperimentViews.flag(flags.set(admin, ctx.pathParam("name"), percentage)));
    }

    private void clear(Context ctx) {
        Principal admin = Caller.with(ctx, FeatureFlags.ADMIN);
        ctx.json(ExperimentViews.flag(flags.clear(admin, ctx.pathParam("name"))));
    }
}
