/**
 * Parsers for the public web-agent benchmarks' task files, into one imported-task shape.
 * Every row is validated where it enters: a malformed row is refused with its file, its row
 * number and the field, never skipped, so an import is all of the file or nothing.
 *
 *   WebVoyager       JSON Lines: {"web_name", "id", "ques", "web"}; row = line number
 *   Online-Mind2Web  a JSON array of {"task_id", "website", "task_description", "reference_length"};
 *                    row = position in the array (1-based)
 *   WebTailBench     TSV with a header: benchmark (segment), id, task_summary; row = line number
 */
import { z } from 'zod';
import type { Tier } from '../types.ts';
import { maxStepsForTier } from '../server.ts';

export const IMPORT_FORMATS = ['webvoyager', 'mind2web', 'webtailbench'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const importedTaskSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  /** The benchmark's own task id. */
  id: z.string().min(1),
  instruction: z.string().min(1),
  /** Where the episode starts: a page on the live web. */
  startUrl: z.string(),
  /** Website name (WebVoyager's web_name, the host for the others). */
  site: z.string(),
  tier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** The benchmark's own step budget where it has one. */
  maxSteps: z.number().int().min(1),
  /** Online-Mind2Web: steps a person needed. */
  referenceLength: z.number().int().min(1).optional(),
  /** WebTailBench: the segment (shopping, flights, ...). */
  segment: z.string().optional(),
  /** Where the row came from, for error messages and provenance. */
  file: z.string(),
  row: z.number().int().min(1),
});
export type ImportedTask = z.infer<typeof importedTaskSchema>;

export class ImportError extends Error {
  constructor(
    readonly file: string,
    readonly row: number,
    readonly field: string | null,
    readonly detail: string,
  ) {
    super(`${file}: row ${row}${field ? `: field "${field}"` : ''}: ${detail}`);
    this.name = 'ImportError';
  }
}

/** WebVoyager's protocol: at most 15 actions. WebTailBench's: at most 100. */
export const WEBVOYAGER_MAX_STEPS = 15;
export const WEBTAILBENCH_MAX_STEPS = 100;
/** WebTailBench ships no start URL; its tasks start from a search engine's home page. */
export const WEBTAILBENCH_DEFAULT_START = 'https://www.bing.com/';

export interface ImportOptions {
  /** WebTailBench: the page every task starts on (the TSV has no start URL). */
  startUrl?: string;
}

export function parseImportFile(format: ImportFormat, file: string, text: string, options: ImportOptions = {}): ImportedTask[] {
  const tasks = format === 'webvoyager' ? parseWebVoyager(file, text) : format === 'mind2web' ? parseMind2Web(file, text) : parseWebTailBench(file, text, options);
  if (!tasks.length) throw new ImportError(file, 1, null, `no tasks in the file (expected ${format} rows)`);
  const seen = new Map<string, number>();
  for (const t of tasks) {
    const first = seen.get(t.id);
    if (first !== undefined) throw new ImportError(file, t.row, format === 'mind2web' ? 'task_id' : 'id', `duplicate task id "${t.id}" (first on row ${first})`);
    seen.set(t.id, t.row);
  }
  return tasks;
}

/**
 * The most characters a task file's field may hold. A task file can send anything, and its text
 * goes into every episode's header and every prompt: a 60 MB instruction would make 60 MB headers.
 * Real instructions are a few hundred characters (WebTailBench's longest, about 1,500).
 */
export const FIELD_LIMITS = { text: 200, url: 4_000, instruction: 10_000 } as const;
const INSTRUCTION_FIELDS = new Set(['ques', 'task_description', 'task_summary']);

/** A row's fields, read with errors that name the field. */
class Row {
  constructor(
    private file: string,
    readonly row: number,
    private data: Record<string, unknown>,
  ) {}
  fail(field: string | null, detail: string): never {
    throw new ImportError(this.file, this.row, field, detail);
  }
  text(field: string, max: number = INSTRUCTION_FIELDS.has(field) ? FIELD_LIMITS.instruction : FIELD_LIMITS.text): string {
    const v = this.data[field];
    if (v === undefined || v === null) this.fail(field, 'missing');
    if (typeof v === 'number' && field.endsWith('id')) return String(v);
    if (typeof v !== 'string') this.fail(field, `expected a string, found ${JSON.stringify(v)}`);
    const s = v.trim();
    if (!s) this.fail(field, 'empty');
    if (s.length > max) this.fail(field, `${s.length.toLocaleString('en-US')} characters, more than the ${max.toLocaleString('en-US')} this field may hold`);
    return s;
  }
  url(field: string): string {
    const s = this.text(field, FIELD_LIMITS.url);
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      this.fail(field, `not a URL: "${s}"`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') this.fail(field, `only http(s) start pages can be opened, found "${s}"`);
    return u.href;
  }
  positiveInt(field: string): number {
    const v = this.data[field];
    const n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) this.fail(field, `expected a whole number of steps >= 1, found ${JSON.stringify(v)}`);
    return n;
  }
}

