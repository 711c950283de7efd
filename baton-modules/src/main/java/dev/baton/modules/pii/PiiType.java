package dev.baton.modules.pii;

import java.util.Locale;

/** The kinds of personal data the redaction module finds, each with the placeholder that replaces it. */
public enum PiiType {
    EMAIL("[EMAIL]"),
    PHONE("[PHONE]"),
    CARD("[CARD]"),
    SSN("[SSN]"),
    IBAN("[IBAN]");

    private final String placeholder;

    PiiType(String placeholder) {
        this.placeholder = placeholder;
    }

    /** What the matched text is replaced with, e.g. {@code [EMAIL]}. */
    public String placeholder() {
        return placeholder;
    }

    /** The name used in configuration, audit records and extractions, e.g. {@code email}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The type named {@code name} ({@code email}, case-insensitive). */
    public static PiiType fromWire(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }
}
