package dev.baton.bench;

import java.util.List;
import java.util.Random;

/** Where a client of {@link CrashDrill} sends a request: a random instance it believes up, or the load balancer. */
@FunctionalInterface
interface CrashTargets {
    /** A base URL; waits while no instance is up. */
    String pick(Random random) throws InterruptedException;

    static CrashTargets direct(List<CrashInstance> instances) {
        return random -> {
            while (true) {
                List<CrashInstance> up =
                        instances.stream().filter(CrashInstance::up).toList();
                if (!up.isEmpty()) return up.get(random.nextInt(up.size())).url();
                Thread.sleep(100); // every instance is restarting: nothing to send to yet
            }
        };
    }

    static CrashTargets balanced(String url) {
        return random -> url;
    }
}
