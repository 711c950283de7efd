// Small DOM helpers. Data always goes in as text (textContent) or as a property, never parsed as markup: the only
// markup the page renders is a model's answer, and that goes through markdown.js (marked, then DOMPurify).

/**
 * Builds an element: h("button", {type: "button", className: "x", "aria-label": "Close"}, "text", child).
 * Keys with a dash (aria-*, data-*) and "role"/"for" become attributes; others are set as properties; "on" maps
 * event names to listeners. Children are nodes or strings (as text); null and false are skipped.
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "on") {
      for (const [event, listener] of Object.entries(value)) el.addEventListener(event, listener);
    } else if (key.includes("-") || key === "role" || key === "for") {
      el.setAttribute(key, value === true ? "" : String(value));
    } else {
      el[key] = value;
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

export const $ = (id) => document.getElementById(id);

/** Says {@code text} to screen readers once, through the page's polite live region. */
export function announce(text) {
  const region = $("announcer");
  // a change of text is what is announced: clear first so the same words twice are still read
  region.textContent = "";
  window.setTimeout(() => { region.textContent = text; }, 50);
}

/** "14:05", "Yesterday", "Mon", "12 Mar" — short, for lists. */
export function shortTime(iso) {
  const d = new Date(iso);
  const now = new Date();
  const days = dayNumber(now) - dayNumber(d);
  if (days === 0) return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (days === 1) return "Yesterday";
  if (days < 7) return d.toLocaleDateString([], { weekday: "short" });
  return d.toLocaleDateString([], { day: "numeric", month: "short" });
}

/** Which heading a conversation started at {@code iso} goes under in the sidebar. */
export function ageGroup(iso) {
  const days = dayNumber(new Date()) - dayNumber(new Date(iso));
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days < 7) return "Previous 7 days";
  if (days < 30) return "Previous 30 days";
  return "Older";
}

function dayNumber(d) {
  return Math.floor((d.getTime() - d.getTimezoneOffset() * 60000) / 86400000);
}

export function formatNumber(n) {
  return new Intl.NumberFormat().format(n || 0);
}

const USD = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const SMALL_USD = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumSignificantDigits: 2 });

/** "$12.30", and cents' fractions with two significant digits ("$0.0042") rather than "$0.00". */
export function formatUsd(n) {
  const v = n || 0;
  return v !== 0 && Math.abs(v) < 1 ? SMALL_USD.format(v) : USD.format(v);
}

/** Puts {@code text} on the clipboard; over plain http (no secure context) through a hidden text area. */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch (e) {
      // permission refused (e.g. a headless browser): fall through to the old way
    }
  }
  const area = h("textarea", { value: text, readOnly: true, className: "offscreen", "aria-hidden": "true" });
  document.body.append(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
  area.remove();
  return ok;
}

/** A "Copy" button that copies {@code textOf()} and says "Copied" for a moment. */
export function copyButton(label, textOf) {
  const button = h("button", { type: "button", className: "copy-button", "aria-label": label }, "Copy");
  button.addEventListener("click", async () => {
    const ok = await copyText(textOf());
    button.textContent = ok ? "Copied" : "Copy failed";
    announce(ok ? "Copied to the clipboard" : "Could not copy");
    window.setTimeout(() => { button.textContent = "Copy"; }, 1500);
  });
  return button;
}
