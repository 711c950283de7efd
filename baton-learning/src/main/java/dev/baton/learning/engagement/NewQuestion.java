package dev.baton.learning.engagement;

import dev.baton.learning.Texts;

/** What a learner asks: a title of 1-200 and a body of 1-5,000 characters, both trimmed. */
public record NewQuestion(String title, String body) {
    public static final int MAX_TITLE = 200;
    public static final int MAX_BODY = 5_000;

    public NewQuestion {
        title = Texts.required(title, "title", MAX_TITLE);
        body = Texts.required(body, "body", MAX_BODY);
    }
}
