package dev.baton.bench;

import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import dev.baton.simulator.LlmSimulator;
import dev.baton.testkit.db.PostgresTestDatabase;
import dev.baton.testkit.process.Haproxy;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The randomized crash drill of durable turns: N {@code baton serve} processes on PostgreSQL + Redis (or one on SQLite,
 * killed and restarted), the LLM simulator paced so that kills land mid-turn, C clients sending T turns (JSON or SSE,
 * tool or text, each with an {@code Idempotency-Key}, retried with the same key when their connection dies), and a
 * killer that SIGKILLs a random instance K times and starts it again under the same {@code instanceId}. At the end the
 * database must hold every turn exactly once ({@link CrashInvariants}); the exit status says whether it did.
 *
 * <pre>
 * baton-bench/run.sh crash [turns] [--clients C] [--kills K] [--instances N] [--seed S] [--db postgres|sqlite] [--haproxy]
 * </pre>
 *
 * <p>Turns taken over are counted from the instances' logs ({@link CrashTakeovers}).
 */
public final class CrashDrill {
    private static final String SECRET = "crash-drill-secret-crash-drill-secret-0123456789";
    /** A session takes this many turns, then its client starts another (well below the conversation's tool cap). */
    private static final int TURNS_PER_SESSION = 8;

    private CrashDrill() {}

    public static void main(String[] args) throws Exception {
        CrashDrillOptions o = CrashDrillOptions.parse(args);
        System.out.printf(
                "crash drill: %d turns, %d clients, %d kills, %d instance(s) on %s%s, seed %d%n",
                o.turns(),
                o.clients(),
                o.kills(),
                o.instances(),
                o.sqlite() ? "SQLite" : "PostgreSQL + Redis",
                o.haproxy() ? " behind HAProxy" : "",
                o.seed());
        Path dir = Files.createTempDirectory("baton-crash-drill");
        PostgresTestDatabase pg = o.sqlite() ? null : PostgresTestDatabase.create();
        String jdbcUrl = o.sqlite() ? "jdbc:sqlite:" + dir.resolve("baton.db") : pg.url();
        boolean passed = false;
        List<CrashInstance> instances = new ArrayList<>();
        Haproxy front = null;
        try (LlmSimulator sim = LlmSimulator.start(CrashScript.script(Duration.ofMillis(300), 20))) {
            sim.keepRequests(0);
            startInstances(o, dir, jdbcUrl, sim.baseUrl(), instances);
            if (o.haproxy()) {
                Path haproxy = Haproxy.binary()
                        .orElseThrow(() -> new IllegalStateException(
                                "--haproxy: haproxy is not installed (not on PATH nor in /usr/sbin)"));
                front = Haproxy.start(
                        haproxy,
                        dir.resolve("haproxy"),
                        instances.stream().map(CrashInstance::url).toList());
            }
            System.out.println("logs and configuration in " + dir);
            passed = run(o, instances, front, jdbcUrl);
        } finally {
            for (CrashInstance i : instances) i.close();
            if (front != null) front.close();
            if (pg != null) {
                if (passed) pg.drop();
                else System.out.println("database kept for a look: " + jdbcUrl);
            }
        }
        System.exit(passed ? 0 : 1);
    }

    /**
     * Starts each instance in a folder of its own (agents, baton.yaml), one after the other (the first migrates), into
     * {@code instances} as it goes: those started are stopped even when a later one fails to start.
     */
    private static void startInstances(
            CrashDrillOptions o, Path dir, String jdbcUrl, String modelUrl, List<CrashInstance> instances)
            throws IOException, InterruptedException {
        String prefix = "baton-crash:" + UUID.randomUUID() + ":";
        for (int n = 1; n <= o.instances(); n++) {
            String id = "crash-" + n;
            Path home =
                    Files.createDirectories(dir.resolve(id).resolve("agents")).getParent();
            Files.writeString(home.resolve("agents").resolve("crash.yaml"), CrashScript.AGENT_YAML);
            Files.writeString(home.resolve("baton.yaml"), config(id, o.sqlite() ? null : prefix));
            Map<String, String> env = new HashMap<>();
            env.put("BATON_DB_URL", jdbcUrl);
            env.put("BATON_JWT_SECRET", SECRET);
            env.put("OPENAI_API_KEY", "sk-crash-drill");
            env.put("OPENAI_BASE_URL", modelUrl);
            env.put("BATON_CONFIG", home.resolve("baton.yaml").toString());
            if (!o.sqlite()) env.put("BATON_REDIS_URL", "redis://127.0.0.1:6379");
            CrashInstance instance = new CrashInstance(id, freePort(), home, env);
            instances.add(instance);
            Duration boot = instance.start();
            System.out.printf("%s up at %s in %d ms%n", id, instance.url(), boot.toMillis());
        }
    }

