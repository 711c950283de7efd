package dev.baton.server.http;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.session.Sessions;
import io.javalin.http.Context;

/** The authenticated principal of a request, put on the context by the auth filter. */
public final class Caller {
    static final String ATTRIBUTE = "baton.principal";

    private Caller() {}

    public static Principal of(Context ctx) {
        Principal p = ctx.attribute(ATTRIBUTE);
        if (p == null) throw new IllegalStateException("route is not behind the auth filter");
        return p;
    }

    /** The principal, after checking it holds {@code permission} (403 otherwise). */
    public static Principal with(Context ctx, String permission) {
        Principal p = of(ctx);
        Sessions.require(p, permission);
        return p;
    }

    static void set(Context ctx, Principal p) {
        ctx.attribute(ATTRIBUTE, p);
    }
}
