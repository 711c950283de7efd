// The sign-in screen: "continue as a development user" when the server generated its own secret for this run (it
// says so at /web/settings, and only to a browser on the same machine), and a field for a pasted token always.

import { $ } from "./dom.js";
import { auth, publicJson } from "./api.js";
import { describe } from "./errors.js";

export class SignIn {
  /** @param signedIn called once a token is stored */
  constructor(signedIn) {
    this.signedIn = signedIn;
    this.view = $("signin-view");
    this.message = $("signin-message");
    this.devButton = $("dev-signin-button");
    this.devNote = $("dev-signin-note");
    $("token-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const token = $("token").value.trim();
      if (!token) {
        this.say("Paste a token first.");
        $("token").focus();
        return;
      }
      auth.set(token);
      $("token").value = "";
      this.signedIn();
    });
    this.devButton.addEventListener("click", () => this.devSignIn());
  }

  /** Shows the screen; {@code reason} says why (an expired token), or nothing on a first visit. */
  async show(settings, reason) {
    this.view.hidden = false;
    this.say(reason || "");
    const dev = (settings && settings.devSignIn) || { available: false, reason: "the server did not say" };
    this.devButton.disabled = !dev.available;
    this.devButton.setAttribute("aria-describedby", "dev-signin-note");
    this.devNote.textContent = dev.available
      ? "This server generated its own signing secret for this run, so it can sign you in as the user “"
        + dev.user + "” (roles: " + (dev.roles || []).join(", ") + "). Never offered by a server with a real secret."
      : "Not available: " + dev.reason + ".";
    (dev.available ? this.devButton : $("token")).focus();
  }

  hide() {
    this.view.hidden = true;
  }

  async devSignIn() {
    this.devButton.disabled = true;
    try {
      const out = await publicJson("POST", "/web/dev-token");
      auth.set(out.token);
      this.signedIn();
    } catch (e) {
      const d = describe(e);
      this.say(e.code === "forbidden" ? e.message : d.title + ". " + d.detail);
      this.devButton.disabled = false;
    }
  }

  say(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
  }
}
