// The user's own accounts on external MCP servers (auth: oauth, docs/mcp.md): a Connect button where a tool call
// needs one (the connect_required event), and the sidebar's list of those servers with Connect or Disconnect.
// Connecting fetches the authorization URL with the bearer token (a navigation would carry none) and goes there;
// the server's identity provider sends the browser back to this page with ?mcpConnected=<server>.

import { h, $, announce } from "./dom.js";
import { api, auth, readJson } from "./api.js";

/** Goes to the server's identity provider to connect the user's account there. */
export async function connectAccount(connectUrl) {
  const res = await fetch(connectUrl, {
    headers: { Authorization: "Bearer " + auth.token(), Accept: "application/json" },
  });
  const body = await readJson(res);
  location.assign(body.authorizationUrl);
}

/** What a turn shows where a tool needed the user's account: a line and a Connect button. */
export function connectPrompt(d) {
  const button = h("button", { type: "button", className: "connect-account" }, "Connect " + d.server);
  const note = h("span", {}, "This needs your own " + d.server + " account. ");
  button.addEventListener("click", () => {
    button.disabled = true;
    connectAccount(d.connectUrl).catch((e) => {
      button.disabled = false;
      note.textContent = "Connecting " + d.server + " failed: " + e.message + " ";
    });
  });
  return h("div", { className: "connect-required", role: "note" }, note, button);
}

/** The sidebar's accounts: hidden when no server has auth: oauth. */
export async function refreshAccounts() {
  const list = $("accounts");
  if (!list) return;
  const out = await api("GET", "/v1/mcp/connections");
  list.replaceChildren();
  list.hidden = out.servers.length === 0;
  if (list.hidden) return;
  list.append(h("h2", { className: "accounts-title" }, "Connected accounts"));
  for (const s of out.servers) {
    const action = s.connected
      ? h("button", { type: "button", className: "link-button", on: { click: () => disconnect(s.server) } }, "Disconnect")
      : h("button", { type: "button", className: "link-button", on: { click: () => connectAccount(s.connectUrl) } },
          "Connect");
    list.append(h("div", { className: "account" },
      h("span", {}, s.server + (s.connected ? " · connected" : " · not connected")), action));
  }
  const back = new URLSearchParams(location.search).get("mcpConnected");
  if (back) {
    announce("Your " + back + " account is connected.");
    history.replaceState(null, "", location.pathname + location.hash);
  }
}

async function disconnect(server) {
  try {
    await api("DELETE", "/v1/mcp/connections/" + encodeURIComponent(server));
    announce("Your " + server + " account was disconnected.");
  } catch (e) {
    announce("Disconnecting " + server + " failed: " + e.message);
  }
  await refreshAccounts().catch(() => {});
}
