/**
 * The decoding dashboard's side of the service: the shipped SDSAT model, loaded once; benchmark
 * reports (the one shipped with the model and every run started from the app, saved under
 * lab/bench/decode/); benchmark runs and live decodes with progress events and cancel.
 *
 * Decoding is synchronous TensorFlow.js work on the service's thread, so long runs yield to the
 * event loop between generations (bench) or every few loops (live decode), outside what they time
 * as far as possible, so that events reach the UI and a cancel is heard. One run at a time: two
 * interleaved decodes would each report the other's time as their own.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { timeStamp } from '../store/stamped-id.ts';
import { PROJECT_ROOT, resourcePath } from '../paths.ts';
import { SHIPPED_MODEL, type DecodingModel } from '../decode/models.ts';
import { writeFileAtomic } from '../store/json-file.ts';
import { END_OF_TEXT } from '../models/tokenizer.ts';
import { DEFAULT_BENCH_MODES, summarize, type DecodeMode, type Sampling, type TokenSource } from '../decode/types.ts';
import { readBenchReport, type BenchReport } from '../decode/bench-report.ts';
import { readSizeCurveReport } from '../decode/size-curve-report.ts';
import { DEFAULT_PROMPTS, readPrompts } from '../decode/prompts.ts';
import { defaultDecoder } from '../decode/default-mode.ts';
// TF.js, the model and the decoders load on first use (../decode/index.ts, ../decode/bench.ts), not with the
// service: `lab web` starts without them.
import type { BenchEntry, ReportEntry, SizeCurveEntry, DecodeBenchRequest, DecodeInfo, LiveDecodeRequest, LiveDecodeResult } from '../../preload/api.ts';
import { labPaths } from '../store/layout.ts';
import type { Emit } from './lab-parts.ts';
import { modelFiles } from '../store/lab-files.ts';

const YIELD_EVERY_MS = 25;
/** The size curve measured on the shipped model family (`lab bench sizes --out`, docs/benchmarks.md). */
export const SHIPPED_SIZE_CURVE = resourcePath('models', 'bench-sizes.json');
type RunDecodeBench = typeof import('../decode/bench.ts').runDecodeBench;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class DecodingLab {
  private model: Promise<DecodingModel & { runDecodeBench: RunDecodeBench }> | null = null;
  private running: { id: string; kind: 'bench' | 'decode'; controller: AbortController } | null = null;

  constructor(
    private readonly labDir: string,
    private readonly emit: Emit,
    private readonly opts: { modelDir?: string; backend?: string } = {},
  ) {}

  private get modelDir(): string {
    return this.opts.modelDir ?? SHIPPED_MODEL;
  }

  private get benchDir(): string {
    return labPaths.decodeBenchmarks(this.labDir);
  }

  private load() {
    this.model ??= (async () => {
      const [{ openDecodingModel }, { runDecodeBench }] = await Promise.all([import('../decode/models.ts'), import('../decode/bench.ts')]);
      return { ...(await openDecodingModel(this.modelDir, { backend: this.opts.backend, requireSat: true })), runDecodeBench };
    })();
    this.model.catch(() => (this.model = null));
    return this.model;
  }

  async info(): Promise<DecodeInfo> {
    const { loaded, backend } = await this.load();
    return {
      model: relative(PROJECT_ROOT, this.modelDir) || this.modelDir,
      backend: backend.id,
      sat: loaded.sat!,
      ctx: loaded.model.config.ctx,
      prompts: readPrompts(DEFAULT_PROMPTS),
      running: this.running ? { id: this.running.id, kind: this.running.kind } : null,
      defaultMode: (({ mode, k, why }) => ({ mode, k: k ?? null, why }))(defaultDecoder(this.modelDir)),
    };
  }

  /** The shipped report first, then the app's runs, newest first; unreadable files are listed as errors. */
  listBenches(): { benches: BenchEntry[]; errors: string[] } {
    const { entries, errors } = listReports(modelFiles(this.modelDir).benchDecode, this.benchDir, readBenchReport);
    return { benches: entries, errors };
  }

  /** The size curve shipped beside the models, then the lab's `bench sizes` runs, newest first; unreadable files are listed as errors. */
  listSizeCurves(): { curves: SizeCurveEntry[]; errors: string[] } {
    const { entries, errors } = listReports(SHIPPED_SIZE_CURVE, labPaths.sizeCurves(this.labDir), readSizeCurveReport);
    return { curves: entries, errors };
  }

  async startBench(req: DecodeBenchRequest): Promise<{ benchId: string }> {
    const { loaded, backend, runDecodeBench } = await this.load();
    const sat = loaded.sat!;
    const ks = checkKs(req.ks, sat.k);
    const modes = req.modes ?? [...DEFAULT_BENCH_MODES];
    const maxNew = checkInt(req.maxNew, 'maxNew', 1, loaded.model.config.ctx);
    const all = readPrompts(DEFAULT_PROMPTS);
    const prompts = all.slice(0, checkInt(req.prompts ?? all.length, 'prompts', 1, all.length));
    const sampling = withDefaults(req.sampling);
    const repeats = req.repeats ?? 3;
    const run = this.claim('bench');
    const benchId = run.id;
    // Start after the reply has gone out, so the caller knows the id before the first event.
    yieldToEventLoop().then(() => runDecodeBench(loaded, { prompts, ks, modes, sampling, maxNew, seed: req.seed ?? 0, repeats }, {
      stopped: () => run.controller.signal.aborted,
      onProgress: (done, total) => this.emit('decodeBenchProgress', { benchId, done, total }),
      between: yieldToEventLoop,
    }))
      .then((r) => {
        const report: BenchReport = {
          backend: backend.id, model: relative(PROJECT_ROOT, this.modelDir), sat, sampling, maxNew,
          promptsFile: relative(PROJECT_ROOT, DEFAULT_PROMPTS), ...r,
        };
        mkdirSync(this.benchDir, { recursive: true });
        const stamp = timeStamp();
        const id = `${stamp}-${benchId}`;
        const path = join(this.benchDir, `${id}.json`);
        writeFileAtomic(path, JSON.stringify(report, null, 2) + '\n');
        this.release(run);
        this.emit('decodeBenchDone', { benchId, entry: { id, source: 'run', path, report } });
      }, (err: Error) => {
        this.release(run);
        this.emit('decodeBenchDone', { benchId, entry: null, error: err.message });
      })
      .finally(() => this.release(run));
    return { benchId };
  }

  /**
   * AR, then the SDSAT mode, on the same prompt with the same sampling and seed. Tokens stream
   * as decodeLoop events (one per loop, with each token's source); each decoder ends with a
   * decodeDone event carrying its full result.
   */
  async startLive(req: LiveDecodeRequest): Promise<{ decodeId: string }> {
    const { loaded, createDecoder } = await this.load();
    const { tokenizer, model } = loaded;
    const mode: DecodeMode = req.mode ?? defaultDecoder(this.modelDir).mode;
    const k = checkKs([req.k], loaded.sat!.k)[0];
    const maxNew = checkInt(req.maxNew, 'maxNew', 1, model.config.ctx);
    const sampling = withDefaults(req.sampling);
    const ids = tokenizer.encode(req.prompt);
    if (ids.length >= model.config.ctx) throw new Error(`prompt: ${ids.length} tokens leave no room in the model's context of ${model.config.ctx}`);
    const run = this.claim('decode');
    const decodeId = run.id;
    const stop = tokenizer.specialId(END_OF_TEXT);
    const piece = (id: number) => tokenizer.decode([id]);

    const decodeOne = async (m: DecodeMode, final: boolean) => {
      const decoder = createDecoder(loaded, m, k);
      let batch: Array<{ text: string; source: TokenSource }> = [];
      let lastYield = performance.now();
      const start = performance.now();
      try {
        const r = await decoder.generate(ids, {
          maxNew,
          sampling,
          seed: req.seed ?? 0,
          stopTokens: [stop],
          onToken: (id, source) => batch.push({ text: piece(id), source }),
          onLoop: (emitted) => {
            if (run.controller.signal.aborted) throw new Error('cancelled');
            this.emit('decodeLoop', { decodeId, mode: m, emitted, elapsedMs: performance.now() - start, tokens: batch });
            batch = [];
            if (performance.now() - lastYield < YIELD_EVERY_MS) return;
            return yieldToEventLoop().then(() => void (lastYield = performance.now()));
          },
        });
        if (batch.length) this.emit('decodeLoop', { decodeId, mode: m, emitted: r.tokens.length, elapsedMs: performance.now() - start, tokens: batch });
        const result: LiveDecodeResult = {
          mode: m,
          k: m === 'ar' ? 0 : k,
          text: tokenizer.decode(r.tokens),
          tokens: r.tokens.map((id, i) => ({ text: piece(id), source: r.provenance![i] })),
          stoppedBy: r.stoppedBy,
          stats: r.stats,
          summary: summarize(r.stats),
        };
        // Free the slot before saying so: a listener may start the next run at once.
        if (final) this.release(run);
        this.emit('decodeDone', { decodeId, mode: m, final, result });
        return true;
      } catch (err) {
        this.release(run);
        this.emit('decodeDone', { decodeId, mode: m, final: true, result: null, error: (err as Error).message });
        return false;
      }
    };
    (async () => {
      await yieldToEventLoop(); // reply first, so the caller knows the id before the first event
      // Untimed warm-up of both decoders (first calls compile kernels and grow buffers), as the
      // benchmark does: otherwise AR, which runs first, pays for it and SDSAT looks faster than it is.
      try {
        for (const m of ['ar', mode] as const) await createDecoder(loaded, m, k).generate(ids, { maxNew: Math.min(8, maxNew), sampling, seed: req.seed ?? 0 });
      } catch (err) {
        this.release(run);
        this.emit('decodeDone', { decodeId, mode: 'ar', final: true, result: null, error: (err as Error).message });
        return;
      }
      if (await decodeOne('ar', false)) await decodeOne(mode, true);
    })().finally(() => this.release(run));
    return { decodeId };
  }

  cancel(id: string): void {
    if (this.running?.id === id) this.running.controller.abort();
  }

  private claim(kind: 'bench' | 'decode') {
    if (this.running) throw new Error(`a ${this.running.kind === 'bench' ? 'benchmark' : 'live decode'} is running; cancel it or wait for it to end`);
    this.running = { id: randomBytes(6).toString('hex'), kind, controller: new AbortController() };
    return this.running;
  }

  private release(run: { id: string }): void {
    if (this.running?.id === run.id) this.running = null;
  }

  close(): void {
    this.running?.controller.abort();
  }
}

