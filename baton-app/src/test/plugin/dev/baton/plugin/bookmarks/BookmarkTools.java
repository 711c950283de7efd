package dev.baton.plugin.bookmarks;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.tool.BatonTool;
import dev.baton.runtime.tool.Param;
import java.util.Map;

/** The bookmark tools: thin adapters over {@link Bookmarks}, the caller injected. */
public final class BookmarkTools {
    private final Bookmarks bookmarks;

    BookmarkTools(Bookmarks bookmarks) {
        this.bookmarks = bookmarks;
    }

    @BatonTool(name = "add_bookmark", description = "Bookmark a URL for the user.", permissions = BookmarksDomain.WRITE)
    public Map<String, String> add(Principal caller, @Param(description = "The URL") String url) {
        return Map.of("saved", bookmarks.add(caller, url));
    }
}
