package dev.baton.bench;

import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.util.concurrent.CountDownLatch;

/**
 * The LLM simulator in a process of its own, with the scripts of the stream scenarios (built in code: a YAML script
 * may not hold a 15 MB answer).
 *
 * <pre>
 * BenchSimulator port huge [kilobytes]       # "talk a lot" → 15,000 KB of text (or as given), 1 KB a delta;
 *                                            # anything else → short
 * BenchSimulator port paced words perSecond  # every answer: that many words, one a delta, at that pace
 * </pre>
 */
public final class BenchSimulator {
    /** What the stalled clients of {@link StalledStreams} ask. */
    static final String HUGE_PROMPT = "talk a lot";

    private BenchSimulator() {}

    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]);
        SimulatorScript script = switch (args[1]) {
            case "huge" ->
                SimulatorScript.builder()
                        // 15 MB in 15,000 words of 1 KB, one a delta: splitting it costs the simulator little
                        .whenUserSays(
                                HUGE_PROMPT,
                                Reply.text(("x".repeat(999) + " ")
                                        .repeat(args.length > 2 ? Integer.parseInt(args[2]) : 15_000)))
                        .fallback(BenchScripts.TEXT_ANSWER)
                        .build();
            case "paced" ->
                SimulatorScript.builder()
                        .tokensPerSecond(Double.parseDouble(args[3]))
                        .fallback("streamed slowly "
                                .repeat(Integer.parseInt(args[2]) / 2)
                                .trim())
                        .build();
            default -> throw new IllegalArgumentException("unknown script " + args[1]);
        };
        // the stream scenarios start up to 100 model calls a second on a loaded machine: a backlog of 128 overflowed
        // (connect timeouts, then the breaker opened) while the simulator was busy; Linux caps it at somaxconn
        LlmSimulator simulator = LlmSimulator.start(script, port, 4096);
        simulator.keepRequests(0);
        Runtime.getRuntime().addShutdownHook(new Thread(simulator::close));
        System.out.println("simulator at " + simulator.baseUrl());
        new CountDownLatch(1).await();
    }
}
