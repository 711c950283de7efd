package dev.baton.server.cli;

import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorMain;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "simulator",
        mixinStandardHelpOptions = true,
        description = "Run the LLM simulator (OpenAI Chat Completions wire) on its own, for tests and benchmarks.")
final class SimulatorCommand implements Callable<Integer> {

    @Option(names = "--port", defaultValue = "8089", description = "Port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--script", description = "YAML script (default: the bundled task-agent script).")
    Path script;

    @Override
    public Integer call() throws InterruptedException {
        LlmSimulator sim = SimulatorMain.run(port, Optional.ofNullable(script));
        Runtime.getRuntime().addShutdownHook(new Thread(sim::close));
        System.out.println("LLM simulator listening at " + sim.baseUrl());
        new CountDownLatch(1).await();
        return 0;
    }
}
