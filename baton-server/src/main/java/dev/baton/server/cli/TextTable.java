package dev.baton.server.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Rows printed as aligned columns under a header, for the operator commands. */
final class TextTable {
    private final List<String[]> rows = new ArrayList<>();

    TextTable(String... header) {
        rows.add(header);
    }

    TextTable row(Object... cells) {
        String[] text = new String[cells.length];
        for (int i = 0; i < cells.length; i++) text[i] = cells[i] == null ? "-" : String.valueOf(cells[i]);
        rows.add(text);
        return this;
    }

    boolean isEmpty() {
        return rows.size() == 1;
    }

    /** The table, or {@code none} when it has no rows. */
    void print(PrintStream out, String none) {
        if (isEmpty()) {
            out.println(none);
            return;
        }
        int columns = rows.getFirst().length;
        int[] widths = new int[columns];
        for (String[] row : rows) for (int i = 0; i < columns; i++) widths[i] = Math.max(widths[i], row[i].length());
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(row[i]);
                if (i < columns - 1) line.append(" ".repeat(widths[i] - row[i].length() + 2));
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
