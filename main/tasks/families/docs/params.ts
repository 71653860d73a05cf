/**
 * Parameters a documented function can take: each with a type, a pool of plausible defaults and a
 * description. Numeric defaults avoid 1, 2 and 3 (an answer naming "v1.x" must not read as the
 * number 1) and 42 (a word the random agent types), so a number in an answer means the default.
 */
import type { Rng } from '../../../common/rng.ts';

export type ParamType = 'int' | 'float' | 'str' | 'bool' | 'callable' | 'dict';

/** A default value as data; render.ts prints it in the library's style (True / true, None / null). */
export type Literal = { kind: 'num'; value: number } | { kind: 'str'; value: string } | { kind: 'bool'; value: boolean } | { kind: 'none' };

export interface Param {
  /** Words of the name, joined in the library's style when printed ("buffer", "size"). */
  words: string[];
  name: string;
  type: ParamType;
  /** null: the caller must pass it. */
  default: Literal | null;
  description: string;
  /** The release that added it, when later than the function itself ("2.1"). */
  since?: string;
}

interface ParamKind {
  words: string[];
  type: ParamType;
  pool: Literal[];
  description: string;
}

const nums = (...xs: number[]): Literal[] => xs.map((value) => ({ kind: 'num', value }));
const strs = (...xs: string[]): Literal[] => xs.map((value) => ({ kind: 'str', value }));
const BOOL: Literal[] = [{ kind: 'bool', value: true }, { kind: 'bool', value: false }];
const NONE: Literal[] = [{ kind: 'none' }];

/** Required parameters come first in a signature and have no default. */
export const REQUIRED: Array<Omit<ParamKind, 'pool'>> = [
  { words: ['source'], type: 'str', description: 'Where to read from: a path or a URL.' },
  { words: ['target'], type: 'str', description: 'Where the result goes.' },
  { words: ['key'], type: 'str', description: 'The name the value is stored under.' },
  { words: ['data'], type: 'dict', description: 'The payload to work on.' },
  { words: ['name'], type: 'str', description: 'A label for the new object.' },
  { words: ['items'], type: 'dict', description: 'The entries to process.' },
];

export const OPTIONAL: ParamKind[] = [
  { words: ['timeout'], type: 'float', pool: nums(5, 10, 15, 30, 60, 120), description: 'Seconds to wait before giving up.' },
  { words: ['retries'], type: 'int', pool: nums(0, 4, 5, 8, 10), description: 'How many times to try again after a failure.' },
  { words: ['encoding'], type: 'str', pool: strs('utf-8', 'latin-1', 'ascii', 'utf-16'), description: 'Text encoding of the content.' },
  { words: ['mode'], type: 'str', pool: strs('auto', 'fast', 'safe', 'append', 'strict'), description: 'How the operation trades speed for safety.' },
  { words: ['buffer', 'size'], type: 'int', pool: nums(256, 512, 1024, 4096, 8192, 65536), description: 'Bytes held in memory before a write.' },
  { words: ['chunk', 'size'], type: 'int', pool: nums(64, 128, 256, 1024, 2048), description: 'Bytes handled per step.' },
  { words: ['strict'], type: 'bool', pool: BOOL, description: 'Raise an error instead of skipping bad input.' },
  { words: ['verbose'], type: 'bool', pool: BOOL, description: 'Print progress while working.' },
  { words: ['lazy'], type: 'bool', pool: BOOL, description: 'Defer the work until the result is first used.' },
  { words: ['compress'], type: 'bool', pool: BOOL, description: 'Compress the data on the way out.' },
  { words: ['max', 'items'], type: 'int', pool: nums(10, 20, 50, 100, 500, 1000), description: 'Stop after this many items.' },
  { words: ['delay'], type: 'float', pool: nums(0.25, 0.5, 0.75, 1.5, 2.5), description: 'Seconds to pause between attempts.' },
  { words: ['callback'], type: 'callable', pool: NONE, description: 'Called with each result as it arrives.' },
  { words: ['ttl'], type: 'int', pool: nums(60, 300, 600, 3600, 86400), description: 'Seconds a cached value stays valid.' },
  { words: ['format'], type: 'str', pool: strs('json', 'csv', 'yaml', 'binary', 'text'), description: 'The format of the output.' },
  { words: ['level'], type: 'str', pool: strs('info', 'debug', 'warning', 'error'), description: 'The lowest level that is reported.' },
  { words: ['workers'], type: 'int', pool: nums(4, 8, 16, 32), description: 'How many threads share the work.' },
  { words: ['precision'], type: 'int', pool: nums(4, 6, 8, 12), description: 'Digits kept after the decimal point.' },
  { words: ['headers'], type: 'dict', pool: NONE, description: 'Extra headers sent with each request.' },
  { words: ['validate'], type: 'bool', pool: BOOL, description: 'Check the input against its schema first.' },
];

export function sameLiteral(a: Literal | null, b: Literal | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A default from the kind's pool other than `not` (null when the pool has no other value). */
export function otherDefault(rng: Rng, words: readonly string[], not: Literal | null): Literal | null {
  const kind = OPTIONAL.find((k) => k.words.join(' ') === words.join(' '));
  const pool = (kind?.pool ?? []).filter((l) => !sameLiteral(l, not));
  return pool.length ? rng.pick(pool) : null;
}
