// The conversation list: the user's sessions newest first, grouped by age, each with its first message as title
// (cached in this browser; a rename replaces it there), a link that reopens it, a rename button and a delete button
// that asks first. The search box filters the listed conversations by title, in the browser: the API keeps no
// titles, so it searches the conversations loaded so far ("Show older conversations" loads more).

import { h, $, ageGroup, shortTime, announce } from "./dom.js";
import { api } from "./api.js";

const TITLES_KEY = "baton.titles";
const TITLES_KEPT = 500;
const PAGE = 50;

export class Sidebar {
  /** @param hooks {deleted(sessionId), renamed(sessionId), agentName(agentId)} */
  constructor(hooks) {
    this.hooks = hooks;
    this.list = $("conversations");
    this.more = $("more-conversations");
    this.empty = $("conversations-empty");
    this.noMatch = $("conversations-no-match");
    this.search = $("conversation-search");
    this.dialog = $("confirm-delete");
    this.sessions = [];
    this.cursor = null;
    this.activeId = null;
    this.unread = new Set(); // conversations with an answer that arrived while the user was elsewhere
    this.titles = loadTitles();
    this.more.addEventListener("click", () => this.loadMore());
    this.search.addEventListener("input", () => this.draw());
  }

  async refresh() {
    const out = await api("GET", "/v1/sessions?limit=" + PAGE);
    this.sessions = out.sessions;
    this.cursor = out.nextCursor;
    this.draw();
    this.fillTitles();
  }

  async loadMore() {
    if (!this.cursor) return;
    const out = await api("GET", "/v1/sessions?limit=" + PAGE + "&cursor=" + encodeURIComponent(this.cursor));
    this.sessions = this.sessions.concat(out.sessions);
    this.cursor = out.nextCursor;
    this.draw();
    this.fillTitles();
  }

  /** A session just started here: listed at the top with its first message as title. */
  add(session, firstMessage) {
    this.setTitle(session.id, firstMessage);
    this.search.value = ""; // a search must not hide the conversation just started
    this.sessions = [session].concat(this.sessions.filter((s) => s.id !== session.id));
    this.activeId = session.id;
    this.draw();
  }

  /** An answer arrived in a conversation the user is not looking at: its entry shows a "New" badge until opened. */
  markUnread(sessionId) {
    this.unread.add(sessionId);
    this.draw();
  }

