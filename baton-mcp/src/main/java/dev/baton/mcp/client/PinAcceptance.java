package dev.baton.mcp.client;

/** What became of an operator's acceptance of a changed tool. */
public sealed interface PinAcceptance {
    /** The change is the new pin; the tool is offered again. */
    record Accepted(String hash) implements PinAcceptance {}

    /** No such server or no pin for that tool. */
    record Unknown(String message) implements PinAcceptance {}

    /**
     * The hash sent is not the change recorded now (none is, or the server changed the tool again since it was
     * reviewed).
     *
     * @param recorded the change recorded now; null when the tool matches its pin
     */
    record Mismatch(String recorded) implements PinAcceptance {}
}
