// Baton's web chat page: plain DOM, no framework, no build step. Every piece of data is written with
// textContent (never parsed as markup), and the server's Content-Security-Policy allows this file's code only.
"use strict";

(function () {
  const TOKEN_KEY = "baton.token";
  const $ = (id) => document.getElementById(id);
  const el = {
    banner: $("sim-banner"), tokenForm: $("token-form"), token: $("token"), agent: $("agent"),
    newSession: $("new-session"), resume: $("resume"), sessionInfo: $("session-info"), status: $("status"),
    log: $("log"), sendForm: $("send-form"), message: $("message"), send: $("send"), stop: $("stop"),
  };
  let sessionId = null;
  let streaming = false;

  // --- small helpers -------------------------------------------------------------------------------

  function status(text) { el.status.textContent = text || ""; }

  function add(className, text) {
    const div = document.createElement("div");
    div.className = className;
    div.textContent = text;
    el.log.appendChild(div);
    el.log.scrollTop = el.log.scrollHeight;
    return div;
  }

  function compact(value) {
    const s = typeof value === "string" ? value : JSON.stringify(value);
    return s && s.length > 200 ? s.slice(0, 200) + "…" : s;
  }

  function headers(extra) {
    return Object.assign({ Authorization: "Bearer " + el.token.value.trim() }, extra || {});
  }

  /** JSON from the API, or an Error carrying the API's {"error":{code,message}} text. */
  async function api(method, path, body) {
    const init = { method: method, headers: headers(body ? { "Content-Type": "application/json" } : {}) };
    if (body) init.body = JSON.stringify(body);
    const res = await fetch(path, init);
    return readJson(res);
  }

  async function readJson(res) {
    const text = await res.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
    if (!res.ok) {
      const err = json && json.error ? json.error : { code: "http_" + res.status, message: text };
      throw new Error(err.code + ": " + err.message);
    }
    return json;
  }

  function setSession(session) {
    sessionId = session ? session.id : null;
    el.sessionInfo.textContent = session
      ? "conversation " + session.id + " (" + session.agentId + ", " + session.state + ")" : "no conversation";
  }

  function setStreaming(on) {
    streaming = on;
    el.send.disabled = on;
    el.stop.disabled = !on;
  }

  // --- start-up: simulator banner, token, agents ----------------------------------------------------

  async function checkSimulator() {
    try {
      const res = await fetch("/readyz");
      const ready = await res.json();
      el.banner.hidden = !(ready && ready.checks && ready.checks.model === "simulator");
    } catch (e) {
      status("server not reachable: " + e.message);
    }
  }

  async function loadAgents() {
    el.agent.replaceChildren();
    if (!el.token.value.trim()) { status("paste a token to start (./baton serve prints one)"); return; }
    try {
      const out = await api("GET", "/v1/agents");
      for (const a of out.agents) {
        const opt = document.createElement("option");
        opt.value = a.id;
        opt.textContent = a.name ? a.name + " (" + a.id + ")" : a.id;
        opt.title = a.description || "";
        el.agent.appendChild(opt);
      }
      status(out.agents.length ? "" : "your token's roles may use no agent");
    } catch (e) {
      status(e.message);
    }
  }

  // --- conversations ----------------------------------------------------------------------------------

  async function newConversation() {
    if (!el.agent.value) { status("pick an agent first"); return; }
    try {
      setSession(await api("POST", "/v1/sessions", { agentId: el.agent.value }));
      el.log.replaceChildren();
      status("");
      el.message.focus();
    } catch (e) { status(e.message); }
  }

  async function resumeLatest() {
    if (!el.agent.value) { status("pick an agent first"); return; }
    try {
      const q = "?agentId=" + encodeURIComponent(el.agent.value) + "&state=active&limit=1";
      const out = await api("GET", "/v1/sessions" + q);
      if (!out.sessions.length) { status("no active conversation with this agent; starting a new one"); return newConversation(); }
      setSession(out.sessions[0]);
      await loadHistory();
      status("");
    } catch (e) { status(e.message); }
  }

  async function loadHistory() {
    el.log.replaceChildren();
    const out = await api("GET", "/v1/sessions/" + encodeURIComponent(sessionId) + "/messages?limit=200");
    const messages = out.messages.slice().sort((a, b) => a.seq - b.seq);
    for (const m of messages) {
      if (m.role === "user") add("msg user" + (m.status === "blocked" ? " blocked" : ""), m.content);
      else if (m.role === "assistant") {
        for (const c of m.toolCalls || []) {
          add("line", "→ " + c.name + " " + compact(c.arguments));
          if (c.error) add("line failed", "← " + c.name + " failed: " + c.error);
          else if (c.result !== undefined) add("line", "← " + c.name + " " + compact(c.result));
        }
        if (m.content) add("msg assistant", m.content);
        if (m.model) add("meta", m.model + (m.status && m.status !== "complete" ? " · " + m.status : ""));
      }
    }
  }

  // --- sending and the SSE stream ----------------------------------------------------------------------

  async function send(text) {
    if (!sessionId) await newConversation();
    if (!sessionId) return;
    add("msg user", text);
    setStreaming(true);
    status("");
    const turn = { bubble: null };
    try {
      const res = await fetch("/v1/sessions/" + encodeURIComponent(sessionId) + "/messages", {
        method: "POST",
        headers: headers({ "Content-Type": "application/json", Accept: "text/event-stream" }),
        body: JSON.stringify({ content: text }),
      });
      const type = res.headers.get("Content-Type") || "";
      if (!res.ok || !type.startsWith("text/event-stream")) {
        // refused before the turn began (limits, validation, a completed session): a plain JSON error
        await readJson(res);
        add("msg error", "unexpected answer: HTTP " + res.status);
        return;
      }
      await readStream(res.body, (name, data) => onEvent(turn, name, data));
    } catch (e) {
      add("msg error", e.message);
    } finally {
      setStreaming(false);
    }
  }

  /** Reads "event:/data:" blocks as they arrive (EventSource cannot POST). */
  async function readStream(body, handle) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let name = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) continue; // keepalive comment
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const val = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") name = val;
          else if (field === "data") data.push(val);
        }
        if (!data.length) continue;
        let parsed;
        try { parsed = JSON.parse(data.join("\n")); } catch (e) { parsed = { content: data.join("\n") }; }
        handle(name, parsed);
      }
    }
  }

  function onEvent(turn, name, d) {
    switch (name) {
      case "turn.started":
        break;
      case "chunk":
        if (!turn.bubble) turn.bubble = add("msg assistant", "");
        turn.bubble.textContent += d.content;
        el.log.scrollTop = el.log.scrollHeight;
        break;
      case "thinking":
        break; // reasoning is not shown: the answer is
      case "tool_call":
        add("line", "→ " + d.name + " " + compact(d.arguments));
        turn.bubble = null; // text after a tool call starts a new bubble, below the call
        break;
      case "tool_result":
        if (d.ok) add("line", "← " + d.name + " " + compact(d.result) + " (" + d.durationMs + " ms)");
        else add("line failed", "← " + d.name + " failed: " + d.error);
        break;
      case "blocked":
        add("msg blocked", "Blocked: " + d.response);
        break;
      case "done": {
        const u = d.usage || {};
        add("meta", d.model + " · " + (u.inputTokens || 0) + " in / " + (u.outputTokens || 0) + " out tokens · "
          + d.latencyMs + " ms");
        break;
      }
      case "error":
        add("msg error", "Error " + d.code + ": " + d.message + (d.retryable ? " (you may retry)" : ""));
        break;
      default:
        break;
    }
  }

  async function stop() {
    if (!sessionId) return;
    try {
      await api("POST", "/v1/sessions/" + encodeURIComponent(sessionId) + "/cancel");
    } catch (e) { status(e.message); }
  }

  // --- wiring ------------------------------------------------------------------------------------------

  el.token.value = localStorage.getItem(TOKEN_KEY) || "";
  el.tokenForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    localStorage.setItem(TOKEN_KEY, el.token.value.trim());
    loadAgents();
  });
  el.agent.addEventListener("change", () => { setSession(null); el.log.replaceChildren(); });
  el.newSession.addEventListener("click", newConversation);
  el.resume.addEventListener("click", resumeLatest);
  el.stop.addEventListener("click", stop);
  el.sendForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = el.message.value.trim();
    if (!text || streaming) return;
    el.message.value = "";
    send(text);
  });
  el.message.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); el.sendForm.requestSubmit(); }
  });

  setSession(null);
  checkSimulator();
  loadAgents();
})();
