// The conversation pane: history, the answer being streamed (markdown, tool cards, reasoning), the stop button, and
// what a stopped, blocked or failed answer looks like. Screen readers hear each finished answer once, through the
// page's live region, not every chunk.

import { h, $, copyButton } from "./dom.js";
import { api, ApiError, streamMessage, streamDecision } from "./api.js";
import { storedToolCard } from "./tool-card.js";
import { Turn } from "./turn.js";
import { userMessage, assistantMessage, markdownBlock, emptyState, errorNotice, endedNote } from "./messages.js";
import { showLastActions, clearLastActions } from "./message-actions.js";
import { SlashCommands } from "./slash-commands.js";

export class Chat {
  /**
   * @param hooks {sessionStarted(session, firstMessage), newChat(), agentName(agentId)}
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.log = $("log");
    this.form = $("composer");
    this.input = $("message");
    this.sendButton = $("send");
    this.stopButton = $("stop");
    this.note = $("composer-note");
    this.session = null;
    this.agentId = null;
    this.turn = null;
    this.paused = null; // the turn that waits for approvals, if any

    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = this.input.value.trim();
      if (!text || this.turn) return;
      this.input.value = "";
      this.fitInput();
      this.send(text);
    });
    this.input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        this.form.requestSubmit();
      }
    });
    this.input.addEventListener("input", () => this.fitInput());
    this.slash = new SlashCommands(this.input, this.form, (text) => {
      this.input.value = text;
      this.fitInput();
    });
    this.stopButton.addEventListener("click", () => this.stop());
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && this.turn && !document.querySelector("dialog[open]")) this.stop();
    });
  }

  /** An empty chat with {@code agent}; the session is created with the first message. */
  startNew(agent) {
    this.abandonTurn();
    this.session = null;
    this.paused = null;
    this.agentId = agent ? agent.id : null;
    this.log.replaceChildren(emptyState(agent, (text) => this.send(text)));
    this.setComposer(agent ? null : "You may use no agent: ask an administrator for a role that may.");
    this.input.focus();
  }

  /** Shows a stored conversation. */
  async open(session) {
    this.abandonTurn();
    this.session = session;
    this.paused = null;
    this.agentId = session.agentId;
    this.log.replaceChildren(h("p", { className: "loading" }, "Loading the conversation…"));
    const path = "/v1/sessions/" + encodeURIComponent(session.id);
    // the sidebar's copy of a session does not say what waits for approval; the session itself does
    const [out, current] = await Promise.all([api("GET", path + "/messages?limit=200"),
      "pendingApprovals" in session ? session : api("GET", path)]);
    const messages = out.messages.slice().sort((a, b) => a.seq - b.seq);
    this.log.replaceChildren();
    for (const m of messages) this.addStored(m);
    const pending = current.pendingApprovals || [];
    if (pending.length) {
      // the paused turn's answer is not stored yet: its held calls come back as cards with their buttons
      const turn = new Turn(this, this.hooks.agentName(session.agentId), null, null);
      for (const a of pending) turn.approvalRequired(a);
      turn.done({ state: "awaiting_approval" });
    }
    if (!messages.length) {
      this.log.append(emptyState({ id: session.agentId, name: this.hooks.agentName(session.agentId) },
        (text) => this.send(text)));
    }
    this.setComposer(session.state === "completed" ? endedNote(session) : null);
    showLastActions(this);
    this.scrollToEnd(true);
    return messages;
  }

  /** Puts a message that was not sent back into an empty message box, to be edited and sent again. */
  restore(text) {
    if (this.input.value.trim()) return;
    this.input.value = text;
    this.fitInput();
  }

  /** Deletes a conversation created for a first message the server refused: it holds nothing. */
  discard(session) {
    if (this.session === session) this.session = null;
    api("DELETE", "/v1/sessions/" + encodeURIComponent(session.id)).catch(() => {});
  }

  setComposer(note) {
    this.note.replaceChildren();
    this.note.hidden = !note;
    if (note) {
      this.note.append(note, " ", h("button", { type: "button", className: "link-button",
        on: { click: () => this.hooks.newChat() } }, "Start a new chat"));
    }
    this.input.disabled = !!note;
    this.sendButton.disabled = !!note;
  }

  // --- sending --------------------------------------------------------------------------------------------

