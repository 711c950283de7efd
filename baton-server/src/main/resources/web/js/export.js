// Exports the open conversation as Markdown or JSON: its messages are read from GET /v1/sessions/{id}/messages
// (every page of them) and the file is built in the browser and downloaded; nothing is made on the server.

import { $, announce } from "./dom.js";
import { api } from "./api.js";

const PAGE = 200;

/** @param current () => {session, title, agentName} of the conversation on screen, or null */
export function wireExport(current) {
  const menu = $("export-menu");
  const run = async (format) => {
    menu.open = false;
    const c = current();
    if (!c) return;
    try {
      const messages = await allMessages(c.session.id);
      const exportedAt = new Date().toISOString();
      if (format === "markdown") {
        download(fileName(c.title, "md"), "text/markdown", toMarkdown(c, messages, exportedAt));
      } else {
        download(fileName(c.title, "json"), "application/json", toJson(c, messages, exportedAt));
      }
      announce("The conversation was exported.");
    } catch (e) {
      if (e.status !== 401) announce("Could not export the conversation: " + e.message);
    }
  };
  // a menu closes when the reader clicks elsewhere or presses Esc
  document.addEventListener("click", (ev) => { if (menu.open && !menu.contains(ev.target)) menu.open = false; });
  menu.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
  $("export-markdown").addEventListener("click", () => run("markdown"));
  $("export-json").addEventListener("click", () => run("json"));
}

/** Every message of the session, oldest first: the API pages backwards from the newest. */
async function allMessages(sessionId) {
  const path = "/v1/sessions/" + encodeURIComponent(sessionId) + "/messages?limit=" + PAGE;
  let messages = [];
  let before = null;
  for (;;) {
    const out = await api("GET", path + (before === null ? "" : "&before=" + before));
    messages = out.messages.concat(messages);
    if (out.messages.length < PAGE) break;
    before = Math.min(...out.messages.map((m) => m.seq));
  }
  return messages.sort((a, b) => a.seq - b.seq);
}

export function toMarkdown(c, messages, exportedAt) {
  const lines = ["# " + c.title, "",
    "Agent: " + c.agentName + " · Session " + c.session.id + " · Exported " + exportedAt, ""];
  for (const m of messages) {
    if (m.role !== "user" && m.role !== "assistant") continue;
    lines.push("## " + (m.role === "user" ? "You" : c.agentName), "");
    for (const call of m.toolCalls || []) {
      lines.push("Tool call `" + call.name + "`" + (call.state ? " (" + call.state + ")" : "") + ":", "",
        "```json", typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? null),
        "```", "");
    }
    if (m.status === "blocked" && m.role === "user") lines.push("*(blocked by a safety check)*", "");
    else if (m.content) lines.push(m.content, "");
    if (m.status === "cancelled") lines.push("*(stopped)*", "");
  }
  return lines.join("\n");
}

export function toJson(c, messages, exportedAt) {
  return JSON.stringify({ title: c.title, agent: { id: c.session.agentId, name: c.agentName },
    session: c.session, exportedAt, messages }, null, 2) + "\n";
}

function fileName(title, extension) {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return (base || "conversation") + "." + extension;
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type: type + ";charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // the download has its own copy once started
  window.setTimeout(() => URL.revokeObjectURL(url), 10000);
}
