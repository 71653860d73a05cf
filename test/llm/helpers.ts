/** A real `lab serve` server in-process (shipped model, worker thread) on a free port. */
import { after, before } from 'node:test';
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