  async send(text) {
    if (this.turn) return;
    clearLastActions(this.log);
    // a conversation started for this message is listed once its turn has begun: one whose first message is
    // refused (too long, a limit) is deleted again, so no empty conversation stays behind
    let fresh = false;
    if (!this.session) {
      if (!this.agentId) return;
      try {
        this.session = await api("POST", "/v1/sessions", { agentId: this.agentId });
      } catch (e) {
        this.log.append(errorNotice(e, () => this.send(text), this.hooks));
        this.restore(text);
        return;
      }
      this.log.replaceChildren();
      fresh = true;
    }
    const session = this.session;
    this.log.querySelector(".empty-state")?.remove(); // a stored conversation without messages showed one
    if (this.paused) { // the server denies what waits once the new message arrives
      this.paused.supersede();
      this.paused = null;
    }
    const sent = userMessage(text, null);
    this.log.append(sent);
    const turn = new Turn(this, this.hooks.agentName(session.agentId), text, sent);
    this.turn = turn;
    this.setStreaming(true);
    this.scrollToEnd(true);
    try {
      await streamMessage(session.id, text, turn.controller.signal, (type, d) => {
        if (fresh) {
          fresh = false;
          this.hooks.sessionStarted(session, text);
        }
        turn.on(type, d);
      });
      if (!turn.ended) {
        if (turn.stopping) turn.stopped();
        else turn.failed({ code: "network", message: "the stream ended before the answer was complete" });
      }
    } catch (e) {
      if (e instanceof ApiError && e.status >= 400) {
        // refused before its turn began: nothing was kept, so the text goes back into the box
        this.restore(text);
        if (fresh) this.discard(session);
      }
      turn.failed(e);
    } finally {
      if (this.turn === turn) {
        this.turn = null;
        this.setStreaming(false);
        showLastActions(this);
      }
    }
  }

  /**
   * Sends a decision on a held call of the paused {@code turn}; the turn goes on in its view, streamed as a message
   * is. Resolves as the card expects (null, or the 202 JSON when other calls still wait); rejects with a refusal
   * that came before the turn went on (then it waits as before).
   */
  async decide(turn, approval, decision, comment) {
    if (this.turn) throw { code: "turn_in_progress", message: "an answer is being written" };
    clearLastActions(this.log);
    const session = this.session;
    this.turn = turn;
    this.paused = null;
    turn.resume();
    this.setStreaming(true);
    this.scrollToEnd(false);
    let started = false;
    try {
      const out = await streamDecision(session.id, approval.callId, decision, comment, turn.controller.signal,
        (type, d) => { started = true; turn.on(type, d); });
      if (out) {
        turn.waitAgain();
        return out;
      }
      if (!turn.ended) {
        if (turn.stopping) turn.stopped();
        else turn.failed({ code: "network", message: "the stream ended before the answer was complete" });
      }
      return null;
    } catch (e) {
      if (!started) {
        turn.waitAgain();
        throw e;
      }
      turn.failed(e);
      return null;
    } finally {
      if (this.turn === turn) {
        this.turn = null;
        this.setStreaming(false);
        showLastActions(this);
      }
    }
  }

  async stop() {
    const turn = this.turn;
    if (!turn || turn.stopping) return;
    turn.stopping = true;
    this.stopButton.disabled = true;
    this.stopButton.textContent = "Stopping…";
    try {
      const out = await api("POST", "/v1/sessions/" + encodeURIComponent(this.session.id) + "/cancel");
      // not running yet (or any more) on the server: dropping the stream cancels it there too
      if (!out.cancelled) turn.controller.abort();
    } catch (e) {
      turn.controller.abort();
    }
  }

  /** Leaving a conversation mid-answer: the stream is dropped, which cancels the turn on the server. */
  abandonTurn() {
    if (!this.turn) return;
    this.turn.stopping = true;
    this.turn.controller.abort();
    this.turn = null;
    this.setStreaming(false);
  }

  setStreaming(on) {
    this.sendButton.hidden = on;
    this.stopButton.hidden = !on;
    this.stopButton.disabled = false;
    this.stopButton.textContent = "Stop";
    this.log.setAttribute("aria-busy", on ? "true" : "false");
    if (!on && document.activeElement === this.stopButton) this.input.focus();
  }

  fitInput() {
    this.input.style.height = "auto";
    this.input.style.height = Math.min(this.input.scrollHeight, 240) + "px";
  }

  // --- history ----------------------------------------------------------------------------------------------

  addStored(m) {
    if (m.role === "user") {
      this.log.append(userMessage(m.content, m.status));
      return;
    }
    if (m.role !== "assistant") return;
    const view = assistantMessage(this.hooks.agentName(this.agentId));
    for (const call of m.toolCalls || []) view.parts.append(storedToolCard(call));
    if (m.content) view.parts.append(markdownBlock(m.content, true));
    if (m.status === "cancelled") view.badge("stopped", "Stopped");
    if (m.status === "incomplete") view.badge("incomplete", "Incomplete: cut short by an error");
    if (m.model) view.foot.append(h("span", { className: "meta" }, m.model));
    if (m.content) view.foot.append(copyButton("Copy answer", () => m.content));
    this.log.append(view.element);
  }

  /** An answer delivered into this conversation outside a turn (prepared material): shown after what is there. */
  addDelivered(m) {
    if (this.log.querySelector(".empty-state")) this.log.replaceChildren();
    // measured before: the new message is long, and a reader at the end should see where it starts
    const atEnd = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 120;
    const before = this.log.lastElementChild;
    this.addStored(m);
    const added = this.log.lastElementChild;
    if (added && added !== before) {
      added.classList.add("is-delivered");
      if (atEnd) added.scrollIntoView({ block: "start" });
    }
  }

  /** Keeps the newest text in view, unless the reader scrolled up to read something earlier. */
  scrollToEnd(force) {
    const nearEnd = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 120;
    if (force || nearEnd) this.log.scrollTop = this.log.scrollHeight;
  }
}
