package dev.baton.learning.library;

import java.util.Locale;

/** How broad a learning request is: a whole subject, a topic within it, or one module of a topic. */
public enum Granularity {
    /** A broad domain, e.g. physics or leadership. */
    SUBJECT,
    /** A focused skill or concept within a subject, e.g. quantum physics or active listening. */
    TOPIC,
    /** One specific unit of a topic, e.g. the Schrödinger equation. */
    MODULE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Granularity fromWireName(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
