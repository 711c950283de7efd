// Starter prompts on the empty state of a new chat. The agent catalogue (GET /v1/agents) has no field for them, so
// the web app keeps a short list per built-in agent; an agent not listed here shows none.

const STARTERS = {
  tasks: ["What is on my list?", "Add a task to call the dentist tomorrow", "What is due this week?"],
  study: ["Help me get started on my next assignment", "What did we cover in my last study session?",
    "Make a note of today's key points"],
  learning: ["I want to learn Python", "How am I doing?", "What should I learn next?"],
  "learning-platform": ["Which courses can I take?", "Show my enrolments and grades", "Book a lab for next week"],
};

/** The starter prompts of {@code agentId}: an empty list for an agent without any. */
export function startersFor(agentId) {
  return STARTERS[agentId] || [];
}
