package dev.baton.core.turn;

/** Counts tokens the way the model will; used to budget history. */
public interface TokenCounter {
    int count(String text);
}
