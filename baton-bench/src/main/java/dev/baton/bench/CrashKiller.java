package dev.baton.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntSupplier;

/**
 * Kills a random instance with SIGKILL at random moments of {@link CrashDrill} and starts it again (same
 * {@code instanceId}) after a short random delay. The moments are spread over the run: kill {@code k} of {@code K}
 * comes once about {@code k·T/(K+1)} turns have started, then after a random 0–4 s (a turn takes about 3), so that it lands anywhere in a
 * turn (the model streaming, a tool running, an answer being stored). It kills only while every instance is up: with
 * several, one is always left to take the turns over. A restart takes long on a loaded machine (tens of seconds), longer
 * than the turns between two kills: so the clients hold a turn that is due for a kill until every instance is up again
 * ({@link #gate}), and the kill comes while they all have turns running, however slowly the instances start.
 */
final class CrashKiller implements Runnable {
    /** One kill: which instance, when, and how long its restart took. */
    record Kill(String instanceId, Instant at, Duration down, Duration boot) {}

    private final List<CrashInstance> instances;
    private final int kills;
    private final int turns;
    private final IntSupplier started;
    private final Random random;
    private final List<Kill> done = new ArrayList<>();
    private volatile boolean stopped;

    CrashKiller(List<CrashInstance> instances, int kills, int turns, IntSupplier started, Random random) {
        this.instances = instances;
        this.kills = kills;
        this.turns = turns;
        this.started = started;
        this.random = random;
    }

    /** The number of turns started when kill {@code k} (from 1) is due. */
    private int dueAt(int k) {
        return (int) ((long) k * turns / (kills + 1));
    }

    /** Before turn {@code t} (from 0) starts: when a kill not made yet is due by then, waits until every instance is up. */
    void gate(int t) throws InterruptedException {
        while (!stopped && made() < kills && dueAt(made() + 1) <= t + 1 && !allUp()) {
            Thread.sleep(50); // polling the restarts
        }
    }

    private int made() {
        synchronized (done) {
            return done.size();
        }
    }

    private boolean allUp() {
        return instances.stream().allMatch(CrashInstance::up);
    }

    @Override
    public void run() {
        try {
            for (int k = 1; k <= kills && !stopped; k++) {
                while (!stopped && (started.getAsInt() < dueAt(k) || !allUp())) {
                    Thread.sleep(50); // polling the clients' progress and the restarts
                }
                if (stopped) return;
                Thread.sleep(random.nextInt(4000));
                CrashInstance victim = instances.get(random.nextInt(instances.size()));
                Instant killedAt = Instant.now();
                victim.kill();
                synchronized (done) {
                    done.add(new Kill(victim.instanceId, killedAt, Duration.ZERO, Duration.ZERO));
                }
                System.out.printf("kill %d/%d: %s at turn %d%n", k, kills, victim.instanceId, started.getAsInt());
                Duration down = Duration.ofMillis(200 + random.nextInt(1800));
                Thread.sleep(down.toMillis());
                Duration boot = victim.start();
                synchronized (done) {
                    done.set(done.size() - 1, new Kill(victim.instanceId, killedAt, down, boot));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            System.out.println("the killer stopped: " + e);
            stopped = true;
        }
    }

    void stop() {
        stopped = true;
    }

    List<Kill> kills() {
        synchronized (done) {
            return List.copyOf(done);
        }
    }

    /** The last kill at or before {@code moment}; null when none. */
    Instant lastKillBefore(Instant moment) {
        synchronized (done) {
            Instant last = null;
            for (Kill k : done) {
                if (!k.at().isAfter(moment)) last = k.at();
            }
            return last;
        }
    }
}
