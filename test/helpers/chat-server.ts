/**
 * A real HTTP server that speaks the OpenAI /v1/chat/completions protocol (non-streaming) with
 * scripted replies, and records every request body so tests can check what was asked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }>;
  [key: string]: unknown;
}

/** A scripted reply: the assistant's text, or an HTTP error. */
export type Reply = string | { status: number; message: string };

export interface ChatServer {
  /** Base URL including /v1, as the client expects. */
  baseUrl: string;
  requests: ChatRequestBody[];
  /** Change the script between tests. */
  script: (body: ChatRequestBody, index: number) => Reply;
  close(): Promise<void>;
}

export async function startChatServer(script: ChatServer['script']): Promise<ChatServer> {
  const state: ChatServer = { baseUrl: '', requests: [], script, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
      let body: ChatRequestBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'malformed JSON' } }));
      }
      if (body.stream) return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'this fixture does not stream' } }));
      const index = state.requests.push(body) - 1;
      const reply = state.script(body, index);
      if (typeof reply !== 'string') return void res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: reply.message } }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-fixture-${index}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: reply.split(/\s+/).length, total_tokens: 100 + reply.split(/\s+/).length },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}

/** All text of a request's messages, joined. */
export function textOf(body: ChatRequestBody): string {
  return body.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('\n'))).join('\n');
}

/** The image URLs of a request, in order. */
export function imagesOf(body: ChatRequestBody): string[] {
  return body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.flatMap((p) => (p.image_url ? [p.image_url.url] : []))));
}
