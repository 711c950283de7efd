// A client of Baton's A2A door built with the official A2A JS SDK (1.x). Usage:
//   node client.mjs <scenario> <json input>
// Prints one JSON document: what the SDK returned, in A2A's wire JSON (Task.toJSON, StreamResponse.toJSON), or the
// error it threw ({error: {name, code, message}}).
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { AgentCard, Message, StreamResponse, Task } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';

const [scenario, inputJson] = process.argv.slice(2);
const input = JSON.parse(inputJson);

function authedFetch(token) {
  return (url, init = {}) => {
    const headers = new Headers(init.headers ?? {});
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return fetch(url, { ...init, headers });
  };
}

async function client(token, cardPath, clientConfig) {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: authedFetch(token) })],
      cardResolver: new DefaultAgentCardResolver(),
      clientConfig,
    }),
  );
  return factory.createFromUrl(input.baseUrl, cardPath);
}

function message(text, { contextId, taskId, data } = {}) {
  const parts = [];
  if (text !== undefined) parts.push({ text });
  if (data !== undefined) parts.push({ data });
  return Message.fromJSON({ messageId: randomUUID(), role: 'ROLE_USER', parts, contextId, taskId });
}

function wireResult(result) {
  return 'messageId' in result ? { message: Message.toJSON(result) } : { task: Task.toJSON(result) };
}

function failure(e) {
  return { error: { name: e?.constructor?.name, code: e?.envelopeCode ?? e?.code, message: String(e?.message ?? e) } };
}

async function stream(c, msg, onEvent) {
  const events = [];
  for await (const event of c.sendMessageStream({ message: msg })) {
    events.push(StreamResponse.toJSON(event));
    if (onEvent) await onEvent(event, events);
  }
  return events;
}

const scenarios = {
  // the card, a blocking send, a streamed second message in the same context, and the task read back
  async flow() {
    const c = await client(input.token, input.cardPath);
    const card = AgentCard.toJSON(c.agentCard);
    const sent = await c.sendMessage({ message: message(input.first) });
    const task = Task.toJSON(sent);
    const events = await stream(c, message(input.second, { contextId: task.contextId }));
    const streamedTaskId = events[0]?.task?.id;
    const got = Task.toJSON(await c.getTask({ id: streamedTaskId }));
    return { card, sent: task, events, got };
  },

  // a streamed message whose model holds: a second stream subscribes to the task, the task is cancelled once it
  // works, and both streams end with it
  async cancel() {
    const c = await client(input.token, input.cardPath);
    let canceled;
    let resubscribed;
    const events = await stream(c, message(input.text), async (event) => {
      if (event.payload.$case === 'task' && canceled === undefined) {
        const taskId = event.payload.value.id;
        const follower = c.resubscribeTask({ id: taskId });
        const first = await follower.next();
        resubscribed = [StreamResponse.toJSON(first.value)];
        canceled = Task.toJSON(await c.cancelTask({ id: taskId }));
        for await (const e of follower) resubscribed.push(StreamResponse.toJSON(e));
      }
    });
    let again;
    try {
      await c.cancelTask({ id: canceled.id });
    } catch (e) {
      again = failure(e);
    }
    return { canceled, events, resubscribed, cancelAgain: again };
  },

  // a polling client (returnImmediately): the task comes back working while the model holds, then is cancelled
  async polling() {
    const c = await client(input.token, input.cardPath, { polling: true });
    const started = Task.toJSON(await c.sendMessage({ message: message(input.text) }));
    const got = Task.toJSON(await c.getTask({ id: started.id }));
    const canceled = Task.toJSON(await c.cancelTask({ id: started.id }));
    return { started, got, canceled };
  },

  // a message that pauses for approval, answered on its task with a text or a data part
  async approval() {
    const c = await client(input.token, input.cardPath);
    const paused = Task.toJSON(await c.sendMessage({ message: message(input.text) }));
    let unclear;
    try {
      await c.sendMessage({ message: message('maybe later', { contextId: paused.contextId, taskId: paused.id }) });
    } catch (e) {
      unclear = failure(e);
    }
    const answer = input.answerData !== undefined
      ? message(undefined, { contextId: paused.contextId, taskId: paused.id, data: input.answerData })
      : message(input.answerText, { contextId: paused.contextId, taskId: paused.id });
    if (input.streamAnswer) {
      const events = await stream(c, answer);
      const got = Task.toJSON(await c.getTask({ id: paused.id }));
      return { paused, unclear, events, got };
    }
    const answered = Task.toJSON(await c.sendMessage({ message: answer }));
    const got = Task.toJSON(await c.getTask({ id: paused.id }));
    return { paused, unclear, answered, got };
  },

  // one call as whoever the token says (none: no Authorization header)
  async call() {
    const c = await client(input.token, input.cardPath);
    try {
      if (input.getTask) return wireResult(await c.getTask({ id: input.getTask }));
      if (input.cancelTask) return wireResult(await c.cancelTask({ id: input.cancelTask }));
      return wireResult(await c.sendMessage({ message: message(input.text, { contextId: input.contextId }) }));
    } catch (e) {
      return failure(e);
    }
  },
};

try {
  const out = await scenarios[scenario]();
  process.stdout.write(JSON.stringify(out));
} catch (e) {
  process.stdout.write(JSON.stringify(failure(e)));
}
