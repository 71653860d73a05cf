/** A real `lab serve` server in-process (shipped model, worker thread) on a free port. */
import { after, before } from 'node:test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resourcePath } from '../../main/paths.ts';
import { ModelWorker } from '../../main/llm/model-worker.ts';
import { ChatServer } from '../../main/llm/serve.ts';

export const SHIPPED = resourcePath('models', 'sdsat-ts');
export const MODEL_NAME = 'sdsat-ts';

export interface ServedModel {
  worker: ModelWorker;
  server: ChatServer;
  /** Base URL with /v1, as OpenAI clients take it. */
  baseUrl: string;
  port: number;
  /** Every request body the server received, in order (for checks on the agent's prompts). */
  bodies: unknown[];
}

export function useServedModel(ready: (s: ServedModel) => void, opts: { decode?: 'ar' | 'sdsat' } = {}): void {
  let served: ServedModel | null = null;
  before(async () => {
    const worker = await ModelWorker.start({ dir: SHIPPED, decode: opts.decode ?? 'sdsat' });
    const bodies: unknown[] = [];
    const server = new ChatServer({ worker, modelName: MODEL_NAME, onRequest: (b) => bodies.push(b) });
    const url = await server.listen(0);
    served = { worker, server, baseUrl: `${url}/v1`, port: server.port!, bodies };
    ready(served);
  });
  after(async () => {
    await served?.server.close();
    await served?.worker.close();
  });
}

/** Read a server-sent-event stream into its `data:` payloads. */
export async function readSse(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      if (!block.startsWith('data: ')) throw new Error(`not an SSE data event: ${block}`);
      return block.slice('data: '.length);
    });
}

export interface ScriptedEndpoint {
  /** Replies handed out in order: a completion text (status 200) or an error status and message. */
  replies: Array<{ status: number; text: string }>;
  bodies: any[];
  baseUrl: string;
}

/**
 * A real HTTP server speaking the chat-completions shape with scripted answers, for outputs the
 * shipped code model cannot write (well-formed actions, diagnoses) and for error statuses.
 */
export function useScriptedEndpoint(ready: (e: ScriptedEndpoint) => void): void {
  let http: Server;
  before(async () => {
    const e: ScriptedEndpoint = { replies: [], bodies: [], baseUrl: '' };
    http = createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        e.bodies.push(JSON.parse(data));
        const r = e.replies.shift() ?? { status: 500, text: 'no scripted reply' };
        res.writeHead(r.status, { 'content-type': 'application/json' });
        if (r.status !== 200) return res.end(JSON.stringify({ error: { message: r.text, type: 'invalid_request_error', param: null, code: null } }));
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'scripted', choices: [{ index: 0, message: { role: 'assistant', content: r.text }, finish_reason: 'stop' }], usage: { prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 } }));
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    e.baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
    ready(e);
  });
  after(() => new Promise<void>((r) => http.close(() => r())));
}
