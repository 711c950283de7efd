// A tool call as a collapsible card: its name, state and duration in the summary; arguments and result (or error),
// pretty-printed, inside. Everything is written as text.

import { h, copyButton } from "./dom.js";

/** How each stored tool-call state (docs/api.md, messages' toolCalls[].state) reads, and whether it failed. */
const STATES = {
  running: { label: "Running…", failed: false },
  succeeded: { label: "Done", failed: false },
  deduplicated: { label: "Done (repeated call, answered once)", failed: false },
  failed: { label: "Failed", failed: true },
  invalid_arguments: { label: "Invalid arguments", failed: true },
  denied: { label: "Not allowed", failed: true },
  timed_out: { label: "Timed out", failed: true },
  cancelled: { label: "Stopped", failed: false },
};

/**
 * A card for a call that has started; {@code finish} fills in how it ended.
 *
 * @param call {id, name, arguments}
 */
export function toolCard(call) {
  const status = h("span", { className: "tool-status" });
  const duration = h("span", { className: "tool-duration" });
  const body = h("div", { className: "tool-body" }, section("Arguments", call.arguments, "arguments"));
  // Approve / deny buttons for calls that wait for a person's approval go here (a later issue): the card shows the
  // arguments above them, and the answer goes on once the server hears the decision.
  const approval = h("div", { className: "tool-approval", hidden: true, "data-slot": "approval" });
  const card = h("details", { className: "tool-card" },
    h("summary", {},
      h("span", { className: "tool-icon", "aria-hidden": "true" }, "⚙"),
      h("span", { className: "tool-label" }, "Tool "),
      h("span", { className: "tool-name" }, call.name),
      status,
      duration),
    body,
    approval);
  card.dataset.toolCallId = call.id || "";
  setState(card, status, "running");

  return {
    element: card,
    /** @param result {ok, result?, error?, durationMs?, state?} (an SSE tool_result, or a stored call) */
    finish(result) {
      const state = result.state || (result.ok ? "succeeded" : "failed");
      setState(card, status, state);
      if (result.durationMs !== undefined && result.durationMs !== null) duration.textContent = ms(result.durationMs);
      if (result.error) {
        body.append(h("h4", {}, "Error"), h("p", { className: "tool-error" }, String(result.error)));
      }
      if (result.result !== undefined && result.result !== null) body.append(section("Result", result.result, "result"));
    },
  };
}

/** A stored call (GET …/messages toolCalls[]) as a finished card. */
export function storedToolCard(call) {
  const card = toolCard(call);
  card.finish(call);
  return card.element;
}

function setState(card, status, state) {
  const s = STATES[state] || { label: state, failed: true };
  card.dataset.state = state;
  card.classList.toggle("failed", s.failed);
  status.textContent = s.label;
}

function section(title, value, kind) {
  const text = pretty(value);
  const code = h("code", { className: "language-json" }, text);
  if (window.hljs) window.hljs.highlightElement(code);
  return h("div", { className: "tool-section" },
    h("div", { className: "tool-section-head" },
      h("h4", {}, title),
      copyButton("Copy " + kind, () => text)),
    h("pre", {}, code));
}

function pretty(value) {
  let v = value;
  if (typeof v === "string") {
    try { v = JSON.parse(v); } catch (e) { return v; }
  }
  return JSON.stringify(v, null, 2);
}

function ms(n) {
  return n >= 1000 ? (n / 1000).toFixed(1) + " s" : n + " ms";
}
