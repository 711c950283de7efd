// One answer as it streams in: chunks re-render its markdown at most once a frame, tool calls become cards, and it
// ends done, stopped (a cancel: shown as stopped, not as an error), blocked or failed. The live region hears the
// finished answer once. A turn that waits for the user's approval of a tool call shows Approve / Deny on that call's
// card and goes on in the same view once decided (resume).

import { h, announce, copyButton } from "./dom.js";
import { ApiError } from "./api.js";
import { render, plainText } from "./markdown.js";
import { toolCard } from "./tool-card.js";
import { connectPrompt } from "./accounts.js";
import { describe } from "./errors.js";
import { assistantMessage, errorNotice } from "./messages.js";

const ANNOUNCE_LIMIT = 600;

export class Turn {
  constructor(chat, agentName, text, sent) {
    this.chat = chat;
    this.sent = sent;
    this.agentName = agentName;
    this.text = text;
    this.controller = new AbortController();
    this.stopping = false;
    this.ended = false;
    this.cards = new Map();
    this.held = new Map(); // callId → card of a call that waits for approval
    this.answer = ""; // all text of the answer, for copying and announcing
    this.block = null; // the markdown block text goes into; a tool call starts a new one below it
    this.view = assistantMessage(agentName);
    this.typing = h("div", { className: "typing", "aria-hidden": "true" }, h("span"), h("span"), h("span"));
    this.view.parts.append(this.typing);
    chat.log.append(this.view.element);
    this.frame = null;
  }

  on(type, d) {
    switch (type) {
      case "chunk": this.chunk(d.content || ""); break;
      case "thinking": this.thinking(d.content || ""); break;
      case "tool_call": this.toolCall(d); break;
      case "tool_result": this.toolResult(d); break;
      case "approval_required": this.approvalRequired(d); break;
      case "connect_required": this.connectRequired(d); break;
      case "blocked": this.blocked(d); break;
      case "done": this.done(d); break;
      case "error":
        if (d.code === "cancelled") this.stopped();
        else this.failed(d);
        break;
      default: break; // turn.started, and events a newer server may add
    }
  }

  chunk(content) {
    this.typing.remove();
    if (!this.block) {
      this.block = { text: "", element: h("div", { className: "markdown" }) };
      this.view.parts.append(this.block.element);
      if (this.answer) this.answer += "\n\n"; // text after a tool call is a paragraph of its own when copied
    }
    this.block.text += content;
    this.answer += content;
    this.renderSoon();
  }

  thinking(content) {
    if (!this.reasoning) {
      this.reasoning = h("pre", { className: "reasoning-text" });
      this.view.parts.append(h("details", { className: "reasoning" }, h("summary", {}, "Reasoning"), this.reasoning));
    }
    this.reasoning.textContent += content;
  }

  toolCall(d) {
    this.typing.remove();
    this.flush(true);
    this.block = null;
    const known = this.cards.get(d.id);
    if (known) { // a decided call, run now that the turn goes on
      known.running();
      this.view.parts.append(this.typing);
      return;
    }
    const card = toolCard(d);
    this.cards.set(d.id, card);
    this.view.parts.append(card.element, this.typing);
    this.chat.scrollToEnd(false);
  }

  toolResult(d) {
    const card = this.cards.get(d.id);
    if (card) card.finish(d);
  }

  /** A tool needs the user's own account on its server: a Connect button below the call. */
  connectRequired(d) {
    this.typing.remove();
    this.flush(true);
    this.block = null;
    this.view.parts.append(connectPrompt(d), this.typing);
  }

  /** A call that has not run: it waits for the user's decision (approval_required, or a pending one on reload). */
  approvalRequired(d) {
    this.typing.remove();
    this.flush(true);
    this.block = null;
    let card = this.cards.get(d.toolCallId);
    if (!card) {
      card = toolCard({ id: d.toolCallId, name: d.name, arguments: d.arguments });
      this.cards.set(d.toolCallId, card);
      this.view.parts.append(card.element);
    }
    this.held.set(d.callId, card);
    card.awaitApproval(d, (decision, comment) => this.chat.decide(this, d, decision, comment));
  }

  /** The turn goes on after a decision: its events come into this view. */
  resume() {
    this.ended = false;
    this.stopping = false;
    this.controller = new AbortController();
    this.view.foot.replaceChildren();
    this.block = null;
    this.view.parts.append(this.typing);
  }

