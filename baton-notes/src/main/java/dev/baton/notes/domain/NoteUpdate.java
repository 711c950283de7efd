package dev.baton.notes.domain;

/**
 * Changes to a note; a null field stays as it is. Validated on construction.
 */
public record NoteUpdate(String title, String content) {
    public NoteUpdate {
        title = title == null ? null : NoteRules.title(title);
        content = content == null ? null : NoteRules.content(content);
    }

    public boolean isEmpty() {
        return title == null && content == null;
    }
}
