package dev.baton.tasks.domain;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** Which tasks a listing covers by status. */
public enum StatusScope {
    OPEN(EnumSet.of(TaskStatus.OPEN)),
    COMPLETED(EnumSet.of(TaskStatus.COMPLETED)),
    ALL(EnumSet.allOf(TaskStatus.class));

    private final Set<TaskStatus> statuses;

    StatusScope(Set<TaskStatus> statuses) {
        this.statuses = Set.copyOf(statuses);
    }

    public Set<TaskStatus> statuses() {
        return statuses;
    }

    /**
     * @throws TaskException invalid_argument unless {@code value} is open, completed or all
     */
    public static StatusScope parse(String value) {
        if (value != null) {
            for (StatusScope s : values()) {
                if (s.name().toLowerCase(Locale.ROOT).equalsIgnoreCase(value.strip())) return s;
            }
        }
        throw TaskException.invalidArgument("status must be one of open, completed, all (got '" + value + "')");
    }
}
