// Baton's web app: sign-in, the conversation sidebar, the chat and the admin views, switched by the URL's hash
// (#/ a new chat, #/c/<session> a conversation, #/admin and #/admin/audit/<session>), so a reload comes back to the
// same place. No framework and no build step; the libraries come from the server's /vendor/ (WebJars).

import { h, $, announce } from "./dom.js";
import { api, auth, publicJson } from "./api.js";
import { allowImages } from "./markdown.js";
import { Chat } from "./chat.js";
import { Sidebar } from "./sidebar.js";
import { SignIn } from "./signin.js";
import { Admin, adminPermissions } from "./admin.js";
import { wireExport } from "./export.js";
import { wireTheme } from "./theme.js";
import { Deliveries } from "./deliveries.js";
import { refreshAccounts } from "./accounts.js";

const AGENT_KEY = "baton.agent";

const state = { settings: null, agents: [], signedIn: false, permissions: { usage: false, audit: false } };

const agentName = (id) => {
  const agent = state.agents.find((a) => a.id === id);
  return agent ? agent.name || agent.id : id || "Assistant";
};

const sidebar = new Sidebar({
  agentName,
  deleted: (id) => { if (chat.session && chat.session.id === id) go("#/"); },
  renamed: (id) => {
    if (chat.session && chat.session.id === id) setTitle(sidebar.title(chat.session), chat.session.agentId);
  },
});
const chat = new Chat({
  agentName,
  newChat: () => newChat(),
  sessionStarted: (session, firstMessage) => {
    sidebar.add(session, firstMessage);
    setTitle(sidebar.title(session), session.agentId);
    // the hash follows without reopening what is already on screen
    state.routedTo = "#/c/" + encodeURIComponent(session.id);
    window.location.hash = state.routedTo;
  },
});
const deliveries = new Deliveries((event) => delivered(event));
const signIn = new SignIn(() => enter());
const admin = new Admin();
wireTheme();
wireExport(() => chat.session && isChatRoute() ? {
  session: chat.session, title: sidebar.title(chat.session), agentName: agentName(chat.session.agentId),
} : null);

// --- start-up and sign-in ---------------------------------------------------------------------------------

async function start() {
  checkSimulator();
  try {
    state.settings = await publicJson("GET", "/web/settings");
  } catch (e) {
    state.settings = null;
  }
  allowImages(state.settings && state.settings.images === "allow");
  if (!auth.token()) {
    showSignIn("");
    return;
  }
  await enter();
}

async function enter() {
  try {
    const out = await api("GET", "/v1/agents");
    state.agents = out.agents;
  } catch (e) {
    if (e.status !== 401) showSignIn("The server could not be reached: " + e.message + ". Reload to try again.");
    return;
  }
  state.signedIn = true;
  signIn.hide();
  $("app").hidden = false;
  const claims = auth.claims();
  $("who").textContent = claims.name ? claims.name + " (" + claims.sub + ")" : claims.sub || "signed in";
  fillAgents();
  deliveries.start();
  state.routedTo = null;
  await Promise.all([
    sidebar.refresh().catch(() => announce("The conversation list could not be loaded.")),
    refreshAccounts().catch(() => {}),
    adminPermissions().then((p) => {
      state.permissions = p;
      admin.setPermissions(p);
      $("admin-link").hidden = !(p.usage || p.audit);
    }),
  ]);
  await route();
}

function showSignIn(reason) {
  state.signedIn = false;
  deliveries.stop();
  chat.abandonTurn();
  chat.slash.reset();
  $("app").hidden = true;
  signIn.show(state.settings, reason);
}

// every 401 lands here (several requests may get one at once: showing the screen again is harmless)
auth.onUnauthorized(() => {
  auth.clear();
  showSignIn("The server did not accept your sign-in: it expired, or was signed with another secret (a "
    + "development server makes a new one each time it starts). Sign in again.");
});

$("sign-out").addEventListener("click", () => {
  auth.clear();
  window.history.replaceState(null, "", "#/");
  showSignIn("You are signed out.");
});

async function checkSimulator() {
  try {
    const ready = await (await fetch("/readyz")).json();
    $("sim-banner").hidden = !(ready && ready.checks && ready.checks.model === "simulator");
  } catch (e) {
    // readiness is informational here
  }
}

// --- agents and new chats ----------------------------------------------------------------------------------

function fillAgents() {
  const select = $("agent");
  const remembered = localStorage.getItem(AGENT_KEY);
  select.replaceChildren(...state.agents.map((a) => h("option", { value: a.id, title: a.description || "" },
    a.name || a.id)));
  if (state.agents.some((a) => a.id === remembered)) select.value = remembered;
  $("new-chat").disabled = !state.agents.length;
}

function selectedAgent() {
  return state.agents.find((a) => a.id === $("agent").value) || null;
}

$("agent").addEventListener("change", () => {
  localStorage.setItem(AGENT_KEY, $("agent").value);
  if (!chat.session && isChatRoute()) {
    chat.startNew(selectedAgent());
    setTitle("New chat", $("agent").value);
  }
});

$("new-chat").addEventListener("click", () => newChat());

function newChat() {
  closeSidebar();
  if (isChatRoute() && !chat.session) {
    chat.startNew(selectedAgent());
    return;
  }
  go("#/");
}

