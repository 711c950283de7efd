package dev.baton.bench;

import java.time.Duration;
import java.util.List;

/** The figures of one {@link CrashDrill} run, printed at its end. */
record CrashSummary(
        CrashDrillOptions options,
        List<CrashTurnResult> results,
        List<CrashKiller.Kill> kills,
        CrashTakeovers takenOver,
        CrashInvariants.Findings findings,
        Duration took) {
    private static final int VIOLATIONS_SHOWN = 40;

    void print() {
        long answered = results.stream().filter(r -> r.failure() == null).count();
        long streamed = results.stream().filter(r -> r.turn().streamed()).count();
        long tool = results.stream().filter(r -> r.turn().tool()).count();
        long[] waits = results.stream()
                .mapToLong(CrashTurnResult::waitAfterKillMillis)
                .filter(w -> w >= 0)
                .sorted()
                .toArray();
        long[] boots =
                kills.stream().mapToLong(k -> k.boot().toMillis()).sorted().toArray();
        System.out.println();
        System.out.printf("seed %d (--seed %d repeats the plan; timings differ)%n", options.seed(), options.seed());
        System.out.printf(
                "turns                %d asked (%d tool, %d text; %d streamed, %d JSON), %d answered, in %.1f s%n",
                results.size(),
                tool,
                results.size() - tool,
                streamed,
                results.size() - streamed,
                answered,
                took.toMillis() / 1000.0);
        System.out.printf(
                "kills                %d (SIGKILL), restart to listening: median %d ms, max %d ms%n",
                kills.size(), percentile(boots, 50), percentile(boots, 100));
        System.out.printf(
                "turns taken over     %d (%d takeovers logged; %d turns taken over again after their taker was killed)%n",
                takenOver.turns(), takenOver.takeovers(), takenOver.again());
        System.out.printf(
                "claims expired       %d idempotency claims a retry waited out (the request died before its turn was"
                        + " leased)%n",
                takenOver.unsettledClaims());
        System.out.printf(
                "clients cut by a kill %d turns; answers replayed to a retry %d%n",
                waits.length, results.stream().filter(CrashTurnResult::replayed).count());
        System.out.printf(
                "retries              %d requests sent again; 409s %d%n",
                results.stream().mapToInt(CrashTurnResult::retries).sum(),
                results.stream().mapToInt(CrashTurnResult::conflicts).sum());
        System.out.printf(
                "wait after a kill    median %d ms, max %d ms (kill → the client's answer)%n",
                percentile(waits, 50), percentile(waits, 100));
        System.out.printf(
                "database             %d tasks, %d tool_calls, duplicates found %d, running_turns left %d%n",
                findings.tasks(), findings.toolCalls(), findings.duplicateTitles(), findings.leftRunning());
        System.out.printf(
                "outcome unknown      %d add_task calls in flight at a kill, not run again; %d of them had written"
                        + " their task%n",
                findings.unknownOutcomes(), findings.unknownButDone());
        System.out.printf("invariant violations %d%n", findings.violations().size());
        findings.violations().stream().limit(VIOLATIONS_SHOWN).forEach(v -> System.out.println("  " + v));
        if (findings.violations().size() > VIOLATIONS_SHOWN) {
            System.out.println("  … and " + (findings.violations().size() - VIOLATIONS_SHOWN) + " more");
        }
    }

    /** The p-th percentile (nearest rank) of sorted values; -1 for none. */
    private static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) return -1;
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
