package dev.baton.notes.domain;

/** What a note's fields may hold: title 1-200 characters after trimming, content 1-10,000. */
final class NoteRules {
    static final int MAX_TITLE = 200;
    static final int MAX_CONTENT = 10_000;

    private NoteRules() {}

    static String title(String title) {
        String t = title == null ? "" : title.strip();
        if (t.isEmpty() || t.length() > MAX_TITLE)
            throw NoteException.invalidArgument("title must be 1-" + MAX_TITLE + " characters");
        return t;
    }

    static String content(String content) {
        String c = content == null ? "" : content.strip();
        if (c.isEmpty() || c.length() > MAX_CONTENT)
            throw NoteException.invalidArgument("content must be 1-" + MAX_CONTENT + " characters");
        return c;
    }
}
