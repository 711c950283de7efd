// The pieces a conversation is drawn with: a user's message, an answer's frame, a rendered markdown block, the
// empty state of a new chat, and a failure with what to do about it.

import { h } from "./dom.js";
import { render } from "./markdown.js";
import { describe } from "./errors.js";
import { startersFor } from "./starters.js";

export function userMessage(text, status) {
  const blocked = status === "blocked";
  const article = h("article", { className: "message user" + (blocked ? " is-blocked" : ""), "aria-label": "You said" },
    h("div", { className: "bubble" }, blocked ? "Your message was blocked by a safety check." : text));
  // what may be edited or asked again (message-actions.js); a blocked message's text is not shown, so not kept
  if (!blocked) article.messageText = text;
  return article;
}

export function assistantMessage(agentName) {
  const head = h("div", { className: "message-head" }, h("span", { className: "who" }, agentName));
  const parts = h("div", { className: "parts" });
  const foot = h("div", { className: "message-foot" });
  const main = h("div", { className: "message-main" }, head, parts, foot);
  const element = h("article", { className: "message assistant", "aria-label": agentName + " answered" },
    h("div", { className: "avatar", "aria-hidden": "true" }, (agentName || "?").charAt(0).toUpperCase()),
    main);
  return {
    element, parts, foot, main,
    badge(kind, label) {
      if (head.querySelector(".badge." + kind)) return;
      head.append(h("span", { className: "badge " + kind }, label));
    },
  };
}

export function markdownBlock(text, final) {
  const el = h("div", { className: "markdown" });
  el.append(render(text, final));
  return el;
}

/** @param start (text) => sends a starter prompt; the agent's starters are shown when given */
export function emptyState(agent, start) {
  if (!agent) return h("div", { className: "empty-state" }, h("p", {}, "No agent is available to you."));
  const starters = start ? startersFor(agent.id) : [];
  return h("div", { className: "empty-state" },
    h("div", { className: "empty-avatar", "aria-hidden": "true" }, (agent.name || agent.id).charAt(0).toUpperCase()),
    h("h2", {}, agent.name || agent.id),
    agent.description ? h("p", {}, agent.description) : null,
    h("p", { className: "hint" }, "Write a message below to start" + (starters.length ? ", or pick one:" : ".")),
    starters.length ? h("div", { className: "starters", role: "group", "aria-label": "Starter prompts" },
      starters.map((text) => h("button", { type: "button", className: "starter", on: { click: () => start(text) } },
        text))) : null);
}

/** A readable failure with what to do: retry (after the time the server named), start a new chat, or nothing. */
export function errorNotice(e, retry, hooks) {
  const d = describe(e);
  const notice = h("div", { className: "notice error", role: "group", "aria-label": d.title },
    h("p", { className: "notice-title" }, d.title),
    h("p", {}, d.detail));
  if (d.action === "retry") {
    const button = h("button", { type: "button", on: { click: () => { notice.remove(); retry(); } } }, "Try again");
    notice.append(button);
    if (d.retryAt) countDown(button, d.retryAt);
  } else if (d.action === "new-chat") {
    notice.append(h("button", { type: "button", on: { click: () => hooks.newChat() } }, "Start a new chat"));
  }
  if (d.requestId) notice.append(h("p", { className: "meta" }, "Request " + d.requestId));
  return notice;
}

function countDown(button, retryAt) {
  let first = true;
  const tick = () => {
    const left = Math.ceil((retryAt.getTime() - Date.now()) / 1000);
    // the first tick runs before the button is on the page; later, a removed notice stops its timer
    if (left <= 0 || (!first && !button.isConnected)) {
      window.clearInterval(timer);
      button.disabled = false;
      button.textContent = "Try again";
      return;
    }
    first = false;
    button.disabled = true;
    button.textContent = "Try again in " + left + " s";
  };
  const timer = window.setInterval(tick, 1000);
  tick();
}

export function endedNote(session) {
  const reasons = {
    user: "You ended this conversation.",
    max_messages: "This conversation reached its message limit.",
    max_session_duration: "This conversation reached its time limit.",
    inactivity: "This conversation ended after a long pause.",
  };
  return reasons[session.endReason] || "This conversation has ended.";
}