    private static boolean run(CrashDrillOptions o, List<CrashInstance> instances, Haproxy front, String jdbcUrl)
            throws Exception {
        Random plan = new Random(o.seed());
        List<CrashTurn> turns = new ArrayList<>();
        for (int t = 0; t < o.turns(); t++) {
            turns.add(new CrashTurn("t%04d".formatted(t), plan.nextDouble() < 0.6, plan.nextBoolean()));
        }
        AtomicInteger next = new AtomicInteger();
        CrashKiller killer = new CrashKiller(
                instances, o.kills(), o.turns(), () -> Math.min(next.get(), o.turns()), new Random(plan.nextLong()));
        CrashTargets targets = front != null ? CrashTargets.balanced(front.url()) : CrashTargets.direct(instances);
        String keyPrefix = "crash-" + o.seed() + "-";
        List<CrashTurnResult> results = Collections.synchronizedList(new ArrayList<>());
        TokenMinter minter = new TokenMinter(JwtSecret.of(SECRET));
        Instant began = Instant.now();
        Thread killing = Thread.ofPlatform().name("killer").start(killer);
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < o.clients(); c++) {
            String token = minter.mint(
                    TokenMinter.Claims.user("crash-user-" + c, "student"), Instant.now(), Duration.ofHours(2));
            CrashClient client = new CrashClient(targets, token, keyPrefix, killer, new Random(plan.nextLong()));
            clients.add(Thread.ofPlatform().name("client-" + c).start(() -> {
                try {
                    String session = null;
                    for (int sent = 0; ; sent++) {
                        int t = next.getAndIncrement();
                        if (t >= turns.size()) return;
                        killer.gate(t);
                        if (sent % TURNS_PER_SESSION == 0) session = client.startSession();
                        CrashTurnResult r = client.send(session, turns.get(t));
                        results.add(r);
                        if (r.failure() != null) System.out.println(r.turn().id() + " failed: " + r.failure());
                        if (results.size() % 50 == 0) {
                            System.out.printf(
                                    "%d turns answered, %d kills, %d s%n",
                                    results.size(),
                                    killer.kills().size(),
                                    Duration.between(began, Instant.now()).toSeconds());
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread t : clients) t.join();
        Duration took = Duration.between(began, Instant.now());
        killer.stop();
        killing.join(); // a restart under way finishes: the checks want every instance up to end the turns it took
        CrashInvariants.Findings findings = CrashInvariants.check(jdbcUrl, results);
        new CrashSummary(
                        o,
                        results,
                        killer.kills(),
                        CrashTakeovers.from(
                                instances.stream().map(CrashInstance::log).toList()),
                        findings,
                        took)
                .print();
        return findings.violations().isEmpty();
    }

    private static String config(String instanceId, String redisPrefix) {
        String yaml = """
                limits:
                  requestTimeout: 60s
                agents:
                  dirs: [agents]
                rateLimits:
                  perUser: { perMinute: 0, perHour: 0 }
                durableTurns:
                  enabled: true
                  instanceId: %s
                  lease: 3s
                  heartbeat: 1s
                """.formatted(instanceId);
        if (redisPrefix == null) return yaml;
        // Redis is shared with whatever else runs on this machine: every key of the run under its own prefix
        return yaml + """
                turns:
                  redisKeyPrefix: "%1$s"
                streams:
                  redisKeyPrefix: "%1$s"
                """.formatted(redisPrefix);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
