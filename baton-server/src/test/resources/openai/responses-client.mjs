// The official `openai` JavaScript client against Baton's Responses API.
// Usage: node responses-client.mjs <baseURL> <apiKey> <scenario> [json argument]; prints one JSON line.
import OpenAI from 'openai';

const [baseURL, apiKey, scenario, arg] = process.argv.slice(2);
const client = new OpenAI({ baseURL, apiKey, maxRetries: 0 });
const input = arg ? JSON.parse(arg) : {};

async function run() {
  switch (scenario) {
    case 'two-turns': {
      const first = await client.responses.create({ model: 'tasks', input: input.first });
      const second = await client.responses.create({ model: 'tasks', previous_response_id: first.id, input: input.second });
      const retrieved = await client.responses.retrieve(first.id);
      return { first, firstText: first.output_text, second, secondText: second.output_text, retrieved,
               retrievedText: retrieved.output_text };
    }
    case 'stream': {
      const stream = await client.responses.create({ model: 'tasks', input: input.message, stream: true });
      const events = [];
      for await (const event of stream) events.push(event);
      return { events };
    }
    case 'approval': {
      const asked = await client.responses.create({ model: 'tasks', input: input.message });
      const request = asked.output.find(item => item.type === 'mcp_approval_request');
      if (!request) return { asked };
      const pausedRead = await client.responses.retrieve(asked.id);
      const answered = await client.responses.create({
        model: 'tasks', previous_response_id: asked.id,
        input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: input.approve }],
      });
      return { asked, request, pausedRead, answered, answeredText: answered.output_text };
    }
    case 'stream-approval': {
      // the same round trip, both requests streamed
      const collect = async (params) => {
        const events = [];
        for await (const event of await client.responses.create({ ...params, stream: true })) events.push(event);
        return events;
      };
      const asked = await collect({ model: 'tasks', input: input.message });
      const created = asked.find(e => e.type === 'response.created').response;
      const request = asked.filter(e => e.type === 'response.output_item.done').map(e => e.item)
        .find(item => item.type === 'mcp_approval_request');
      if (!request) return { asked };
      const answered = await collect({
        model: 'tasks', previous_response_id: created.id,
        input: [{ type: 'mcp_approval_response', approval_request_id: request.id, approve: true }],
      });
      return { asked, request, answered, completed: answered.at(-1) };
    }
    case 'retrieve':
      return { retrieved: await client.responses.retrieve(input.id) };
    default:
      throw new Error('unknown scenario ' + scenario);
  }
}

try {
  console.log(JSON.stringify(await run()));
} catch (e) {
  if (e.status === undefined) throw e;
  console.log(JSON.stringify({ failed: true, status: e.status, error: e.error ?? null }));
}
