package dev.baton.learning.enrolment;

import java.util.Locale;

/** Where a learner is with a course: still working through it, or done (progress reached 100%). */
public enum EnrolmentStatus {
    ACTIVE,
    COMPLETED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static EnrolmentStatus fromWireName(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }

    static EnrolmentStatus forProgress(int percent) {
        return percent >= 100 ? COMPLETED : ACTIVE;
    }
}
