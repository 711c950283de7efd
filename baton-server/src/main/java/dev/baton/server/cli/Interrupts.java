package dev.baton.server.cli;

import java.io.PrintStream;
import sun.misc.Signal;

/**
 * Ctrl-C in {@code baton chat}: while an answer streams it stops that answer (the server keeps what was said so far),
 * not the client; a second Ctrl-C quits. At the prompt, the first one says how to quit.
 */
final class Interrupts {

    /** The shell's code for a process that ended on SIGINT. */
    static final int EXIT_CODE = 130;

    private final PrintStream out;
    private volatile Runnable stopAnswer;
    private volatile boolean armed;

    Interrupts(PrintStream out) {
        this.out = out;
    }

    /** Takes over SIGINT for the rest of the process; false where the platform does not allow it. */
    boolean install() {
        try {
            // sun.misc.Signal is the JDK's only way to handle Ctrl-C without ending the process (jdk.unsupported)
            Signal.handle(new Signal("INT"), signal -> interrupted());
            return true;
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** While an answer streams: what the first Ctrl-C does. */
    void answering(Runnable stop) {
        armed = false;
        stopAnswer = stop;
    }

    /** The answer ended. */
    void idle() {
        stopAnswer = null;
    }

    void interrupted() {
        Runnable stop = stopAnswer;
        if (armed) {
            out.println();
            out.flush();
            System.exit(EXIT_CODE);
        }
        armed = true;
        if (stop != null) {
            stopAnswer = null;
            out.println();
            out.println("  (stopping the answer; Ctrl-C again quits)");
            out.flush();
            stop.run();
        } else {
            out.println();
            out.print("(Ctrl-C again quits, as does Ctrl-D)\nyou> ");
            out.flush();
        }
    }
}
