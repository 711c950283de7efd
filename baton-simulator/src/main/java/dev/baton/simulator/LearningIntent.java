package dev.baton.simulator;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a learner said to the learning agent, read from plain phrasings in the order a careful reader would. */
sealed interface LearningIntent {

    /** A meta-request: start again ("learn something new", "let's try something else"). */
    record Restart() implements LearningIntent {}

    /** An affirmative to the question asked ("yes", "it is", "sounds great"). */
    record Confirm() implements LearningIntent {}

    /** A plain no. */
    record Reject() implements LearningIntent {}

    /** What they want to learn, fillers removed; a correction ("no, I meant physics") is one too. */
    record Learn(String topic, boolean correction) implements LearningIntent {}

    record Progress() implements LearningIntent {}

    /** A topic to treat with care (self-harm and the like). */
    record Sensitive(String topic) implements LearningIntent {}

    record Offensive() implements LearningIntent {}

    record Unknown() implements LearningIntent {}

    int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    Pattern OFFENSIVE =
            Pattern.compile("\\b(?:idiot|stupid|hate (?:you|them|people)|fuck\\w*|bitch\\w*|racist jokes?)\\b", FLAGS);
    Pattern SENSITIVE = Pattern.compile("\\b(self[- ]harm\\w*|suicid\\w*|eating disorders?|abuse)\\b", FLAGS);
    Pattern RESTART = Pattern.compile(
            "\\b(?:something (?:new|else|different)|other topics|start (?:over|again)|pick something|try something)\\b",
            FLAGS);
    Pattern CORRECTION = Pattern.compile(
            "^(?:no|nope|not (?:that|quite))?[,.!]?\\s*(?:i meant|i mean|actually,?|rather)\\s+(.+)$|^(?:no|nope),\\s+(.+)$|^(.+?)\\s+instead$",
            FLAGS);
    Pattern REJECT = Pattern.compile("^(?:no|nope|not really|no thanks|no thank you)$", FLAGS);
    Pattern CONFIRM = Pattern.compile(
            "^(?:yes|yeah|yep|yup|sure|ok|okay|it is|that's it|that is it|that's right|that is right|right|correct|"
                    + "that's correct|that is correct|exactly|absolutely|perfect|sounds (?:good|great|fine)|"
                    + "please do|go ahead|yes please|great)$",
            FLAGS);
    Pattern PROGRESS = Pattern.compile(
            "\\b(?:my progress|how am i doing|what am i (?:learning|studying)|where was i|my materials)\\b", FLAGS);
    List<Pattern> FILLERS = List.of(
            Pattern.compile("^(?:hi|hello|hey)[,!]?\\s+", FLAGS),
            Pattern.compile(
                    "^(?:i(?:'d| would) like to|i want to|i wanna|can i|could i|let me|let's|lets)\\s+(?:learn|study|know)"
                            + "(?:\\s+(?:about|more about))?\\s+",
                    FLAGS),
            Pattern.compile("^(?:teach me|tell me about|show me|help me (?:learn|with))\\s+(?:about\\s+)?", FLAGS),
            Pattern.compile("^(?:learn|study)\\s+(?:about\\s+)?", FLAGS),
            Pattern.compile("\\s*,?\\s*please$", FLAGS),
            Pattern.compile("^please\\s+", FLAGS));

    static LearningIntent parse(String message) {
        String text = message.strip().replaceAll("[.!?]+$", "").strip();
        if (text.isEmpty()) return new Unknown();
        if (OFFENSIVE.matcher(text).find()) return new Offensive();
        Matcher sensitive = SENSITIVE.matcher(text);
        if (sensitive.find()) return new Sensitive(sensitive.group(1).toLowerCase(Locale.ROOT));
        if (RESTART.matcher(text).find()) return new Restart();
        Matcher correction = CORRECTION.matcher(text);
        if (correction.find()) {
            String topic = correction.group(1) != null
                    ? correction.group(1)
                    : correction.group(2) != null ? correction.group(2) : correction.group(3);
            return new Learn(stripFillers(topic), true);
        }
        if (REJECT.matcher(text).matches()) return new Reject();
        if (CONFIRM.matcher(text).matches()) return new Confirm();
        if (PROGRESS.matcher(text).find()) return new Progress();
        String topic = stripFillers(text);
        return topic.isEmpty() ? new Unknown() : new Learn(topic, false);
    }

    private static String stripFillers(String text) {
        String topic = text.strip();
        for (int pass = 0; pass < 2; pass++) {
            for (Pattern filler : FILLERS)
                topic = filler.matcher(topic).replaceFirst("").strip();
        }
        return topic.replaceAll("^[\"'“”]+|[\"'“”]+$", "");
    }
}
