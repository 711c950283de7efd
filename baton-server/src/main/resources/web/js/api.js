// The HTTP API (docs/api.md): JSON calls with the bearer token, and a turn's Server-Sent Events read from a POST
// with fetch (EventSource cannot POST).

const TOKEN_KEY = "baton.token";

/** A refusal from the API ({"error":{code,message,requestId}}), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(status, code, message, retryAfterSeconds, requestId) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
    this.requestId = requestId;
  }
}

let unauthorizedListener = () => {};

export const auth = {
  token() { return localStorage.getItem(TOKEN_KEY) || ""; },
  set(token) { localStorage.setItem(TOKEN_KEY, token.trim()); },
  clear() { localStorage.removeItem(TOKEN_KEY); },
  /** Called when the API answers 401: the token expired, or the server restarted with a new secret. */
  onUnauthorized(listener) { unauthorizedListener = listener; },
  /** What the token says about its user, for display only (the server verifies it; the page cannot). */
  claims() {
    try {
      const payload = auth.token().split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
      return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0))));
    } catch (e) {
      return {};
    }
  },
};

function headers(extra) {
  return Object.assign({ Authorization: "Bearer " + auth.token() }, extra || {});
}

/** JSON from the API; throws an ApiError carrying its code, message and Retry-After. */
export async function api(method, path, body) {
  const init = { method, headers: headers(body ? { "Content-Type": "application/json" } : {}) };
  if (body) init.body = JSON.stringify(body);
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "network", "the server cannot be reached", null, null);
  }
  return readJson(res);
}

/** Unauthenticated JSON (the page's own endpoints under /web/). */
export async function publicJson(method, path) {
  let res;
  try {
    res = await fetch(path, { method });
  } catch (e) {
    throw new ApiError(0, "network", "the server cannot be reached", null, null);
  }
  return readJson(res);
}

export async function readJson(res) {
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  if (!res.ok) throw errorOf(res, json, text);
  return json;
}

function errorOf(res, json, text) {
  const e = json && json.error ? json.error : { code: "http_" + res.status, message: text || res.statusText };
  const retry = res.headers.get("Retry-After");
  const err = new ApiError(res.status, e.code, e.message, retry ? Number(retry) : null, e.requestId || null);
  if (res.status === 401) unauthorizedListener(err);
  return err;
}

/**
 * Sends a message and calls onEvent(type, data) for each event of its turn as it arrives. Resolves when the stream
 * ends; throws an ApiError when the message was refused before its turn began (a plain JSON answer), or when the
 * connection failed. An abort through {@code signal} resolves quietly.
 */
export async function streamMessage(sessionId, content, signal, onEvent) {
  const out = await streamPost("/v1/sessions/" + encodeURIComponent(sessionId) + "/messages", { content }, signal,
    onEvent);
  if (out !== null) throw new ApiError(200, "unexpected_answer", "the server answered without a stream", null, null);
}

/**
 * Approves or denies a held tool call (docs/api.md, "Approving tool calls"). When it was the last decision the turn
 * waited on, the turn goes on and its events arrive as a message's do (resolves null); when other calls still wait,
 * resolves the server's JSON ({state: "awaiting_approval", decided, pendingApprovals}). Refusals (409 expired,
 * already decided, …) throw an ApiError.
 */
export function streamDecision(sessionId, callId, decision, comment, signal, onEvent) {
  const body = { decision };
  if (comment) body.comment = comment;
  return streamPost("/v1/sessions/" + encodeURIComponent(sessionId) + "/approvals/" + encodeURIComponent(callId),
    body, signal, onEvent);
}

/**
 * Follows the user's sessions' news (GET /v1/events): calls onEvent(type, data) for each event — `message` when a
 * background job delivered an answer into one of their sessions. Resolves when the stream ends or is aborted; throws
 * an ApiError when the server refused (a JSON answer) or could not be reached.
 */
export async function followEvents(signal, onEvent) {
  let res;
  try {
    res = await fetch("/v1/events", { headers: headers({ Accept: "text/event-stream" }), signal });
  } catch (e) {
    if (signal && signal.aborted) return;
    throw new ApiError(0, "network", "the server cannot be reached", null, null);
  }
  const type = res.headers.get("Content-Type") || "";
  if (!res.ok || !type.startsWith("text/event-stream")) {
    await readJson(res);
    throw new ApiError(res.status, "unexpected_answer", "the server answered without a stream", null, null);
  }
  try {
    await readEvents(res.body, onEvent);
  } catch (e) {
    if (signal && signal.aborted) return;
    throw new ApiError(0, "network", "the events stream broke", null, null);
  }
}

/** POSTs JSON asking for a stream: null once the stream ended, or the JSON of a successful non-stream answer. */
async function streamPost(path, body, signal, onEvent) {
  let res;
  try {
    res = await fetch(path, {
      method: "POST",
      headers: headers({ "Content-Type": "application/json", Accept: "text/event-stream" }),
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (signal && signal.aborted) return null;
    throw new ApiError(0, "network", "the server cannot be reached", null, null);
  }
  const type = res.headers.get("Content-Type") || "";
  if (!res.ok || !type.startsWith("text/event-stream")) return readJson(res);
  try {
    await readEvents(res.body, onEvent);
  } catch (e) {
    if (signal && signal.aborted) return null;
    throw new ApiError(0, "network", "the connection broke while the answer was streaming", null, null);
  }
  return null;
}

/** Reads "event:/data:" blocks as they arrive; comments (": keepalive") are skipped. */
async function readEvents(body, onEvent) {
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
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const val = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") name = val;
        else if (field === "data") data.push(val);
      }
      if (!data.length) continue;
      let parsed;
      try { parsed = JSON.parse(data.join("\n")); } catch (e) { parsed = { content: data.join("\n") }; }
      onEvent(name, parsed);
    }
  }
}
