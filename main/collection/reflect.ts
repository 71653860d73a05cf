/**
 * Reflections: a short diagnosis of a failed episode, written for the next attempt's context.
 * `Reflector` is the seam for an LLM reflector (through the OpenAI-compatible endpoint); the
 * built-in one reads the trace with rules: unmet key points from the checker, actions that
 * errored, revisited page states, text that almost matches the instruction (a typo), an option
 * other than the one the instruction names, and an answer sent while key points were unmet.
 *
 * The text ends with two machine-readable lines, `Avoid: kinds` and `Unmet: key points`, so a
 * scripted agent can act on it as an LLM would on the prose. Reflections are stored one file each
 * under lab/reflections/<id>.json; an episode names the reflection it was given in links.reflection.
 */
import { mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { parseAction } from '../environment/actions.ts';
import { normalizeText } from '../common/normalize.ts';
import { MISTAKE_KINDS, type MistakeKind } from '../agents/noisy-expert.ts';
import type { EpisodeData } from '../store/lab.ts';
import type { ObservationRecord } from '../store/schema.ts';
import { elementsHash, normaliseUrl } from './replay.ts';
import { LAB_ID, checkLabId, labPaths } from '../store/layout.ts';
import { readJsonFile, writeFileAtomic } from '../store/json-file.ts';

export const reflectionSchema = z.object({
  id: z.string().regex(LAB_ID),
  episodeId: z.string(),
  reflector: z.string(),
  createdAt: z.string(),
  text: z.string(),
  hints: z.object({
    mistakes: z.array(z.enum(MISTAKE_KINDS)),
    unmetKeyPoints: z.array(z.string()),
    errors: z.array(z.object({ step: z.number().int(), action: z.string(), code: z.string(), message: z.string() })),
    /** Step `step` starts from the same page state as step `returnsTo` did. */
    revisits: z.array(z.object({ step: z.number().int(), returnsTo: z.number().int() })),
    prematureAnswer: z.boolean(),
    outOfSteps: z.boolean(),
  }),
  /** The language-model call that wrote the text (LLM reflector). */
  llm: z
    .object({ model: z.string(), promptTokens: z.number().int(), completionTokens: z.number().int(), latencyMs: z.number(), attempts: z.number().int() })
    .optional(),
});
export type Reflection = z.infer<typeof reflectionSchema>;

export interface Reflector {
  readonly name: string;
  reflect(episode: EpisodeData): Promise<Reflection>;
}

/** The page state an agent can tell apart: normalised URL plus the elements hash. */
export function stateKey(o: Pick<ObservationRecord, 'url' | 'elements'>): string {
  return `${normaliseUrl(o.url)}#${elementsHash(o.elements)}`;
}

/** Long loops make long reflections; a reader needs the first few. */
const MAX_SPAN_LINES = 4;

export class RuleReflector implements Reflector {
  readonly name = 'rules';

  async reflect(episode: EpisodeData): Promise<Reflection> {
    const { header, steps, end } = episode;
    const instruction = header.task.instruction;
    const mistakes = new Set<MistakeKind>();
    const lines: string[] = [];
    const unmet = (end?.keyPoints ?? []).filter((k) => !k.met).map((k) => k.name);

    const errors = steps
      .filter((s) => s.error)
      .map((s) => ({ step: s.index, action: s.action, code: s.error!.code, message: s.error!.message }));
    for (const e of errors) lines.push(`Step ${e.step}: ${e.action} failed (${e.code}: ${e.message}).`);

    // Revisits: the state before step j equals the state before an earlier step i.
    const states = [...steps.map((s) => s.observation), ...(end ? [end.finalObservation] : [])];
    const firstSeen = new Map<string, number>();
    const revisits: Array<{ step: number; returnsTo: number }> = [];
    states.forEach((o, j) => {
      const k = stateKey(o);
      const i = firstSeen.get(k);
      if (i === undefined) firstSeen.set(k, j);
      else if (j - i > 1) revisits.push({ step: j, returnsTo: i });
    });
    const spans = new Map<number, number>();
    for (const r of revisits) spans.set(r.returnsTo, Math.max(spans.get(r.returnsTo) ?? 0, r.step - 1));
    // "Clicked a link, then went back" is a detour even when the page came back slightly changed.
    steps.forEach((s, j) => {
      if (j > 0 && s.action.startsWith('go_back') && steps[j - 1].action.startsWith('click')) spans.set(j - 1, Math.max(spans.get(j - 1) ?? 0, j));
    });
    // Overlapping loops read as one stretch of wasted steps.
    const shown: Array<[number, number]> = [];
    for (const [a, b] of [...spans].sort((x, y) => x[0] - y[0])) {
      const last = shown[shown.length - 1];
      if (last && a <= last[1]) last[1] = Math.max(last[1], b);
      else shown.push([a, b]);
    }
    for (const [i, to] of shown.slice(0, MAX_SPAN_LINES)) {
      const s = steps[i];
      const el = clickedElement(s.action, s.observation);
      lines.push(
        el
          ? `Step ${i}: opened "${el.name}", which the task does not need; by step ${to + 1} the agent was back on the same page.`
          : `Steps ${i}-${to} (${s.action} ...) ended on the page they started from; they did not help.`,
      );
      // A link the instruction does not name, on a page where another one it does name was listed.
      if (el && !mentioned(instruction, el.name) && s.observation.elements.some((e) => e.role === el.role && e.id !== el.id && mentioned(instruction, e.name))) {
        lines.push(`  The task names a different ${el.role} on that page; choose the element the task refers to.`);
        mistakes.add('wrong_element');
      }
    }
    if (shown.length > MAX_SPAN_LINES) lines.push(`... and ${shown.length - MAX_SPAN_LINES} more such detours.`);
    if (shown.length) mistakes.add('detour');

    for (const s of steps) {
      const a = safeParse(s.action);
      if (a?.type === 'fill') {
        const near = nearMiss(a.text, instruction);
        if (near) {
          const el = s.observation.elements.find((e) => e.id === a.id);
          lines.push(`Step ${s.index}: typed '${a.text}'${el ? ` into "${el.name}"` : ''}, but the task says '${near}'; copy text from the task exactly.`);
          mistakes.add('typo');
        }
      }
      if (a?.type === 'select_option') {
        const el = s.observation.elements.find((e) => e.id === a.id);
        const chosen = a.options[0] ?? '';
        const named = (el?.options ?? []).filter((o) => normalizeText(o) !== normalizeText(chosen) && mentioned(instruction, coreLabel(o)));
        if (el && named.length && !mentioned(instruction, coreLabel(chosen))) {
          lines.push(`Step ${s.index}: chose '${chosen}' in "${el.name}", but the task names ${named.map((o) => `'${o}'`).join(' or ')}.`);
          mistakes.add('wrong_option');
        }
      }
    }

    const last = steps[steps.length - 1];
    const prematureAnswer = !!last && !!end && !end.success && last.action.startsWith('send_msg_to_user') && unmet.length > 0;
    if (prematureAnswer) {
      lines.push(`Step ${last.index}: answered the user while the task was not finished; check every part of the task is done before answering.`);
      mistakes.add('premature_answer');
    }
    const outOfSteps = end?.reason === 'max_steps';
    if (outOfSteps) lines.push(`The attempt ran out of steps after ${steps.length}; avoid detours.`);

    const head = `The attempt at "${instruction}" failed${end ? ` (${end.reason === 'checker' ? 'the checker rejected the result' : end.reason.replace('_', ' ')})` : ' (it did not finish)'}.`;
    const unmetLine = unmet.length ? `Not achieved: ${unmet.join('; ')}.` : '';
    const kinds = MISTAKE_KINDS.filter((k) => mistakes.has(k));
    const text = [head, unmetLine, ...lines, `Avoid: ${kinds.join(', ') || 'none'}`, `Unmet: ${unmet.join('; ') || 'none'}`].filter(Boolean).join('\n');
    return reflectionSchema.parse({
      id: `refl-${header.id}`,
      episodeId: header.id,
      reflector: this.name,
      createdAt: new Date().toISOString(),
      text,
      hints: { mistakes: kinds, unmetKeyPoints: unmet, errors, revisits, prematureAnswer, outOfSteps },
    });
  }
}

/** Reflections on disk: lab/reflections/<id>.json, written whole via a rename so a crash leaves none or all. */
export class ReflectionStore {
  readonly dir: string;
  constructor(labDir: string) {
    this.dir = labPaths.reflections(labDir);
    mkdirSync(this.dir, { recursive: true });
  }
  path(id: string): string {
    return join(this.dir, `${checkLabId(id, 'reflection')}.json`);
  }
  has(id: string): boolean {
    return existsSync(this.path(id));
  }
  save(r: Reflection): void {
    writeFileAtomic(this.path(r.id), JSON.stringify(r, null, 2) + '\n');
  }
  load(id: string): Reflection {
    return readJsonFile(this.path(id), reflectionSchema, 'a reflection');
  }
}

function safeParse(text: string): ReturnType<typeof parseAction> | null {
  try {
    return parseAction(text);
  } catch {
    return null;
  }
}

function clickedElement(action: string, o: ObservationRecord) {
  const a = safeParse(action);
  return a?.type === 'click' ? o.elements.find((e) => e.id === a.id) : undefined;
}

function mentioned(instruction: string, name: string): boolean {
  const n = normalizeText(name);
  if (n.length < 2) return false;
  // Word boundaries, so size "S" or "39" is not found inside other words or numbers.
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escape(n)}($|[^\\p{L}\\p{N}])`, 'u').test(normalizeText(instruction));
}

/** "Seattle (SEA)" -> "Seattle": instructions name places without their codes. */
function coreLabel(option: string): string {
  return option.replace(/\s*\([^)]*\)\s*$/, '');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The span of the instruction that `text` almost matches (1 or 2 edits, not exact), or null.
 * Short texts and texts the instruction contains verbatim are never a near miss.
 */
export function nearMiss(text: string, instruction: string): string | null {
  const t = normalizeText(text);
  const ins = normalizeText(instruction);
  if (t.length < 4 || ins.includes(t)) return null;
  const maxEdits = t.length >= 8 ? 2 : 1;
  let best: { w: string; d: number } | null = null;
  for (const len of [t.length, t.length + 1, t.length - 1]) {
    for (let i = 0; i + len <= ins.length; i++) {
      const w = ins.slice(i, i + len);
      const d = editDistance(t, w, maxEdits);
      if (d <= maxEdits && (!best || d < best.d)) best = { w, d };
    }
  }
  if (!best) return null;
  // Show the span as the instruction writes it when it can be found there.
  const at = instruction.toLowerCase().indexOf(best.w);
  return at >= 0 ? instruction.slice(at, at + best.w.length) : best.w;
}

/** Edit distance counting a swap of neighbours as one edit (typos), with an early exit past `cap`. */
function editDistance(a: string, b: string, cap: number): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > cap) return cap + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length];
}