function checkInt(v: unknown, field: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new Error(`${field} must be an integer in ${min}..${max}, got ${JSON.stringify(v)}`);
  return v;
}

function checkKs(ks: unknown, trained: number): number[] {
  if (!Array.isArray(ks) || !ks.length) throw new Error(`k: give at least one draft length in 1..${trained}`);
  return ks.map((k) => checkInt(k, 'k', 1, trained));
}

/** The request's sampling with its defaults filled in (its shape was checked by main/server/params.ts). */
function withDefaults(s: Sampling | undefined): Sampling {
  if (!s || s.kind === 'greedy') return { kind: 'greedy' };
  return { kind: 'nucleus', topP: s.topP, temperature: s.temperature, acceptance: s.acceptance ?? 'speculative' };
}

/**
 * Reports of one kind: the shipped file (if there is one) first, then the JSON files of a lab
 * folder, newest first (their names start with a time stamp). A file that does not read is an
 * error naming it, not a crash.
 */
function listReports<R>(shipped: string, runsDir: string, read: (path: string) => R): { entries: ReportEntry<R>[]; errors: string[] } {
  const entries: ReportEntry<R>[] = [];
  const errors: string[] = [];
  const add = (id: string, source: ReportEntry<R>['source'], path: string) => {
    try {
      entries.push({ id, source, path: relative(PROJECT_ROOT, path).startsWith('..') ? path : relative(PROJECT_ROOT, path), report: read(path) });
    } catch (err) {
      errors.push((err as Error).message);
    }
  };
  if (existsSync(shipped)) add('shipped', 'shipped', shipped);
  if (existsSync(runsDir)) {
    for (const f of readdirSync(runsDir).filter((f) => f.endsWith('.json')).sort().reverse()) add(f.replace(/\.json$/, ''), 'run', join(runsDir, f));
  }
  return { entries, errors };
}
