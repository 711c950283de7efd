// The actions on a conversation's newest exchange, shown once no answer is being written: Regenerate on the last
// answer and Edit on the last message. The v1 API has no regenerate: the same text is asked again as a new turn,
// and the earlier answer stays in the history. Edit puts the message's text back into the message box, to be
// changed and sent as a new message (what was said before stays said).

import { h, announce } from "./dom.js";

/** Removes the buttons: a turn is being written, or the conversation changed. */
export function clearLastActions(log) {
  for (const el of Array.from(log.querySelectorAll(".last-action"))) el.remove();
}

/** Puts Regenerate and Edit on the newest exchange of {@code chat}, when it may send. */
export function showLastActions(chat) {
  clearLastActions(chat.log);
  if (chat.turn || chat.paused || !chat.session || chat.input.disabled) return;
  const sent = Array.from(chat.log.querySelectorAll("article.message.user"))
    .filter((u) => typeof u.messageText === "string" && !u.classList.contains("not-sent"));
  const lastUser = sent[sent.length - 1];
  if (!lastUser) return;
  const text = lastUser.messageText;
  lastUser.append(h("div", { className: "user-actions last-action" },
    h("button", { type: "button", className: "link-button edit-button", "aria-label": "Edit your last message",
      on: { click: () => edit(chat, text) } }, "Edit")));
  const answers = chat.log.querySelectorAll("article.message.assistant");
  const lastAnswer = answers[answers.length - 1];
  // only an answer to that message: after a refused or failed turn the notice's "Try again" is the way
  if (!lastAnswer || !(lastUser.compareDocumentPosition(lastAnswer) & Node.DOCUMENT_POSITION_FOLLOWING)) return;
  lastAnswer.querySelector(".message-foot").append(h("button", { type: "button",
    className: "copy-button regenerate-button last-action", "aria-label": "Regenerate: ask the last message again",
    on: { click: () => chat.send(text) } }, "Regenerate"));
}

function edit(chat, text) {
  chat.input.value = text;
  chat.fitInput();
  chat.input.focus();
  chat.input.setSelectionRange(text.length, text.length);
  announce("Your message is in the message box: change it and press Enter to send it as a new message.");
}
