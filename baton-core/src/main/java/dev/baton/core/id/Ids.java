package dev.baton.core.id;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;

/** Identifiers are time-ordered UUIDv7 strings, so primary-key order is creation order. */
public final class Ids {
    private static final TimeBasedEpochGenerator V7 = Generators.timeBasedEpochGenerator();

    private Ids() {}

    public static String newId() {
        return V7.generate().toString();
    }
}
