/** `lab decode "PROMPT"`: generate with a trained model, print the text and the speed figures. */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { DECODE_MODES, type DecodeMode } from '../../decode/types.ts';
import { SHIPPED_MODEL } from '../../decode/models.ts';
import { addSamplingOptions, parseSampling, type SamplingOpts, int } from '../runtime.ts';
import { forTerminal } from '../terminal.ts';

export function registerDecodeCommands(program: Command): void {
  addSamplingOptions(program.command('decode').description('generate a continuation of PROMPT and report decoding speed').argument('<prompt>'))
    .option('--model <dir>', 'model folder', SHIPPED_MODEL)
    .option('--mode <mode>', 'ar (autoregressive), sdsat (two passes per loop), sdsat-one-pass, lookup (drafts copied from the context, verified in one pass; any model), sdsat-lookup (copied drafts where there are any, else SATs), sdsat-tree or lookup-tree (several candidates verified at once under a tree mask), merged-tree (SAT candidates and copied continuations in one tree); default: the fastest exact mode of the benchmark the model folder ships (bench-decode.json), lookup-tree without one')
    .option('--k <n>', 'drafts per loop (default: the trained block length; lookup without SATs: 4)')
    .option('--max-new <n>', 'tokens to generate', '64')
    .option('--seed <n>', 'sampling seed', '0')
    .option('--backend <id>', 'TensorFlow.js backend (default: best available)')
    .option('--json', 'print JSON')
    .action(async (prompt: string, o: SamplingOpts & { model: string; mode?: string; k?: string; maxNew: string; seed: string; backend?: string; json?: boolean }) => {
      if (o.mode !== undefined && !DECODE_MODES.includes(o.mode as DecodeMode)) throw new Error(`--mode must be one of ${DECODE_MODES.join(', ')}`);
      // Loaded here, not at start-up: the model and TF.js.
      const [{ openDecodingModel }, { END_OF_TEXT }, { summarize }, { defaultDecoder }] = await Promise.all([
        import('../../decode/models.ts'), import('../../models/tokenizer.ts'), import('../../decode/index.ts'), import('../../decode/default-mode.ts'),
      ]);
      const { backend, loaded, createDecoder } = await openDecodingModel(resolve(o.model), { backend: o.backend });
      const chosen = o.mode ? { mode: o.mode as DecodeMode, k: undefined } : defaultDecoder(resolve(o.model));
      const decoder = createDecoder(loaded, chosen.mode, o.k ? int(o.k) : chosen.k);
      const ids = loaded.tokenizer.encode(prompt.replace(/\\n/g, '\n'));
      const streamed: number[] = [];
      // The prompt first (dimmed on a terminal), so the continuation reads in place.
      if (!o.json) {
        const shown = forTerminal(prompt.replace(/\\n/g, '\n'), { multiline: true });
        process.stdout.write(process.stdout.isTTY ? `\x1b[2m${shown}\x1b[0m` : shown);
      }
      const result = await decoder.generate(ids, {
        maxNew: int(o.maxNew),
        sampling: parseSampling(o),
        seed: int(o.seed),
        stopTokens: [loaded.tokenizer.specialId(END_OF_TEXT)],
        onToken: o.json ? undefined : (id) => {
          // Stream whole characters only: a token may end inside a multi-byte UTF-8 sequence.
          streamed.push(id);
          const text = loaded.tokenizer.decode(streamed);
          if (!text.endsWith('\uFFFD')) {
            process.stdout.write(forTerminal(text, { multiline: true }));
            streamed.length = 0;
          }
        },
      });
      const figures = { backend: backend.id, mode: decoder.mode, ...summarize(result.stats), stats: result.stats, stoppedBy: result.stoppedBy };
      if (o.json) {
        process.stdout.write(JSON.stringify({ prompt, text: loaded.tokenizer.decode(result.tokens), tokens: result.tokens, ...figures }, null, 2) + '\n');
        return;
      }
      if (streamed.length) process.stdout.write(loaded.tokenizer.decode(streamed));
      const f = figures;
      process.stdout.write(`\n\n[${f.mode} on ${f.backend}] ${result.stats.newTokens} tokens, ${f.tokensPerSec.toFixed(1)} tok/s, `
        + `${f.forwardPassesPerToken.toFixed(2)} forward passes/token, ${f.msPerLoop.toFixed(2)} ms/loop`
        + (f.meanAcceptanceLength !== null ? `, mean acceptance length ${f.meanAcceptanceLength.toFixed(2)}` : '') + '\n');
    });
}
