package dev.baton.mcp.pin;

import dev.baton.core.tool.pin.ToolPins;
import dev.baton.testkit.store.ToolPinsContract;

/** The pin contract (baton-testkit's) on {@link InMemoryToolPins}, one set of pins for the class. */
class InMemoryToolPinsTest extends ToolPinsContract {
    private final ToolPins pins = new InMemoryToolPins();

    @Override
    protected ToolPins pins() {
        return pins;
    }
}
