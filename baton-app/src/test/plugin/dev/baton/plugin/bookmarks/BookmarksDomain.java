package dev.baton.plugin.bookmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.tool.ToolSource;
import dev.baton.domain.Domain;
import dev.baton.domain.DomainContext;
import dev.baton.domain.RunningDomain;
import dev.baton.domain.rest.RestResponse;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.runtime.tool.AnnotatedTools;
import java.util.List;
import java.util.Set;

/**
 * A domain of someone else's, in a jar of its own: compiled and packed by ThirdPartyDomainIT, never on Baton's own
 * class path. Its table, agent, tools, routes and settings join a Baton only because the jar is on the class path.
 */
public final class BookmarksDomain implements Domain {
    public static final String READ = "bookmarks:read:self";
    public static final String WRITE = "bookmarks:write:self";

    /** baton.yaml's {@code bookmarks} section. */
    public record Settings(int maxPerUser) {
        public Settings {
            if (maxPerUser < 1) throw new IllegalArgumentException("bookmarks.maxPerUser must be at least 1");
        }
    }

    @Override
    public String name() {
        return "bookmarks";
    }

    @Override
    public List<String> migrations() {
        return List.of("classpath:db/migration/bookmarks");
    }

    @Override
    public List<String> agents() {
        return List.of("agents/bookmarks.yaml");
    }

    @Override
    public String configSection() {
        return "bookmarks";
    }

    @Override
    public Settings readSettings(JsonNode section) {
        return new Settings(section.path("maxPerUser").asInt(10));
    }

    @Override
    public Set<String> userPermissions() {
        return Set.of(READ, WRITE);
    }

    @Override
    public RunningDomain start(DomainContext context) {
        Bookmarks bookmarks = new Bookmarks(context.database(), context.settings(Settings.class).maxPerUser());
        return new RunningDomain() {
            @Override
            public List<ToolSource> toolSources() {
                return List.of(AnnotatedTools.named("bookmarks", new BookmarkTools(bookmarks)));
            }

            @Override
            public List<RouteGroup> routes() {
                return List.of(routes -> routes.get("/v1/bookmarks", req -> {
                    var list = JsonNodeFactory.instance.arrayNode();
                    bookmarks.list(req.caller()).forEach(list::add);
                    return RestResponse.ok(JsonNodeFactory.instance.objectNode().set("bookmarks", list));
                }));
            }
        };
    }
}