  /** The decision was refused, or others still wait (a 202): the turn stays paused. */
  waitAgain() {
    this.ended = true;
    this.typing.remove();
    this.waiting();
  }

  /** A new message replaces the paused turn: the server denies what still waits. */
  supersede() {
    for (const card of this.held.values()) card.superseded();
    this.view.foot.replaceChildren();
  }

  waiting() {
    this.chat.paused = this;
    this.view.foot.replaceChildren(h("span", { className: "meta" }, "Waiting for your approval"));
  }

  blocked(d) {
    this.typing.remove();
    for (const el of Array.from(this.view.parts.querySelectorAll(".markdown"))) el.remove();
    this.answer = d.response || "";
    this.block = { text: this.answer, element: h("div", { className: "markdown" }) };
    this.view.parts.append(this.block.element);
    this.view.badge("blocked", "Blocked by a safety check");
    this.flush(true);
  }

  done(d) {
    this.ended = true;
    this.typing.remove();
    this.flush(true);
    if (d.state === "awaiting_approval") {
      this.waiting();
      const names = Array.from(this.held.values(), (c) => c.element.querySelector(".tool-name").textContent);
      announce(this.agentName + " asks for your approval to run " + names.join(", ") + ".");
      const first = this.view.parts.querySelector(".approve-button");
      if (first) first.scrollIntoView({ block: "nearest" });
      return;
    }
    const u = d.usage || {};
    const meta = [d.model, tokens(u), d.latencyMs !== undefined ? (d.latencyMs / 1000).toFixed(1) + " s" : null]
      .filter(Boolean).join(" · ");
    if (meta) this.view.foot.append(h("span", { className: "meta" }, meta));
    const answer = this.answer;
    if (answer) this.view.foot.append(copyButton("Copy answer", () => answer));
    announce(this.agentName + " answered: " + clip(plainText(answer) || "(no text)"));
  }

  stopped() {
    if (this.ended) return;
    this.ended = true;
    this.typing.remove();
    this.flush(true);
    this.view.badge("stopped", "Stopped");
    this.view.element.classList.add("is-stopped");
    for (const card of this.cards.values()) {
      if (card.element.dataset.state === "running") card.finish({ state: "cancelled" });
    }
    if (this.answer) {
      const answer = this.answer;
      this.view.foot.append(h("span", { className: "meta" }, "You stopped this answer; what was written is kept."),
        copyButton("Copy answer", () => answer));
    } else {
      this.view.foot.append(h("span", { className: "meta" }, "You stopped this answer before it began."));
    }
    announce("Answer stopped.");
  }

  failed(e) {
    if (this.ended) return;
    this.ended = true;
    this.typing.remove();
    this.flush(true);
    if (!this.answer && !this.cards.size) this.view.element.remove();
    else this.view.badge("incomplete", "Incomplete");
    // refused before its turn began (a JSON error, not an event): the message was not kept, so a retry replaces it
    const refused = e instanceof ApiError && e.status > 0 && this.sent;
    if (refused) this.sent.classList.add("not-sent");
    const notice = errorNotice(e, () => {
      if (refused) this.sent.remove();
      // a turn that went on after a decision is not sent again: reopening shows where it stands
      if (this.text === null) this.chat.open(this.chat.session);
      else this.chat.send(this.text);
    }, this.chat.hooks);
    this.chat.log.append(notice);
    this.chat.scrollToEnd(true);
    const d = describe(e);
    announce(d.title + ". " + d.detail);
  }

  /** Re-renders the current block at most once a frame: markdown is parsed whole each time. */
  renderSoon() {
    if (this.frame) return;
    this.frame = window.requestAnimationFrame(() => {
      this.frame = null;
      this.flush(false);
    });
  }

  /** @param final true once the block is complete: its code is highlighted, and no later frame redraws it */
  flush(final) {
    if (final && this.frame) {
      window.cancelAnimationFrame(this.frame);
      this.frame = null;
    }
    if (!this.block) return;
    this.block.element.replaceChildren(render(this.block.text, final));
    this.chat.scrollToEnd(false);
  }
}

function tokens(u) {
  if (!u.inputTokens && !u.outputTokens) return null;
  return (u.inputTokens || 0) + " in / " + (u.outputTokens || 0) + " out tokens";
}

function clip(text) {
  return text.length > ANNOUNCE_LIMIT ? text.slice(0, ANNOUNCE_LIMIT) + "…" : text;
}

