package dev.baton.bench;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;

/**
 * Bytes allocated and CPU spent per tool turn by this whole process — the server, the simulator it calls and the
 * client — over N sequential JSON tool turns after 300 unmeasured ones. Allocation repeats closely from run to run where
 * CPU time on a shared machine does not, so it shows what a change to the turn's path costs or saves even when the CPU
 * figures are noise; the simulator and the client do the same work in both trees compared, so a difference is the
 * server's.
 *
 * <pre>
 * baton-bench/run.sh alloc [turns]      # default 2000
 * </pre>
 */
public final class TurnAllocation {
    private TurnAllocation() {}

    public static void main(String[] args) {
        int turns = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        var threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (BenchServer server = BenchServer.start()) {
            String session = server.startSession();
            for (int i = 0; i < 300; i++) turn(server, session);
            long allocated = threads.getTotalThreadAllocatedBytes();
            long cpu = os.getProcessCpuTime();
            long wall = System.nanoTime();
            for (int i = 0; i < turns; i++) turn(server, session);
            allocated = threads.getTotalThreadAllocatedBytes() - allocated;
            cpu = os.getProcessCpuTime() - cpu;
            wall = System.nanoTime() - wall;
            System.out.printf(
                    "%d tool turns: %.1f KB allocated, %.2f ms CPU, %.2f ms wall per turn (server, simulator and client)%n",
                    turns, allocated / 1024.0 / turns, cpu / 1e6 / turns, wall / 1e6 / turns);
        }
    }

    private static void turn(BenchServer server, String session) {
        server.send(session, BenchScripts.TOOL_PROMPT);
        server.resetHistory(session, 0);
    }
}
