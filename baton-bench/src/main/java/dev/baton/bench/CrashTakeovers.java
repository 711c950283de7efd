package dev.baton.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The takeovers {@link CrashDrill}'s instances logged ({@code OrphanedTurns}: "turn T of request R was orphaned by
 * instance I; taken over at epoch E"): the one record of a takeover that outlives it, since the lease's row and its
 * epoch go with the answer.
 *
 * @param takeovers lines logged: a turn taken over, then cut again by a kill and taken over again, counts twice
 * @param turns distinct turns taken over
 * @param again turns taken over more than once (the instance that took one over killed while it went on with it)
 * @param unsettledClaims idempotency claims a retry took over only once they expired ({@code JdbcIdempotencyStore}:
 *     "was never settled"): requests whose instance died before their turn was leased, so nothing took the turn over
 */
record CrashTakeovers(int takeovers, int turns, int again, int unsettledClaims) {
    private static final Pattern LINE = Pattern.compile(
            "turn (\\S+) of request \\S+ was orphaned by instance \\S+;" + " taken over at epoch (\\d+)");

    static CrashTakeovers from(List<Path> logs) throws IOException {
        Map<String, Integer> byTurn = new HashMap<>();
        int takeovers = 0;
        int unsettled = 0;
        for (Path log : logs) {
            if (!Files.exists(log)) continue;
            for (String line : Files.readAllLines(log)) {
                if (line.contains("was never settled (its instance stopped)")) unsettled++;
                Matcher m = LINE.matcher(line);
                if (!m.find()) continue;
                takeovers++;
                byTurn.merge(m.group(1), 1, Integer::sum);
            }
        }
        int again = (int) byTurn.values().stream().filter(n -> n > 1).count();
        return new CrashTakeovers(takeovers, byTurn.size(), again, unsettled);
    }
}
