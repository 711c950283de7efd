package dev.baton.image;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A started container: its output line by line, the host's PID of its main process, and how to stop it. */
final class RunningContainer implements AutoCloseable {
    interface PidLookup {
        long pid() throws IOException, InterruptedException;
    }

    private final Process process;
    private final PidLookup pid;
    private final Runnable stop;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();

    RunningContainer(Process process, PidLookup pid, Runnable stop) {
        this.process = process;
        this.pid = pid;
        this.stop = stop;
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) lines.add(line);
            } catch (IOException ignored) {
                // the process ended
            }
        });
    }

    /** Waits for a line matching {@code regex} and returns its first group; fails with the output so far. */
    String awaitLine(String regex, Duration timeout) throws InterruptedException {
        Pattern p = Pattern.compile(regex);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError("no line matching " + regex + " within " + timeout + " (alive: "
                        + process.isAlive() + "); output:\n" + String.join("\n", seen));
            }
            seen.add(line);
            Matcher m = p.matcher(line);
            if (m.find()) return m.groupCount() > 0 ? m.group(1) : line;
        }
    }

    long pid() throws IOException, InterruptedException {
        return pid.pid();
    }

    /**
     * Stops the container and waits for its processes to end. The processes under the one started are stopped first,
     * each with SIGTERM and then SIGKILL after 30 s: under {@code unshare} the image's java is a child that outlives
     * a stopped {@code unshare} (the parent-death signal {@code --kill-child} sets is cleared when the child changes
     * its user), and was left running, its parent then PID 1.
     */
    @Override
    public void close() throws InterruptedException {
        List<ProcessHandle> children = process.descendants().toList();
        stop.run();
        for (ProcessHandle child : children) child.destroy();
        for (ProcessHandle child : children) awaitOrKill(child);
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly();
        }
        process.waitFor(30, TimeUnit.SECONDS);
    }

    private static void awaitOrKill(ProcessHandle child) throws InterruptedException {
        try {
            child.onExit().get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            child.destroyForcibly();
        } catch (ExecutionException e) {
            throw new AssertionError("waiting for process " + child.pid() + " to end", e);
        }
    }
}
