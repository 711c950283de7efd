package dev.baton.runtime.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.turn.Cancellation;
import dev.baton.runtime.agent.AgentRegistry;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Words the question that asks the user to confirm held calls: each call as its tool summarised it when it was held
 * (the summary kept with the pending call), else as the tool summarises it now ({@link Tool#summary}, read as the
 * caller: a call held before summaries were kept), or as its tool's name and arguments when the tool has no summary.
 * One call reads "Delete the task 'buy wax'? Reply yes or no."; several are listed, and one yes or no decides all.
 */
final class ConfirmationQuestions {
    private static final Logger log = LoggerFactory.getLogger(ConfirmationQuestions.class);
    /** Arguments shown in a fallback line are cut here: the prompt is a sentence, not a payload. */
    static final int MAX_ARGUMENTS_SHOWN = 300;

    private static final ObjectMapper JSON = new ObjectMapper();

    static final String REPLY_HINT = "Reply yes or no.";

    /**
     * A held call: the tool's name, the arguments it would run with, and the summary its tool gave when it was held
     * (null when none was kept).
     */
    record Call(String tool, JsonNode arguments, String summary) {
        Call(String tool, JsonNode arguments) {
            this(tool, arguments, null);
        }
    }

    private final ToolCatalog tools;
    private final AgentRegistry agents;
    private final Clock clock;

    ConfirmationQuestions(ToolCatalog tools, AgentRegistry agents, Clock clock) {
        this.tools = tools;
        this.agents = agents;
        this.clock = clock;
    }

    /** The question for {@code calls}, held in the caller's {@code session}. */
    String ask(Principal caller, Session session, List<Call> calls) {
        Optional<AgentDefinition> agent = agents.find(session.agentId());
        List<String> lines =
                calls.stream().map(c -> line(caller, session, agent, c)).toList();
        if (lines.size() == 1) return lines.getFirst() + "? " + REPLY_HINT;
        StringBuilder question = new StringBuilder("Before I go on, please confirm all of these:");
        lines.forEach(line -> question.append("\n- ").append(line));
        return question.append("\nReply yes to do all of them, or no.").toString();
    }

    /** The tool's own summary when it has one (and the agent may use it), else its name and arguments. */
    private String line(Principal caller, Session session, Optional<AgentDefinition> agent, Call call) {
        if (call.summary() != null && !call.summary().isBlank()) return call.summary();
        return agent.flatMap(a -> tools.find(a, call.tool()).flatMap(tool -> summary(tool, call, caller, session, a)))
                .orElseGet(() -> fallback(call));
    }

    private Optional<String> summary(Tool tool, Call call, Principal caller, Session session, AgentDefinition agent) {
        ToolContext context = new ToolContext(
                caller,
                session.id(),
                clock.instant().plus(agent.limits().toolTimeout()),
                new Cancellation(),
                agent.id());
        try {
            return tool.summary(call.arguments(), context).map(String::strip).filter(s -> !s.isEmpty());
        } catch (RuntimeException e) {
            // a summary is a nicety: the name and arguments still say what would run
            log.warn("tool {} could not summarise a held call: {}", call.tool(), e.toString());
            return Optional.empty();
        }
    }

    /** A held call's stored arguments as JSON (as text when they do not parse: the fallback line still shows them). */
    static JsonNode parse(String arguments) {
        try {
            return JSON.readTree(arguments);
        } catch (IOException e) {
            return TextNode.valueOf(arguments);
        }
    }

    static String fallback(Call call) {
        String arguments = call.arguments() == null ? "{}" : call.arguments().toString();
        if (arguments.length() > MAX_ARGUMENTS_SHOWN) arguments = arguments.substring(0, MAX_ARGUMENTS_SHOWN - 1) + "…";
        return "Run " + call.tool() + " with " + arguments;
    }
}