  setActive(sessionId) {
    this.activeId = sessionId;
    if (sessionId && this.unread.delete(sessionId)) this.draw();
    for (const link of this.list.querySelectorAll("a.conversation-link")) {
      if (link.dataset.sessionId === sessionId) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }

  find(sessionId) {
    return this.sessions.find((s) => s.id === sessionId) || null;
  }

  title(session) {
    return this.titles[session.id] || "Chat with " + this.hooks.agentName(session.agentId);
  }

  setTitle(sessionId, text) {
    const title = String(text || "").replace(/\s+/g, " ").trim().slice(0, 80);
    if (!title) return;
    this.titles[sessionId] = title;
    const ids = Object.keys(this.titles);
    for (const old of ids.slice(0, Math.max(0, ids.length - TITLES_KEPT))) delete this.titles[old];
    localStorage.setItem(TITLES_KEY, JSON.stringify(this.titles));
    const li = this.list.querySelector('li[data-session-id="' + CSS.escape(sessionId) + '"]');
    if (li && li.querySelector(".conversation-title")) {
      li.querySelector(".conversation-title").textContent = title;
      li.querySelector(".conversation-delete").setAttribute("aria-label", "Delete conversation: " + title);
      li.querySelector(".conversation-rename").setAttribute("aria-label", "Rename conversation: " + title);
    }
  }

  /** The sessions whose title holds every word typed in the search box (any case). */
  shown() {
    const words = this.search.value.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return this.sessions;
    return this.sessions.filter((s) => {
      const title = this.title(s).toLowerCase();
      return words.every((w) => title.includes(w));
    });
  }

  draw() {
    const shown = this.shown();
    const groups = new Map();
    for (const s of shown) {
      const g = ageGroup(s.startedAt);
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(s);
    }
    const sections = [];
    for (const [name, sessions] of groups) {
      const headingId = "group-" + name.replace(/\W+/g, "-").toLowerCase();
      sections.push(h("h2", { className: "group-title", id: headingId }, name),
        h("ul", { className: "conversation-list", "aria-labelledby": headingId }, sessions.map((s) => this.item(s))));
    }
    this.list.replaceChildren(...sections);
    this.more.hidden = !this.cursor;
    this.empty.hidden = this.sessions.length > 0;
    const query = this.search.value.trim();
    this.noMatch.hidden = !this.sessions.length || shown.length > 0;
    this.noMatch.textContent = this.noMatch.hidden ? "" : "No conversation title holds “" + query + "”"
      + (this.cursor ? " among those loaded." : ".");
  }

  item(s) {
    const title = this.title(s);
    const unread = this.unread.has(s.id);
    const link = h("a", { className: "conversation-link" + (unread ? " is-unread" : ""),
      href: "#/c/" + encodeURIComponent(s.id) },
      h("span", { className: "conversation-title" }, title),
      h("span", { className: "conversation-meta" },
        this.hooks.agentName(s.agentId) + " · " + shortTime(s.startedAt) + (s.state === "completed" ? " · ended" : "")),
      unread ? h("span", { className: "unread-badge" }, "New message") : null);
    link.dataset.sessionId = s.id;
    if (s.id === this.activeId) link.setAttribute("aria-current", "page");
    const remove = h("button", { type: "button", className: "icon-button conversation-delete",
      "aria-label": "Delete conversation: " + title, title: "Delete", on: { click: () => this.confirmDelete(s) } },
    h("span", { "aria-hidden": "true" }, "✕"));
    const rename = h("button", { type: "button", className: "icon-button conversation-rename",
      "aria-label": "Rename conversation: " + title, title: "Rename", on: { click: () => this.startRename(s, li) } },
    h("span", { "aria-hidden": "true" }, "✎"));
    const li = h("li", { className: "conversation" }, link, rename, remove);
    li.dataset.sessionId = s.id;
    return li;
  }

  /** The title becomes a text box: Enter (or leaving it) keeps the new title, Esc keeps the old one. */
  startRename(s, li) {
    const input = h("input", { type: "text", className: "rename-input", value: this.title(s),
      "aria-label": "New title for " + this.title(s), maxLength: 80 });
    let finished = false;
    const finish = (keep) => {
      if (finished) return;
      finished = true;
      const title = input.value.replace(/\s+/g, " ").trim();
      if (keep && title && title !== this.title(s)) {
        this.setTitle(s.id, title);
        announce("Renamed to " + title);
        this.hooks.renamed(s.id);
      }
      this.draw();
      const button = this.list.querySelector('li[data-session-id="' + CSS.escape(s.id) + '"] .conversation-rename');
      if (button) button.focus();
    };
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") { ev.preventDefault(); finish(true); }
      if (ev.key === "Escape") { ev.preventDefault(); ev.stopPropagation(); finish(false); }
    });
    input.addEventListener("blur", () => finish(true));
    li.replaceChildren(input);
    input.focus();
    input.select();
  }

  confirmDelete(s) {
    const title = this.title(s);
    $("confirm-delete-text").textContent = "“" + title + "” and its messages will be deleted.";
    const ok = $("confirm-delete-ok");
    const cancel = $("confirm-delete-cancel");
    const done = (remove) => {
      ok.onclick = null;
      cancel.onclick = null;
      this.dialog.close();
      if (remove) this.delete(s, title);
    };
    ok.onclick = () => done(true);
    cancel.onclick = () => done(false);
    this.dialog.showModal();
    cancel.focus();
  }

  async delete(s, title) {
    try {
      await api("DELETE", "/v1/sessions/" + encodeURIComponent(s.id));
    } catch (e) {
      if (e.code !== "not_found") {
        announce("Could not delete the conversation: " + e.message);
        return;
      }
    }
    this.sessions = this.sessions.filter((x) => x.id !== s.id);
    delete this.titles[s.id];
    localStorage.setItem(TITLES_KEY, JSON.stringify(this.titles));
    this.draw();
    announce("Deleted " + title);
    this.hooks.deleted(s.id);
  }

  /** Titles this browser has not seen: the first message of each (seq 1), a few requests at a time. */
  async fillTitles() {
    const missing = this.sessions.filter((s) => !this.titles[s.id] && s.messageCount > 0);
    const next = async () => {
      const s = missing.shift();
      if (!s) return;
      try {
        const out = await api("GET", "/v1/sessions/" + encodeURIComponent(s.id) + "/messages?limit=1&before=2");
        const first = out.messages.find((m) => m.role === "user");
        if (first && first.status !== "blocked") this.setTitle(s.id, first.content);
      } catch (e) {
        // a title is a nicety: the list still works without it
      }
      await next();
    };
    await Promise.all([next(), next(), next()]);
  }
}

function loadTitles() {
  try {
    return JSON.parse(localStorage.getItem(TITLES_KEY) || "{}") || {};
  } catch (e) {
    return {};
  }
}
