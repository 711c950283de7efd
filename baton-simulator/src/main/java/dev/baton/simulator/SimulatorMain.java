package dev.baton.simulator;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the simulator on its own: {@code --port N} (default 8089) and {@code --script path.yaml} (default: the
 * bundled {@link TaskAgentScript}). Prints the base URL and serves until the process is stopped.
 */
public final class SimulatorMain {

    public static final int DEFAULT_PORT = 8089;

    private SimulatorMain() {}

    public static void main(String[] args) throws InterruptedException {
        int port = DEFAULT_PORT;
        Optional<Path> script = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(value(args, ++i, "--port"));
                case "--script" -> script = Optional.of(Path.of(value(args, ++i, "--script")));
                case "--help", "-h" -> {
                    System.out.println("usage: SimulatorMain [--port N] [--script path.yaml]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (try --help)");
            }
        }
        var simulator = run(port, script);
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            simulator.close();
                            stopped.countDown();
                        },
                        "llm-simulator-shutdown"));
        stopped.await();
    }

    /**
     * Starts a simulator with the YAML script at {@code script}, or the task agent script, and prints where it
     * listens. The caller owns (and closes) the returned simulator.
     */
    public static LlmSimulator run(int port, Optional<Path> script) {
        var loaded = script.map(SimulatorScript::fromYaml).orElseGet(TaskAgentScript::create);
        var simulator = LlmSimulator.start(loaded, port);
        System.out.println("LLM simulator (OpenAI Chat Completions) listening at " + simulator.baseUrl() + " — script: "
                + script.map(Path::toString).orElse("built-in task agent"));
        return simulator;
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }
}
