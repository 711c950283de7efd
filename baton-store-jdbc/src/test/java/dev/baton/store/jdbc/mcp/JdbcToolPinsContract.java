package dev.baton.store.jdbc.mcp;

import dev.baton.core.tool.pin.ToolPins;
import dev.baton.store.jdbc.Database;
import dev.baton.testkit.store.ToolPinsContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The pin contract on {@link JdbcToolPins}; subclasses provide a database per class. */
abstract class JdbcToolPinsContract extends ToolPinsContract {
    private Database db;
    private JdbcToolPins pins;

    protected abstract String createDatabase();

    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        pins = new JdbcToolPins(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Override
    protected ToolPins pins() {
        return pins;
    }
}
