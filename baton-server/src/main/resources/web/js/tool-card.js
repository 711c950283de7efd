// A tool call as a collapsible card: its name, state and duration in the summary; arguments and result (or error),
// pretty-printed, inside. A call held for approval reads as what it would do (its tool's summary), with the raw
// arguments one click away. Everything is written as text.

import { h, copyButton, announce } from "./dom.js";
import { describe, when } from "./errors.js";

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
  awaiting_approval: { label: "Waits for your approval", failed: false },
  approving: { label: "Approved", failed: false },
};

/** Why a held call did not run, from its error's code (docs/api.md, "Approving tool calls", "Audit"). */
const NOT_RUN = {
  approval_denied: "Denied by you",
  approval_expired: "Not run: nobody decided in time",
  approval_superseded: "Not run: a new message was sent",
};

/** A refusal of a decision that no second try can change: the buttons stay disabled. */
const FINAL = new Set(["approval_expired", "approval_already_decided", "approval_superseded",
  "no_pending_approval", "not_found", "session_completed"]);

let ids = 0;

/**
 * A card for a call that has started; {@code finish} fills in how it ended.
 *
 * @param call {id, name, arguments}
 */
export function toolCard(call) {
  const status = h("span", { className: "tool-status" });
  const duration = h("span", { className: "tool-duration" });
  const args = section("Arguments", call.arguments, "arguments");
  const body = h("div", { className: "tool-body" }, args);
  // Approve / deny buttons for a call that waits for a person's approval (awaitApproval): the card shows the
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
      const notRun = !result.ok && result.error ? NOT_RUN[String(result.error).split(":")[0]] : null;
      if (notRun) status.textContent = notRun;
      if (result.durationMs !== undefined && result.durationMs !== null) duration.textContent = ms(result.durationMs);
      if (result.error) {
        body.append(h("h4", {}, "Error"), h("p", { className: "tool-error" }, String(result.error)));
      }
      if (result.result !== undefined && result.result !== null) body.append(section("Result", result.result, "result"));
    },
    /** The call runs again (a decided call, as the resumed turn reports it). */
    running() {
      setState(card, status, "running");
    },
    /**
     * Shows why the call waits, until when, and Approve / Deny buttons (with an optional comment).
     *
     * @param held {callId, name, summary, reason, expiresAt} (an SSE approval_required, or a session's
     *     pendingApprovals[]); with a summary, the card says it and folds the raw arguments into a closed details
     * @param decide (decision, comment) => Promise: resolves once the server took the decision ({@code null} when the
     *     turn went on, the 202 JSON when other calls still wait), rejects with its refusal
     */
    awaitApproval(held, decide) {
      setState(card, status, "awaiting_approval");
      card.open = true;
      // what the call would do, in the tool's words; the arguments (moved here, not copied) stay one click away
      const said = typeof held.summary === "string" && held.summary.trim() ? held.summary : null;
      const id = "approval-comment-" + ++ids;
      const expires = held.expiresAt ? new Date(held.expiresAt) : null;
      const message = h("p", { className: "approval-message", role: "status" });
      const comment = h("input", { type: "text", id, className: "approval-comment", maxLength: 2000,
        placeholder: "e.g. keep that one" });
      const what = call.name + (said ? " (" + said + ")" : "");
      const approve = h("button", { type: "button", className: "approve-button",
        "aria-label": "Approve " + what + ": let it run", on: { click: () => send("approve") } }, "Approve");
      const deny = h("button", { type: "button", className: "deny-button",
        "aria-label": "Deny " + what + ": do not run it", on: { click: () => send("deny") } }, "Deny");
      const actions = h("div", { className: "approval-actions" }, approve, deny);
      approval.replaceChildren(...[
        said ? h("p", { className: "approval-summary" }, said) : null,
        said ? h("details", { className: "approval-arguments" }, h("summary", {}, "Arguments"), args) : null,
        h("p", { className: "approval-reason" }, held.reason || call.name + " waits for your approval."),
        expires ? h("p", { className: "approval-expiry" }, "If nobody decides, it expires ",
          h("time", { dateTime: held.expiresAt, title: expires.toLocaleString() }, when(expires)), ".") : null,
        h("div", { className: "approval-comment-row" },
          h("label", { for: id }, "Comment (optional, the assistant reads it with a denial)"), comment),
        actions,
        message].filter(Boolean));
      approval.setAttribute("role", "group");
      approval.setAttribute("aria-label", "Approve or deny " + call.name);
      approval.hidden = false;

      async function send(decision) {
        approve.disabled = true;
        deny.disabled = true;
        comment.disabled = true;
        message.classList.remove("tool-error");
        message.textContent = decision === "approve" ? "Approving…" : "Denying…";
        try {
          const out = await decide(decision, comment.value.trim());
          const others = out && out.pendingApprovals && out.pendingApprovals.length;
          actions.remove();
          message.textContent = (decision === "approve" ? "You approved this call." : "You denied this call.")
            + (others ? " The answer goes on once the other waiting calls are decided." : "");
          // the turn that went on has already said how the call ended; only a call still waiting on others is marked
          if (card.dataset.state === "awaiting_approval") {
            setState(card, status, decision === "approve" ? "approving" : "denied");
            if (decision === "deny") status.textContent = NOT_RUN.approval_denied;
          }
        } catch (e) {
          const d = describe(e);
          message.classList.add("tool-error");
          message.textContent = d.title + ". " + d.detail;
          announce(d.title + ". " + d.detail);
          if (FINAL.has(e.code)) {
            actions.remove();
            comment.disabled = true;
            status.textContent = "Not waiting any more";
          } else {
            approve.disabled = false;
            deny.disabled = false;
            comment.disabled = false;
          }
        }
      }
    },
    /** A new message was sent instead: the server denied the waiting call. */
    superseded() {
      if (card.dataset.state !== "awaiting_approval") return;
      for (const el of Array.from(approval.querySelectorAll(".approval-actions, .approval-comment-row"))) el.remove();
      const message = approval.querySelector(".approval-message");
      if (message) message.textContent = "Not run: you sent a new message instead.";
      setState(card, status, "denied");
      status.textContent = NOT_RUN.approval_superseded;
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
