// The official `openai` JavaScript client against Baton's OpenAI-compatible door.
// Usage: node chat-client.mjs <baseURL> <apiKey> <scenario> [json argument]; prints one JSON line.
import OpenAI from 'openai';

const [baseURL, apiKey, scenario, arg] = process.argv.slice(2);
// no retries: a 429 must reach the test as it was answered
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
const input = arg ? JSON.parse(arg) : {};

function failure(e) {
  return { failed: true, status: e.status ?? null, error: e.error ?? null,
           retryAfter: e.headers?.get?.('retry-after') ?? null, name: e.constructor?.name ?? null };
}

async function chat(messages, extra = {}) {
  const { data, response } = await client.chat.completions
    .create({ model: input.model ?? 'tasks', messages, ...extra })
    .withResponse();
  return { completion: data, conversationId: response.headers.get('x-conversation-id') };
}

async function run() {
  switch (scenario) {
    case 'models': {
      const ids = [];
      for await (const model of client.models.list()) ids.push(model);
      return { models: ids };
    }
    case 'chat':
      return chat([{ role: 'user', content: input.message }]);
    case 'two-turns': {
      const history = [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: input.first }];
      const first = await chat(history);
      history.push(first.completion.choices[0].message, { role: 'user', content: input.second });
      const second = await chat(history);
      return { first, second };
    }
    case 'stream': {
      const { data: stream, response } = await client.chat.completions
        .create({ model: 'tasks', messages: [{ role: 'user', content: input.message }], stream: true,
                  stream_options: { include_usage: true } })
        .withResponse();
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      const text = chunks.flatMap(c => c.choices).map(c => c.delta?.content ?? '').join('');
      const streamed = { chunks, text, conversationId: response.headers.get('x-conversation-id') };
      if (!input.then) return streamed;
      // the streamed answer, as the client holds it, continues the conversation
      const next = await chat([{ role: 'user', content: input.message }, { role: 'assistant', content: text },
                               { role: 'user', content: input.then }]);
      return { ...streamed, next };
    }
    case 'stream-fails': {
      // the model fails after the stream began: the client raises the error event
      const stream = await client.chat.completions.create({
        model: 'tasks', messages: [{ role: 'user', content: input.message }], stream: true });
      const chunks = [];
      try {
        for await (const chunk of stream) chunks.push(chunk);
      } catch (e) {
        return { chunks, raised: { name: e.constructor?.name ?? null, message: e.message, error: e.error ?? null } };
      }
      return { chunks, raised: null };
    }
    case 'chats': {
      // several one-message chats in a row, each answered or refused
      const results = [];
      for (let i = 0; i < input.count; i++) {
        try {
          results.push(await chat([{ role: 'user', content: input.message }]));
        } catch (e) {
          if (e.status === undefined) throw e;
          results.push(failure(e));
        }
      }
      return { results };
    }
    default:
      throw new Error('unknown scenario ' + scenario);
  }
}

try {
  console.log(JSON.stringify(await run()));
} catch (e) {
  if (e.status === undefined) throw e;
  console.log(JSON.stringify(failure(e)));
}
