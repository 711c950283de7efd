package dev.baton.notes.domain;

/**
 * What a caller asks for when taking a note; validated on construction (title 1-200 characters after trimming,
 * content 1-10,000).
 *
 * @param sessionId the conversation the note comes from; null when written by hand
 */
public record NewNote(String title, String content, String sessionId) {
    public NewNote {
        title = NoteRules.title(title);
        content = NoteRules.content(content);
    }
}
