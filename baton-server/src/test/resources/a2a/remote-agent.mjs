// A remote A2A agent built with the official A2A JS SDK's server side (1.x) on express, for Baton to call as a tool.
// It answers every message with a completed task whose artifact says what it got: the text, the X-Remote-Key header
// and whether an Authorization header came along. Prints {"port": N} once listening, then one JSON line per request.
import express from 'express';
import { AgentCard, Message, Task } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, jsonRpcHandler } from '@a2a-js/sdk/server/express';

let lastHeaders = {};

const card = AgentCard.fromJSON({
  name: 'Weather',
  description: 'Answers questions about the weather',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'http://127.0.0.1/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: false, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'weather', name: 'weather', description: 'The weather anywhere', tags: ['weather'] }],
});

const executor = {
  async execute(ctx, bus) {
    const text = ctx.userMessage.parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join(' ');
    if (text.includes('somewhere')) {
      // not enough to go on: the task waits for the user's input
      bus.publish(
        AgentEvent.task(
          Task.fromJSON({
            id: ctx.taskId,
            contextId: ctx.contextId,
            status: {
              state: 'TASK_STATE_INPUT_REQUIRED',
              message: { messageId: 'q1', role: 'ROLE_AGENT', parts: [{ text: 'Which city do you mean?' }] },
            },
          }),
        ),
      );
      bus.finished();
      return;
    }
    if (text.includes('hello')) {
      // a plain reply, no task
      bus.publish(
        AgentEvent.message(
          Message.fromJSON({ messageId: 'r1', role: 'ROLE_AGENT', contextId: ctx.contextId, parts: [{ text: 'Hello from the weather agent' }] }),
        ),
      );
      bus.finished();
      return;
    }
    const city = (text.match(/in (\w+)/) ?? [])[1] ?? 'nowhere';
    const answer = `Sunny in ${city} (key=${lastHeaders['x-remote-key'] ?? 'none'}, auth=${lastHeaders.authorization ? 'present' : 'none'})`;
    bus.publish(
      AgentEvent.task(
        Task.fromJSON({
          id: ctx.taskId,
          contextId: ctx.contextId,
          status: { state: 'TASK_STATE_COMPLETED' },
          artifacts: [{ artifactId: 'forecast', parts: [{ text: answer }] }],
        }),
      ),
    );
    bus.finished();
  },
  async cancelTask() {},
};

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
const app = express();
app.use((req, _res, next) => {
  lastHeaders = req.headers;
  process.stdout.write(JSON.stringify({ request: req.path, remoteKey: req.headers['x-remote-key'] ?? null }) + '\n');
  next();
});
app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
