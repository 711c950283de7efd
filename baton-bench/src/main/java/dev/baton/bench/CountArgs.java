package dev.baton.bench;

import java.util.List;

/** The whole numbers a counting command takes after its flags; anything else ends the command with one clear line. */
final class CountArgs {
    private CountArgs() {}

    static int parse(String command, String usage, String arg) {
        try {
            int n = Integer.parseInt(arg);
            if (n >= 0) return n;
        } catch (NumberFormatException e) {
            // said below
        }
        System.err.println(command + ": '" + arg + "' is not a count; usage: " + command + " " + usage);
        System.exit(2);
        throw new AssertionError("unreachable");
    }

    static int first(String command, String usage, List<String> args, int otherwise) {
        return args.isEmpty() ? otherwise : parse(command, usage, args.getFirst());
    }
}
