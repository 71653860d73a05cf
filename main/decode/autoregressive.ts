/** Plain autoregressive decoding with a KV cache: one forward pass per token. The baseline. */
import type { TransformerLM } from '../models/model.ts';
import { Rng } from '../common/rng.ts';
import { closeCache, Emitter, openCache } from './generation.ts';
import { emptyStats, type Decoder, type GenerateOptions, type GenerateResult } from './types.ts';
import { Chooser } from './verify.ts';

export class AutoregressiveDecoder implements Decoder {
  readonly mode = 'ar';

  constructor(private readonly model: TransformerLM) {}

  async generate(promptIds: readonly number[], options: GenerateOptions): Promise<GenerateResult> {
    const { model } = this;
    const pick = new Chooser(options.sampling ?? { kind: 'greedy' }, model.config.vocabSize, new Rng(options.seed ?? 0), options.constraint);
    const stats = emptyStats(this.mode, promptIds.length);
    const { cache, pending: first } = openCache(model, promptIds, options, stats);
    try {
      let pending = first;
      const out = new Emitter(options);
      const start = performance.now();
      while (!out.done && cache.length + 1 <= model.config.ctx) {
        const { logits } = model.forward([[pending]], cache, true);
        stats.forwardPasses++;
        stats.loops++;
        pending = pick.choose(logits, 0, out.tokens);
        if (!out.push(pending)) break;
        const wait = out.loopEnded();
        if (wait) await wait;
      }
      return out.result(stats, start);
    } finally {
      closeCache(cache, promptIds, options);
    }
  }
}
