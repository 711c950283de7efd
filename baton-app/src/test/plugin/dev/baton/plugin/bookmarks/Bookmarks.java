package dev.baton.plugin.bookmarks;

import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolException;
import dev.baton.store.jdbc.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/** The user's bookmarks, in the domain's own table of Baton's database. */
final class Bookmarks {
    private final Database db;
    private final int maxPerUser;

    Bookmarks(Database db, int maxPerUser) {
        this.db = db;
        this.maxPerUser = maxPerUser;
    }

    String add(Principal caller, String url) {
        if (list(caller).size() >= maxPerUser)
            throw new ToolException("limit_reached", "at most " + maxPerUser + " bookmarks");
        return db.inTransaction(c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO bookmarks (user_id, url) VALUES (?, ?)")) {
                s.setString(1, caller.userId());
                s.setString(2, url);
                s.executeUpdate();
            }
            return url;
        });
    }

    List<String> list(Principal caller) {
        return db.withConnection(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT url FROM bookmarks WHERE user_id = ? ORDER BY url")) {
                s.setString(1, caller.userId());
                List<String> urls = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) urls.add(r.getString(1));
                }
                return urls;
            }
        });
    }
}
