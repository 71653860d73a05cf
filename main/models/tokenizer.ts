/**
 * Byte-level BPE tokenizer, trained by the project and saved beside each model.
 *
 * Every string encodes (UTF-8 bytes are the base vocabulary, so nothing is ever unknown) and
 * decodes back to itself. Training is deterministic: pair-count ties break on the smaller pair.
 * Text is first split into chunks (identifiers, numbers, punctuation runs, whitespace) so merges
 * never cross those boundaries, which keeps tokens meaningful for code.
 */
import { z } from 'zod';

/** Chunking pattern in the spirit of GPT-2's: a leading space joins the word after it. */
const CHUNK_PATTERN = String.raw` ?[A-Za-z_$][A-Za-z0-9_$]*| ?[0-9]+| ?[^\sA-Za-z0-9_$]+|\s+(?!\S)|\s+`;

/**
 * Chunks with every whitespace run on its own: a word is the same token after a space, a quote or
 * a bracket, so a name in the task, on the page and inside an action argument are one token
 * sequence, which a copy pointer can copy. Costs a token per space.
 */
export const SEPARATE_SPACE_PATTERN = String.raw`[A-Za-z_$][A-Za-z0-9_$]*|[0-9]+|[^\sA-Za-z0-9_$]+|\s+`;

export const END_OF_TEXT = '<|endoftext|>';

export const TokenizerJson = z.object({
  kind: z.literal('byte-bpe'),
  version: z.literal(1),
  pattern: z.string(),
  merges: z.array(z.tuple([z.number().int(), z.number().int()])),
  specials: z.array(z.string()),
});
export type TokenizerJson = z.infer<typeof TokenizerJson>;

export class Tokenizer {
  readonly merges: [number, number][];
  readonly specials: string[];
  private readonly pattern: string;
  private readonly ranks = new Map<string, number>();
  private readonly pieces: Uint8Array[] = [];
  private readonly cache = new Map<string, number[]>();

  constructor(json: TokenizerJson) {
    const t = TokenizerJson.parse(json);
    this.merges = t.merges;
    this.specials = t.specials;
    this.pattern = t.pattern;
    for (let b = 0; b < 256; b++) this.pieces.push(Uint8Array.of(b));
    t.merges.forEach(([a, b], i) => {
      this.ranks.set(`${a},${b}`, i);
      const pa = this.pieces[a];
      const pb = this.pieces[b];
      if (!pa || !pb) throw new Error(`merge ${i} refers to an unknown token`);
      const joined = new Uint8Array(pa.length + pb.length);
      joined.set(pa);
      joined.set(pb, pa.length);
      this.pieces.push(joined);
    });
    for (const s of t.specials) this.pieces.push(new TextEncoder().encode(s));
  }

  /** Number of token ids (bytes + merges + specials). */
  get vocabSize(): number {
    return this.pieces.length;
  }

  /** Id of a special token such as END_OF_TEXT. */
  specialId(name: string): number {
    const i = this.specials.indexOf(name);
    if (i < 0) throw new Error(`no special token ${name}`);
    return 256 + this.merges.length + i;
  }

  encode(text: string): number[] {
    const out: number[] = [];
    for (const chunk of text.match(new RegExp(this.pattern, 'g')) ?? []) {
      let ids = this.cache.get(chunk);
      if (!ids) {
        ids = this.encodeChunk(chunk);
        if (this.cache.size < 100_000) this.cache.set(chunk, ids);
      }
      for (const id of ids) out.push(id);
    }
    return out;
  }

  /** Bytes of the given tokens, decoded as UTF-8 (ids outside the vocabulary, e.g. SAT ids, are skipped). */
  decode(ids: readonly number[]): string {
    return new TextDecoder().decode(this.bytes(ids));
  }

  bytes(ids: readonly number[]): Uint8Array {
    const parts = ids.map((id) => this.pieces[id]).filter((p): p is Uint8Array => p !== undefined);
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }

  toJSON(): TokenizerJson {
    return { kind: 'byte-bpe', version: 1, pattern: this.pattern, merges: this.merges, specials: this.specials };
  }

  private encodeChunk(chunk: string): number[] {
    let ids = Array.from(new TextEncoder().encode(chunk));
    // Standard BPE: repeatedly apply the earliest-learned merge present in the chunk.
    while (ids.length > 1) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < ids.length; i++) {
        const r = this.ranks.get(`${ids[i]},${ids[i + 1]}`);
        if (r !== undefined && r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) break;
      const merged = 256 + bestRank;
      const [a, b] = this.merges[bestRank];
      const next: number[] = [];
      for (let i = 0; i < ids.length; i++) {
        if (i + 1 < ids.length && ids[i] === a && ids[i + 1] === b) {
          next.push(merged);
          i++;
        } else next.push(ids[i]);
      }
      ids = next;
    }
    return ids;
  }
}

/** Learn `vocabSize - 256 - specials` merges from the given texts. Same input, same tokenizer. */
export function trainTokenizer(texts: readonly string[], vocabSize: number, specials: string[] = [END_OF_TEXT], pattern = CHUNK_PATTERN): Tokenizer {
  const nMerges = vocabSize - 256 - specials.length;
  if (nMerges < 0) throw new Error(`vocabSize must be at least ${256 + specials.length}`);
  const re = new RegExp(pattern, 'g');
  const freq = new Map<string, number>();
  for (const text of texts) for (const chunk of text.match(re) ?? []) freq.set(chunk, (freq.get(chunk) ?? 0) + 1);
  // Sorted so that iteration order (and so every tie) does not depend on insertion order.
  const words = [...freq.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([w, n]) => ({ ids: Array.from(new TextEncoder().encode(w)), n }));
  const merges: [number, number][] = [];
  for (let m = 0; m < nMerges; m++) {
    const counts = new Map<number, number>();
    for (const w of words) for (let i = 0; i + 1 < w.ids.length; i++) {
      const key = w.ids[i] * 65536 + w.ids[i + 1];
      counts.set(key, (counts.get(key) ?? 0) + w.n);
    }
    let bestKey = -1;
    let bestCount = 0;
    for (const [key, c] of counts) if (c > bestCount || (c === bestCount && key < bestKey)) {
      bestKey = key;
      bestCount = c;
    }
    if (bestKey < 0 || bestCount < 2) break;
    const a = Math.floor(bestKey / 65536);
    const b = bestKey % 65536;
    const id = 256 + m;
    merges.push([a, b]);
    for (const w of words) {
      if (w.ids.length < 2) continue;
      const next: number[] = [];
      for (let i = 0; i < w.ids.length; i++) {
        if (i + 1 < w.ids.length && w.ids[i] === a && w.ids[i + 1] === b) {
          next.push(id);
          i++;
        } else next.push(w.ids[i]);
      }
      w.ids = next;
    }
  }
  return new Tokenizer({ kind: 'byte-bpe', version: 1, pattern, merges, specials });
}

/**
 * The text a tokenizer is learned from: all of it up to `maxChars`, else `maxChars` spread evenly over
 * the text in slices (merge learning costs merges x distinct chunks, and a few MB show every common
 * pair; the model still trains on the whole text).
 */
export function tokenizerSample(text: string, maxChars = 2_000_000, slices = 64): string {
  if (text.length <= maxChars) return text;
  const size = Math.floor(maxChars / slices);
  const stride = Math.floor(text.length / slices);
  const out: string[] = [];
  for (let i = 0; i < slices; i++) out.push(text.slice(i * stride, i * stride + size));
  return out.join('\n');
}
