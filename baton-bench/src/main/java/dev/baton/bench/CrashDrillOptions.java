package dev.baton.bench;

import java.util.Locale;

/**
 * What {@link CrashDrill} runs: its command line.
 *
 * <pre>
 * [turns] [--clients C] [--kills K] [--instances N] [--seed S] [--db postgres|sqlite] [--haproxy]
 * </pre>
 *
 * @param turns turns requested in all (300)
 * @param clients concurrent clients (8)
 * @param kills instances killed with SIGKILL during the run (turns / 10)
 * @param instances {@code baton serve} processes (2; always 1 on SQLite)
 * @param seed the seed of every random choice: which turn is streamed, where it goes, when and what is killed
 * @param sqlite one instance on a SQLite file, killed and restarted, instead of several on PostgreSQL + Redis
 * @param haproxy the clients reach the instances through HAProxy instead of picking one themselves
 */
record CrashDrillOptions(int turns, int clients, int kills, int instances, long seed, boolean sqlite, boolean haproxy) {

    static CrashDrillOptions parse(String[] args) {
        Integer turns = null;
        int clients = 8;
        Integer kills = null;
        int instances = 2;
        long seed = System.nanoTime();
        boolean sqlite = false;
        boolean haproxy = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--clients" -> clients = Integer.parseInt(args[++i]);
                case "--kills" -> kills = Integer.parseInt(args[++i]);
                case "--instances" -> instances = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--db" -> {
                    String db = args[++i].toLowerCase(Locale.ROOT);
                    if (!db.equals("sqlite") && !db.equals("postgres")) {
                        throw new IllegalArgumentException("--db sqlite|postgres, not " + db);
                    }
                    sqlite = db.equals("sqlite");
                }
                case "--haproxy" -> haproxy = true;
                default -> {
                    if (a.startsWith("--") || turns != null)
                        throw new IllegalArgumentException("unknown argument " + a);
                    turns = Integer.parseInt(a);
                }
            }
        }
        int t = turns == null ? 300 : turns;
        if (sqlite && haproxy) throw new IllegalArgumentException("--haproxy needs several instances: not with sqlite");
        return new CrashDrillOptions(
                t, clients, kills == null ? Math.max(1, t / 10) : kills, sqlite ? 1 : instances, seed, sqlite, haproxy);
    }
}
