package dev.baton.image;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Starts the image's entry point as a container would. {@link Podman} is a container runtime; {@link Isolated}, for a
 * machine without one, runs the unpacked image's file system in namespaces of its own: its root as {@code /}, a fresh
 * {@code /proc}, its user, its working directory, its environment — the image's own Java, C libraries and files, with
 * nothing of the machine's. Both share the machine's network, so the server's port and the test's simulator are on
 * 127.0.0.1 for both sides.
 */
sealed interface ContainerRunner {

    /** The memory limit the container runs under, as podman writes it; null: none (the machine's memory). */
    String memoryLimit();

    /** Starts the image with {@code env} added to its own environment. */
    RunningContainer start(Map<String, String> env) throws IOException, InterruptedException;

    /** What runs the image here: {@code -Dimage.runner=podman|isolated}, else podman when it is installed. */
    static ContainerRunner choose(OciImage image, Path tarball, String imageName) {
        String wanted = System.getProperty("image.runner", "auto");
        boolean podman = wanted.equals("podman") || (wanted.equals("auto") && Commands.available("podman"));
        return podman ? new Podman(tarball, imageName) : new Isolated(image);
    }

    /** Podman (Debian's package), as root, with the image loaded from the build's tarball. */
    record Podman(Path tarball, String imageName) implements ContainerRunner {
        @Override
        public String memoryLimit() {
            return "1g";
        }

        @Override
        public RunningContainer start(Map<String, String> env) throws IOException, InterruptedException {
            Commands.run(List.of("podman", "load", "-i", tarball.toString()));
            String name = "baton-image-it-" + UUID.randomUUID();
            List<String> command = new ArrayList<>(List.of("podman"));
            // crun refuses a machine whose cgroups are half v1, half v2 (this one); runc runs there and everywhere
            if (Commands.available("runc")) command.addAll(List.of("--runtime", "runc"));
            command.addAll(List.of("run", "--rm", "--name", name, "--network", "host", "--memory", memoryLimit()));
            // podman's default limits are above what a container may be given inside some sandboxes; the server
            // needs far fewer
            command.addAll(List.of("--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"));
            env.forEach((k, v) -> command.addAll(List.of("-e", k + "=" + v)));
            command.add(localName());
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            return new RunningContainer(process, () -> podmanPid(name), () -> {
                try {
                    Commands.run(List.of("podman", "rm", "-f", "-t", "20", name));
                } catch (AssertionError | IOException e) {
                    // already gone: the container ended by itself
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        /** What podman calls an image loaded without a registry's name: {@code localhost/NAME}. */
        String localName() {
            return imageName.contains("/") ? imageName : "localhost/" + imageName;
        }

        private static long podmanPid(String name) throws IOException, InterruptedException {
            return Long.parseLong(Commands.run(List.of("podman", "inspect", "-f", "{{.State.Pid}}", name))
                    .trim());
        }
    }

    /**
     * util-linux's {@code unshare}: new mount and PID namespaces, the image's root, {@code /proc} mounted afresh,
     * then the image's user, working directory and entry point. Needs root (to change root and user).
     */
    record Isolated(OciImage image) implements ContainerRunner {
        @Override
        public String memoryLimit() {
            return null;
        }

        @Override
        public RunningContainer start(Map<String, String> env) throws IOException {
            Path root = image.root();
            Files.createDirectories(root.resolve("proc"));
            String[] user = image.config().path("User").asText().split(":");
            List<String> command = new ArrayList<>(List.of(
                    "unshare",
                    "--mount",
                    "--pid",
                    "--fork",
                    "--kill-child=SIGTERM",
                    "--root=" + root,
                    "--wd=" + image.config().path("WorkingDir").asText("/"),
                    "--mount-proc=/proc",
                    "--setuid",
                    user[0],
                    "--setgid",
                    user.length > 1 ? user[1] : user[0],
                    "--"));
            command.addAll(image.entrypoint());
            command.addAll(image.cmd());
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            // the image's environment alone (its PATH finds its own java), as a runtime gives it
            pb.environment().clear();
            image.config().path("Env").forEach(e -> {
                String[] kv = e.asText().split("=", 2);
                pb.environment().put(kv[0], kv[1]);
            });
            pb.environment().putAll(env);
            Process process = pb.start();
            return new RunningContainer(process, () -> javaPid(process), () -> {});
        }

        /** The image's java: unshare forks it, and it runs as PID 1 of its namespace. */
        private static long javaPid(Process unshare) throws IOException {
            for (ProcessHandle h : unshare.descendants().toList()) {
                Path comm = Path.of("/proc", Long.toString(h.pid()), "comm");
                if (Files.exists(comm) && Files.readString(comm).trim().equals("java")) return h.pid();
            }
            throw new AssertionError("no java process under " + unshare.pid());
        }
    }
}