// --- routing -----------------------------------------------------------------------------------------------

function go(hash) {
  if (window.location.hash === hash) {
    state.routedTo = null;
    route();
  } else {
    window.location.hash = hash;
  }
}

function isChatRoute() {
  return !window.location.hash.startsWith("#/admin");
}

window.addEventListener("hashchange", () => { if (state.signedIn) route(); });

async function route() {
  const hash = window.location.hash || "#/";
  if (hash === state.routedTo) return;
  state.routedTo = hash;
  closeSidebar();
  const conversation = hash.match(/^#\/c\/(.+)$/);
  const audit = hash.match(/^#\/admin\/audit\/(.+)$/);
  if (hash.startsWith("#/admin") && (state.permissions.usage || state.permissions.audit)) {
    showView("admin");
    setTitle("Usage and audit", null);
    sidebar.setActive(null);
    await admin.show(audit ? decodeURIComponent(audit[1]) : null);
    return;
  }
  showView("chat");
  if (conversation) {
    await openConversation(decodeURIComponent(conversation[1]));
    return;
  }
  sidebar.setActive(null);
  chat.startNew(selectedAgent());
  setTitle("New chat", selectedAgent() ? selectedAgent().id : null);
}

async function openConversation(id) {
  if ($("delivery-notice-link").getAttribute("href") === "#/c/" + encodeURIComponent(id)) $("delivery-notice").hidden = true;
  let session = sidebar.find(id);
  try {
    if (!session) session = await api("GET", "/v1/sessions/" + encodeURIComponent(id));
    sidebar.setActive(id);
    setTitle(sidebar.title(session), session.agentId);
    const messages = await chat.open(session);
    const first = messages.find((m) => m.role === "user" && m.status !== "blocked");
    if (first && !sidebar.titles[id]) sidebar.setTitle(id, first.content);
    setTitle(sidebar.title(session), session.agentId);
  } catch (e) {
    if (e.status === 401) return;
    chat.startNew(selectedAgent());
    announce(e.code === "not_found" ? "That conversation does not exist any more." : "Could not open it: " + e.message);
    setTitle("New chat", null);
  }
}

function showView(name) {
  $("chat-view").hidden = name !== "chat";
  $("admin-view").hidden = name !== "admin";
}

function setTitle(title, agentId) {
  $("chat-title").textContent = title;
  document.title = title + " · Baton";
  const chip = $("chat-agent");
  chip.textContent = agentId ? agentName(agentId) : "";
  chip.hidden = !agentId;
  const auditLink = $("audit-link");
  const canAudit = state.permissions.audit && chat.session && isChatRoute();
  auditLink.hidden = !canAudit;
  if (canAudit) auditLink.href = "#/admin/audit/" + encodeURIComponent(chat.session.id);
  $("export-menu").hidden = !(chat.session && isChatRoute());
}

// --- answers delivered outside a turn ------------------------------------------------------------------------

/** Shown in the open conversation, or announced with a badge on its sidebar entry when the user is elsewhere. */
async function delivered(event) {
  const open = chat.session && chat.session.id === event.sessionId && isChatRoute();
  if (open) {
    chat.addDelivered(event.message);
    announce(agentName(event.agentId) + " sent a new message in this conversation.");
    return;
  }
  if (!sidebar.find(event.sessionId)) {
    try {
      await sidebar.refresh();
      await sidebar.fillTitles(); // the notice names the conversation by its first message
    } catch (e) {
      // the badge needs the entry; the announcement below still tells the user
    }
  }
  sidebar.markUnread(event.sessionId);
  const session = sidebar.find(event.sessionId);
  const title = session ? sidebar.title(session) : "another conversation";
  showNotice("New message in “" + title + "”", "#/c/" + encodeURIComponent(event.sessionId));
  announce("New message from " + agentName(event.agentId) + " in “" + title + "”.");
}

/** A visible note with a link to the conversation; it stays until opened or dismissed. */
function showNotice(text, href) {
  const notice = $("delivery-notice");
  $("delivery-notice-link").textContent = text;
  $("delivery-notice-link").href = href;
  notice.hidden = false;
}

$("delivery-notice-link").addEventListener("click", () => { $("delivery-notice").hidden = true; });
$("delivery-notice-close").addEventListener("click", () => { $("delivery-notice").hidden = true; });

// --- the sidebar as a drawer on narrow screens -------------------------------------------------------------

function openSidebar() {
  $("app").classList.add("sidebar-open");
  $("scrim").hidden = false;
  $("open-sidebar").setAttribute("aria-expanded", "true");
  $("new-chat").focus();
}

/** @param focusMenu true when the drawer was dismissed (Esc, ✕, the scrim), false when the reader went somewhere */
function closeSidebar(focusMenu) {
  if (!$("app").classList.contains("sidebar-open")) return;
  $("app").classList.remove("sidebar-open");
  $("scrim").hidden = true;
  $("open-sidebar").setAttribute("aria-expanded", "false");
  if (focusMenu === true) $("open-sidebar").focus();
}

$("open-sidebar").addEventListener("click", openSidebar);
$("close-sidebar").addEventListener("click", () => closeSidebar(true));
$("scrim").addEventListener("click", () => closeSidebar(true));
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && $("app").classList.contains("sidebar-open")) closeSidebar(true);
});

start();
