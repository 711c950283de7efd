package dev.baton.image;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short command to its end and hands back what it printed; a failure names the command and its output. */
final class Commands {
    private Commands() {}

    static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        // read before waiting: a command that prints more than a pipe holds would otherwise never end
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("did not end in 5 minutes: " + command);
        }
        if (p.exitValue() != 0) throw new AssertionError(command + " exited " + p.exitValue() + ":\n" + out);
        return out;
    }

    /** Whether {@code program} is on the PATH. */
    static boolean available(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, program))) return true;
        }
        return false;
    }
}
