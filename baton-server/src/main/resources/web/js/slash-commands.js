// Prompts of the connected MCP servers as slash-commands (docs/mcp.md): typing "/" at the start of an empty message
// offers the prompts GET /v1/mcp/prompts lists for this user; choosing one asks for its arguments (a dialog, when it
// has any), renders it on its server (POST /v1/mcp/prompts/{server}/{name}) and puts the rendered text in the message
// box — not sent: the text comes from another server, so the user reads it (and can edit it) before Enter sends it.

import { h, $, announce } from "./dom.js";
import { api } from "./api.js";

export class SlashCommands {
  /**
   * @param input the message box
   * @param form its form, whose Enter handling the menu goes before while it is open
   * @param fill(text) puts the rendered text in the message box
   */
  constructor(input, form, fill) {
    this.input = input;
    this.fill = fill;
    this.menu = $("slash-menu");
    this.dialog = $("prompt-args");
    this.prompts = null; // loaded on the first "/", then kept for the page's life
    this.shown = [];
    this.active = -1;
    input.setAttribute("aria-controls", "slash-menu");
    input.setAttribute("aria-autocomplete", "list");
    input.addEventListener("input", () => this.update());
    input.addEventListener("blur", () => window.setTimeout(() => this.close(), 150));
    // capture on the form: runs before the message box's own Enter-sends handler
    form.addEventListener("keydown", (ev) => this.key(ev), true);
  }

  /** Forgets the listed prompts (another user signed in). */
  reset() {
    this.prompts = null;
    this.close();
  }

  async update() {
    const text = this.input.value;
    const typing = /^\/[^\s]*$/.exec(text);
    if (!typing) { this.close(); return; }
    if (this.prompts === null) {
      try {
        this.prompts = (await api("GET", "/v1/mcp/prompts")).prompts;
      } catch (e) {
        this.prompts = null;
        this.close();
        return;
      }
      if (this.input.value !== text) return; // typed on while the list loaded: that input event shows it
    }
    const wanted = text.slice(1).toLowerCase();
    this.shown = this.prompts.filter((p) => command(p).toLowerCase().includes(wanted)).slice(0, 20);
    this.render();
  }

  render() {
    this.menu.replaceChildren();
    if (!this.shown.length) {
      const none = this.prompts.length ? "No prompt matches." : "No MCP server you may use offers prompts.";
      this.menu.append(h("div", { className: "slash-empty" }, none));
      this.active = -1;
    } else {
      this.active = Math.min(Math.max(this.active, 0), this.shown.length - 1);
      this.shown.forEach((p, i) => {
        const item = h("div", {
          id: "slash-option-" + i, className: "slash-option", role: "option",
          "aria-selected": i === this.active ? "true" : "false",
          on: { mousedown: (ev) => { ev.preventDefault(); this.choose(p); } },
        }, h("span", { className: "slash-command" }, "/" + command(p)),
        p.title || p.description ? h("span", { className: "slash-description" }, p.title || p.description) : null);
        this.menu.append(item);
      });
      this.input.setAttribute("aria-activedescendant", "slash-option-" + this.active);
    }
    this.menu.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
  }

  close() {
    if (!this.menu || this.menu.hidden) return;
    this.menu.hidden = true;
    this.shown = [];
    this.active = -1;
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  }

  key(ev) {
    if (ev.target !== this.input || this.menu.hidden) return;
    const moves = { ArrowDown: 1, ArrowUp: -1 };
    if (ev.key in moves && this.shown.length) {
      ev.preventDefault();
      this.active = (this.active + moves[ev.key] + this.shown.length) % this.shown.length;
      this.render();
    } else if ((ev.key === "Enter" || ev.key === "Tab") && !ev.shiftKey && this.active >= 0) {
      ev.preventDefault();
      ev.stopPropagation();
      this.choose(this.shown[this.active]);
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      ev.stopPropagation();
      this.close();
    }
  }

  async choose(prompt) {
    this.close();
    const args = prompt.arguments && prompt.arguments.length ? await this.askArguments(prompt) : {};
    if (args === null) { this.input.focus(); return; }
    try {
      const out = await api("POST", "/v1/mcp/prompts/" + encodeURIComponent(prompt.server) + "/"
        + encodeURIComponent(prompt.name), { arguments: args });
      this.fill(renderedText(out));
      announce("The prompt " + command(prompt) + " is in the message box: read it, then send it.");
    } catch (e) {
      announce("The prompt " + command(prompt) + " could not be used: " + e.message);
      this.fill("");
    }
    this.input.focus();
  }

  /** The prompt's arguments from a dialog: an object of texts, or null when the user cancelled. */
  askArguments(prompt) {
    const form = $("prompt-args-form");
    const fields = $("prompt-args-fields");
    $("prompt-args-title").textContent = "/" + command(prompt);
    fields.replaceChildren();
    prompt.arguments.forEach((a, i) => {
      const id = "prompt-arg-" + i;
      fields.append(h("label", { for: id }, a.name + (a.required ? " (required)" : "")),
        h("input", { id, type: "text", name: a.name, required: !!a.required, "aria-describedby":
          a.description ? id + "-hint" : null }));
      if (a.description) fields.append(h("p", { id: id + "-hint", className: "hint" }, a.description));
    });
    return new Promise((resolve) => {
      const done = (value) => {
        form.onsubmit = null;
        $("prompt-args-cancel").onclick = null;
        this.dialog.onclose = null;
        if (this.dialog.open) this.dialog.close();
        resolve(value);
      };
      form.onsubmit = (ev) => {
        ev.preventDefault();
        const out = {};
        for (const input of fields.querySelectorAll("input")) if (input.value.trim()) out[input.name] = input.value;
        done(out);
      };
      $("prompt-args-cancel").onclick = () => done(null);
      this.dialog.onclose = () => done(null);
      this.dialog.showModal();
      const first = fields.querySelector("input");
      if (first) first.focus();
    });
  }
}

/** "server:name", what the user types after the slash. */
function command(p) {
  return p.server + ":" + p.name;
}

/** The rendered messages' text blocks, one paragraph each; other content (an image, a resource) is named. */
function renderedText(out) {
  const parts = [];
  for (const m of out.messages || []) {
    const c = m.content || {};
    if (c.type === "text") parts.push(c.text);
    else if (c.type === "resource" && c.resource && typeof c.resource.text === "string") parts.push(c.resource.text);
    else parts.push("[" + (c.type || "content") + " left out]");
  }
  return parts.join("\n\n");
}