function parseWebVoyager(file: string, text: string): ImportedTask[] {
  const out: ImportedTask[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const row = i + 1;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (err) {
      throw new ImportError(file, row, null, `not valid JSON (${(err as Error).message})`);
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ImportError(file, row, null, 'expected a JSON object per line');
    const r = new Row(file, row, data as Record<string, unknown>);
    out.push({
      format: 'webvoyager',
      id: r.text('id'),
      instruction: r.text('ques'),
      startUrl: r.url('web'),
      site: r.text('web_name'),
      // WebVoyager grades no difficulty; its tasks sit in the middle tier.
      tier: 2,
      maxSteps: WEBVOYAGER_MAX_STEPS,
      file,
      row,
    });
  });
  return out;
}

/** Online-Mind2Web's difficulty by reference length: easy <= 5, medium 6-10, hard >= 11. */
export function tierOfReferenceLength(steps: number): Tier {
  return steps <= 5 ? 1 : steps <= 10 ? 2 : 3;
}

function parseMind2Web(file: string, text: string): ImportedTask[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ImportError(file, 1, null, `not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(data)) throw new ImportError(file, 1, null, 'expected a JSON array of tasks');
  return data.map((item, i) => {
    const row = i + 1;
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw new ImportError(file, row, null, 'expected a task object');
    const r = new Row(file, row, item as Record<string, unknown>);
    const startUrl = r.url('website');
    const referenceLength = r.positiveInt('reference_length');
    const tier = tierOfReferenceLength(referenceLength);
    return {
      format: 'mind2web' as const,
      id: r.text('task_id'),
      instruction: r.text('task_description'),
      startUrl,
      site: new URL(startUrl).hostname,
      tier,
      // No budget in the benchmark: twice what a person needed, and never less than the tier's.
      maxSteps: Math.max(maxStepsForTier(tier), 2 * referenceLength),
      referenceLength,
      file,
      row,
    };
  });
}

const WEBTAILBENCH_COLUMNS = ['benchmark', 'id', 'task_summary'] as const;

function parseWebTailBench(file: string, text: string, options: ImportOptions): ImportedTask[] {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').replace(/^\uFEFF/, '').split('\t').map((h) => h.trim());
  for (const c of WEBTAILBENCH_COLUMNS) {
    if (!header.includes(c)) throw new ImportError(file, 1, c, `the header has no "${c}" column (found: ${header.join(', ') || 'nothing'}; expected tab-separated ${WEBTAILBENCH_COLUMNS.join(', ')})`);
  }
  let start = options.startUrl ?? WEBTAILBENCH_DEFAULT_START;
  try {
    start = new URL(start).href;
  } catch {
    throw new Error(`--start-url is not a URL: "${start}"`);
  }
  const out: ImportedTask[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    const row = i + 1;
    const cells = lines[i].split('\t');
    if (cells.length !== header.length) throw new ImportError(file, row, null, `expected ${header.length} tab-separated cells as in the header, found ${cells.length}`);
    const r = new Row(file, row, Object.fromEntries(header.map((h, k) => [h, cells[k]])));
    // A start URL column is not in the public release; honour one if a user's file has it.
    const own = header.includes('init_url') && cells[header.indexOf('init_url')].trim() ? r.url('init_url') : start;
    out.push({
      format: 'webtailbench',
      id: r.text('id'),
      instruction: r.text('task_summary'),
      startUrl: own,
      site: new URL(own).hostname,
      // Its tasks are long, multi-step and often cross-site.
      tier: 3,
      maxSteps: WEBTAILBENCH_MAX_STEPS,
      segment: r.text('benchmark'),
      file,
      row,
    });
  }
  return out;
}
