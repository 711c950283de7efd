package dev.baton.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.domain.rest.RestRequest;
import dev.baton.domain.rest.RestResponse;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.domain.rest.RouteHandler;
import dev.baton.domain.rest.Routes;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A domain's {@link RouteGroup} served by Javalin: the caller comes from the auth filter, a body is read under the
 * input rules (size, encoding, JSON object) only when the route asks for it, and what a route throws goes to the
 * server's one status mapping like any other route's refusal.
 */
public final class DomainRouteAdapter {
    private DomainRouteAdapter() {}

    /** Registers {@code group}'s routes on {@code routes}. */
    public static void register(RouteGroup group, RoutesConfig routes, int maxBodyBytes) {
        group.register(new Routes() {
            @Override
            public void get(String path, RouteHandler handler) {
                routes.get(path, handle(handler, maxBodyBytes));
            }

            @Override
            public void post(String path, RouteHandler handler) {
                routes.post(path, handle(handler, maxBodyBytes));
            }

            @Override
            public void patch(String path, RouteHandler handler) {
                routes.patch(path, handle(handler, maxBodyBytes));
            }

            @Override
            public void put(String path, RouteHandler handler) {
                routes.put(path, handle(handler, maxBodyBytes));
            }

            @Override
            public void delete(String path, RouteHandler handler) {
                routes.delete(path, handle(handler, maxBodyBytes));
            }
        });
    }

    private static Handler handle(RouteHandler handler, int maxBodyBytes) {
        return ctx -> {
            RestResponse response = handler.handle(new ContextRequest(ctx, maxBodyBytes));
            ctx.status(response.status());
            if (response.body() != null) ctx.json(response.body());
        };
    }

    /** A request as the domain sees it, read from Javalin's context. */
    private record ContextRequest(Context ctx, int maxBodyBytes) implements RestRequest {
        @Override
        public Principal caller() {
            return Caller.of(ctx);
        }

        @Override
        public String pathParam(String name) {
            return ctx.pathParam(name);
        }

        @Override
        public String queryParam(String name) {
            return ctx.queryParam(name);
        }

        @Override
        public Map<String, String> queryParams() {
            // a parameter given without a value maps to null, which Map.copyOf would refuse
            Map<String, String> first = new LinkedHashMap<>();
            ctx.queryParamMap().forEach((k, v) -> first.put(k, v.isEmpty() ? null : v.getFirst()));
            return Collections.unmodifiableMap(first);
        }

        @Override
        public JsonNode body() {
            return RequestBody.jsonObject(ctx, maxBodyBytes);
        }
    }
}
