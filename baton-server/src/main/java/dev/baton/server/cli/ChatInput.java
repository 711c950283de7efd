package dev.baton.server.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the user types into {@code baton chat}: one line is one message; a line ending in {@code \} goes on on the
 * next; {@code """} on a line of its own starts and ends a block of several lines. A terminal cuts a line at 4,095
 * characters without saying so, so a line of exactly that length is reported as probably cut, with the ways round it
 * ({@code /edit}, {@code /file}).
 */
final class ChatInput {

    /** Linux's canonical-mode line limit: a longer pasted line loses its end, silently. */
    static final int TERMINAL_LINE_LIMIT = 4095;

    private final BufferedReader in;
    private final PrintStream out;
    private final boolean terminal;

    ChatInput(BufferedReader in, PrintStream out, boolean terminal) {
        this.in = in;
        this.out = out;
        this.terminal = terminal;
    }

    /** The next message or command, or null at the end of the input (Ctrl-D). */
    String next(String prompt) throws IOException {
        out.print(prompt);
        out.flush();
        String line = in.readLine();
        if (line == null) return null;
        if (line.strip().equals("\"\"\"")) return block();
        StringBuilder message = new StringBuilder();
        while (line != null && line.endsWith("\\")) {
            warnIfCut(line);
            message.append(line, 0, line.length() - 1).append('\n');
            out.print("...> ");
            out.flush();
            line = in.readLine();
        }
        if (line != null) {
            warnIfCut(line);
            message.append(line);
        }
        return message.toString();
    }

    private String block() throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line = in.readLine(); line != null && !line.strip().equals("\"\"\""); line = in.readLine()) {
            warnIfCut(line);
            lines.add(line);
        }
        return String.join("\n", lines);
    }

    private void warnIfCut(String line) {
        if (terminal && line.length() == TERMINAL_LINE_LIMIT) {
            out.println("  (that line is exactly " + TERMINAL_LINE_LIMIT + " characters, the terminal's limit: its end"
                    + " was probably cut. For long text use /edit, or /file PATH)");
        }
    }

    /** The contents of a file, to send as one message. */
    static String fromFile(String path) throws IOException {
        return Files.readString(Path.of(path.strip()), StandardCharsets.UTF_8).stripTrailing();
    }

    /**
     * Opens $VISUAL, $EDITOR or vi on an empty file and returns what was saved (blank when nothing was), to send as
     * one message: the way to write or paste a long text.
     */
    static String fromEditor() throws IOException, InterruptedException {
        Path file = Files.createTempFile("baton-message-", ".md");
        try {
            String editor = firstSet(System.getenv("VISUAL"), System.getenv("EDITOR"), "vi");
            List<String> command = new ArrayList<>(List.of(editor.strip().split("\\s+")));
            command.add(file.toString());
            Process p = new ProcessBuilder(command).inheritIO().start();
            if (p.waitFor() != 0) return "";
            return Files.readString(file, StandardCharsets.UTF_8).stripTrailing();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static String firstSet(String... values) {
        for (String v : values) if (v != null && !v.isBlank()) return v;
        return null;
    }
}
