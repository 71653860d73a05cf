/** The benchmark's prompts file, apart from ./bench.ts (which loads the decoders, TF.js included) so the CLI's help can name its default. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { resourcePath } from '../paths.ts';
import { fieldIssue } from '../store/schema-error.ts';

/** Prompts cut from the code corpus's validation files (the shipped model never trained on them). */
export const DEFAULT_PROMPTS = resourcePath('corpus', 'npm-code', 'prompts.jsonl');
/** Prompts from packages the corpus holds out entirely. */
export const HELDOUT_PROMPTS = resourcePath('corpus', 'npm-code', 'heldout-prompts.jsonl');

const promptLineSchema = z.object({ id: z.string().optional(), text: z.string().min(1) });

/** JSON Lines prompts ({"id"?, "text"}); a bad line is an error naming the file and line. */
export function readPrompts(file: string): { id: string; text: string }[] {
  return readFileSync(file, 'utf8').split('\n').flatMap((l, i) => {
    if (!l.trim()) return [];
    let p;
    try {
      p = promptLineSchema.parse(JSON.parse(l));
    } catch (err) {
      const msg = err instanceof z.ZodError ? fieldIssue(err, '(line)') : (err as Error).message;
      throw new Error(`${file}:${i + 1}: ${msg}`);
    }
    return [{ id: p.id ?? `line${i + 1}`, text: p.text }];
  });
}
