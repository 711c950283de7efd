// What went wrong, in words a person can act on: each API error code (docs/api.md, "Status codes" and the SSE
// "error" event) becomes a title, what to do next, and when a retry makes sense.

/**
 * @param e an ApiError, or the data of an SSE "error" event ({code, message, retryable, retryAfter})
 * @returns {{title: string, detail: string, retryAt: Date|null, action: "retry"|"new-chat"|"sign-in"|null,
 *            requestId: string|null}}
 */
export function describe(e) {
  const code = e.code || "unknown";
  const seconds = e.retryAfterSeconds ?? e.retryAfter ?? null;
  const retryAt = seconds !== null && seconds !== undefined ? new Date(Date.now() + Number(seconds) * 1000) : null;
  const base = { retryAt, requestId: e.requestId || null, action: "retry" };
  switch (code) {
    case "rate_limited":
      return Object.assign(base, {
        title: "Too many messages right now",
        detail: retryAt ? "You can send again " + when(retryAt) + "." : "Wait a moment, then send again.",
      });
    case "budget_exceeded":
      return Object.assign(base, {
        title: "The usage budget is used up",
        detail: retryAt ? "It renews " + when(retryAt) + "." : "Ask an administrator to raise it.",
      });
    case "model_unavailable":
      return Object.assign(base, {
        title: "The model is not available",
        detail: retryAt ? "Baton will try it again " + when(retryAt) + "." : "Try again in a minute.",
      });
    case "model_timeout":
    case "request_timeout":
      return Object.assign(base, {
        title: "The answer took too long",
        detail: "Try again, or ask for something shorter.",
      });
    case "model_bad_request":
      return Object.assign(base, {
        title: "The model refused the request",
        detail: "Rephrase your message, or start a new chat if this conversation has grown very long.",
      });
    case "model_auth":
      return Object.assign(base, {
        action: null,
        title: "The server cannot use its model",
        detail: "The model provider rejected the server's key or configuration. Tell whoever runs this Baton.",
      });
    case "session_completed":
      return Object.assign(base, {
        action: "new-chat",
        title: "This conversation has ended",
        detail: "Start a new chat to go on.",
      });
    case "turn_in_progress":
      return Object.assign(base, {
        title: "An answer is still being written",
        detail: "Another tab or device is waiting for an answer in this conversation. Wait for it, or stop it there.",
      });
    case "approval_expired":
      return Object.assign(base, {
        action: null,
        title: "This request expired",
        detail: "Nobody decided in time, so the call was not run. Ask again if you still want it.",
      });
    case "approval_already_decided":
      return Object.assign(base, {
        action: null,
        title: "Already decided",
        detail: "This call was approved or denied before (perhaps in another tab). Reload to see how it went on.",
      });
    case "approval_superseded":
      return Object.assign(base, {
        action: null,
        title: "No longer waiting",
        detail: "A new message was sent instead, so this call was not run.",
      });
    case "no_pending_approval":
      return Object.assign(base, {
        action: null,
        title: "Nothing waits for a decision",
        detail: "The call was decided, expired or replaced meanwhile. Reload to see the conversation as it is.",
      });
    case "unauthorized":
      return Object.assign(base, {
        action: "sign-in",
        title: "Your sign-in has expired",
        detail: "Sign in again (a development server makes a new secret each time it starts).",
      });
    case "forbidden":
      return Object.assign(base, { action: null, title: "Not allowed", detail: sentence(e.message) });
    case "message_too_long":
    case "invalid_content":
    case "payload_too_large":
      return Object.assign(base, {
        action: null,
        title: "The message cannot be sent",
        detail: sentence(e.message) + " Shorten it and send again.",
      });
    case "network":
      return Object.assign(base, {
        title: "No connection to the server",
        detail: "Check that Baton is still running, then try again.",
      });
    case "not_found":
      return Object.assign(base, {
        action: "new-chat",
        title: "Not found",
        detail: "This conversation no longer exists. Start a new chat.",
      });
    case "internal_error":
      return Object.assign(base, {
        title: "Something went wrong on the server",
        detail: "Try again; if it keeps happening, tell whoever runs this Baton"
          + (e.requestId ? " and quote request " + e.requestId : "") + ".",
      });
    default:
      return Object.assign(base, {
        action: e.retryable === false ? null : "retry",
        title: "The answer failed",
        detail: sentence(e.message || code),
      });
  }
}

/** "in 30 seconds (at 14:05:10)" */
export function when(date) {
  const seconds = Math.max(0, Math.ceil((date.getTime() - Date.now()) / 1000));
  const clock = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  if (seconds < 90) return "in " + seconds + " second" + (seconds === 1 ? "" : "s") + " (at " + clock + ")";
  if (seconds < 3 * 3600) return "in " + Math.round(seconds / 60) + " minutes (at " + clock + ")";
  return "on " + date.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function sentence(text) {
  const t = String(text || "").trim();
  if (!t) return "";
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : s + ".";
}
