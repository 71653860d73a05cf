/** `lab serve --model DIR`: a workbench model as an OpenAI-compatible chat-completions server. */
import type { Command } from 'commander';
import { basename, resolve } from 'node:path';
import { DECODE_MODES, type DecodeMode } from '../../decode/types.ts';
import { intOption, withCleanup } from '../runtime.ts';
import { SHIPPED_MODEL } from '../../decode/models.ts';

interface ServeFlags {
  model: string;
  name?: string;
  port: number;
  host: string;
  decode?: string;
  backend?: string;
  quiet?: boolean;
  apiKey?: string;
  allowOrigin?: string[];
  promptCache: number;
}

/** An origin as browsers send it: scheme://host[:port], no path (a trailing slash is forgiven). */
function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--allow-origin: "${value}" is not an origin (expected e.g. http://127.0.0.1:5173)`);
  }
  if (url.origin === 'null' || value.replace(/\/$/, '') !== url.origin) throw new Error(`--allow-origin: "${value}" is not an origin (expected scheme://host[:port], like ${url.origin})`);
  return url.origin;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve a workbench model as an OpenAI-compatible API (POST /v1/chat/completions, GET /v1/models, GET /health); one request at a time, in order')
    .option('--model <dir>', 'model folder', SHIPPED_MODEL)
    .option('--name <id>', 'model id clients send as `model` (default: the folder name)')
    .option('--port <n>', 'port (0: any free port)', intOption('--port', 0), 8000)
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .option('--decode <mode>', `decoder: ${DECODE_MODES.join(' | ')} (default: the fastest exact mode of the benchmark the model folder ships, lookup-tree without one)`)
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .option('--api-key <key>', 'require this bearer key on /v1 routes (default $LAB_SERVE_KEY; none: open to anyone who can reach the port)')
    .option('--allow-origin <origin>', 'let web pages of this origin call the server, with CORS headers (repeatable); requests from any other page (an Origin header that is not the server\'s own) are refused', (v: string, acc: string[] = []) => [...acc, parseOrigin(v)])
    .option('--prompt-cache <n>', 'keep the KV caches of the last n prompts, so a request that starts like one of them prefills only the rest (0: off)', intOption('--prompt-cache', 0), 4)
    .option('--quiet', 'no per-request log lines')
    .action(async (o: ServeFlags) => {
      if (o.decode !== undefined && !DECODE_MODES.includes(o.decode as DecodeMode)) throw new Error(`--decode must be one of ${DECODE_MODES.join(', ')}, got "${o.decode}"`);
      // Loaded here, not at start-up: the model worker and the server.
      const [{ isCheckpoint }, { ModelWorker }, { ChatServer }, { defaultDecoder }] = await Promise.all([
        import('../../models/checkpoint.ts'), import('../../llm/model-worker.ts'), import('../../llm/serve.ts'), import('../../decode/default-mode.ts'),
      ]);
      const dir = resolve(o.model);
      if (!isCheckpoint(dir)) throw new Error(`--model: no model checkpoint in ${dir} (model.json and weights.bin)`);
      const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
      const decode = o.decode ? { mode: o.decode as DecodeMode, k: undefined } : defaultDecoder(dir);
      const worker = await ModelWorker.start({ dir, decode: decode.mode, k: decode.k, backend: o.backend, promptCache: o.promptCache });
      const apiKey = o.apiKey ?? (process.env.LAB_SERVE_KEY || undefined);
      const server = new ChatServer({ worker, modelName: o.name ?? basename(dir), apiKey, allowOrigins: o.allowOrigin ?? [], log: o.quiet ? undefined : log });
      if (!apiKey && o.host !== '127.0.0.1' && o.host !== 'localhost') log(`warning: listening on ${o.host} without --api-key: anyone who can reach the port can use the model`);
      await withCleanup([() => worker.close(), () => server.close()], async (signal) => {
        const url = await server.listen(o.port, o.host);
        const { info } = worker;
        // The first stdout line is the base URL, so scripts and tests can read where it listens.
        process.stdout.write(`${url}/v1\n`);
        log(`serving ${o.name ?? basename(dir)} (${info.decode} decoding on ${info.backend}, context ${info.ctx} tokens, ${info.promptCache ? `prompt cache of ${info.promptCache}` : 'no prompt cache'}) at ${url}/v1; Ctrl-C stops`);
        await new Promise<void>((done) => signal.addEventListener('abort', () => done(), { once: true }));
      });
    });
}
