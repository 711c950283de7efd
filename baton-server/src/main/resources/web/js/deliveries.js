// Answers that arrive outside a turn: a background job (the learning agent's prepared material) delivers an assistant
// message into the conversation that asked for it, and the server tells this page over GET /v1/events. The stream is
// followed while the user is signed in, and taken up again after a pause when it drops (the messages themselves are
// stored: a conversation opened later shows them whatever this page missed).

import { followEvents } from "./api.js";

const RETRY_MS = [1000, 3000, 10000, 30000];

export class Deliveries {
  /** @param delivered (event) => void, with event {sessionId, agentId, source, message} */
  constructor(delivered) {
    this.delivered = delivered;
    this.controller = null;
  }

  start() {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.follow(controller, 0);
  }

  stop() {
    if (this.controller) this.controller.abort();
    this.controller = null;
  }

  async follow(controller, failures) {
    let ready = false;
    try {
      await followEvents(controller.signal, (type, data) => {
        if (type === "ready") ready = true;
        if (type === "message" && data && data.message) this.delivered(data);
      });
    } catch (e) {
      // 401 signs the user out (api.js); anything else is retried below
      if (e.status === 401 || e.status === 403) return;
    }
    if (controller.signal.aborted || this.controller !== controller) return;
    const next = ready ? 0 : failures + 1;
    window.setTimeout(() => {
      if (this.controller === controller) this.follow(controller, next);
    }, RETRY_MS[Math.min(next, RETRY_MS.length - 1)]);
  }
}
