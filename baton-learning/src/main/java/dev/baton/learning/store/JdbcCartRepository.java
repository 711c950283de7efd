package dev.baton.learning.store;

import dev.baton.learning.Learner;
import dev.baton.learning.commerce.CartItem;
import dev.baton.learning.commerce.CartRepository;
import dev.baton.learning.commerce.ItemType;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** Cart lines in {@code learning_cart_items}; every statement filters by tenant and user. */
public final class JdbcCartRepository implements CartRepository {
    private final Database db;
    private final ColumnCodec codec;

    public JdbcCartRepository(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    @Override
    public boolean insert(CartItem item) {
        // the unique key refuses a duplicate line, also when the same item is added twice at once
        return db.inTransaction(c -> Sql.update(
                        c,
                        "INSERT INTO learning_cart_items (id, tenant_id, user_id, item_type, item_id, title,"
                                + " price_cents, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                                + " ON CONFLICT (tenant_id, user_id, item_type, item_id) DO NOTHING",
                        List.of(
                                Param.text(item.id()),
                                Param.text(item.learner().tenantId()),
                                Param.text(item.learner().userId()),
                                Param.text(item.type().wireName()),
                                Param.text(item.itemId()),
                                Param.text(item.title()),
                                Sql.integer(item.priceCents()),
                                (ps, i) -> codec.setInstant(ps, i, item.addedAt())))
                == 1);
    }

    @Override
    public List<CartItem> items(Learner learner, int limit) {
        return Sql.list(
                db,
                "SELECT id, tenant_id, user_id, item_type, item_id, title, price_cents, added_at"
                        + " FROM learning_cart_items WHERE tenant_id = ? AND user_id = ? ORDER BY added_at, id LIMIT ?",
                List.of(Param.text(learner.tenantId()), Param.text(learner.userId()), Sql.integer(limit)),
                rs -> new CartItem(
                        rs.getString("id"),
                        new Learner(rs.getString("tenant_id"), rs.getString("user_id")),
                        ItemType.valueOf(rs.getString("item_type").toUpperCase(Locale.ROOT)),
                        rs.getString("item_id"),
                        rs.getString("title"),
                        rs.getLong("price_cents"),
                        codec.getInstant(rs, "added_at")));
    }

    @Override
    public boolean remove(Learner learner, ItemType type, String itemId) {
        return db.inTransaction(c -> Sql.update(
                        c,
                        "DELETE FROM learning_cart_items WHERE tenant_id = ? AND user_id = ? AND item_type = ?"
                                + " AND item_id = ?",
                        List.of(
                                Param.text(learner.tenantId()),
                                Param.text(learner.userId()),
                                Param.text(type.wireName()),
                                Param.text(itemId)))
                == 1);
    }
}
