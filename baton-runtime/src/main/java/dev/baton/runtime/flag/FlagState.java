package dev.baton.runtime.flag;

/**
 * A flag's value now and where it comes from.
 *
 * @param percentage of users it is on for: 0 is off, 100 is on for everyone
 * @param source {@code runtime} (set through the admin API), {@code env} ({@code FF_<NAME>}) or {@code config}
 *     (baton.yaml's {@code flags:})
 */
public record FlagState(String name, int percentage, String source) {
    public boolean on() {
        return percentage == 100;
    }
}
