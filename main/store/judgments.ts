/**
 * Verdicts live beside the episodes, never in them: lab/judgments/<episode-id>.jsonl, one line per
 * judging (a re-judge appends; the last line is the current verdict). Episode files stay
 * append-only and closed once ended, and readers that know nothing of judges are unaffected.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { z } from 'zod';
import { JsonlAppender, readJsonl } from './jsonl.ts';
import { withFileLock } from './file-lock.ts';
import { labPaths } from './layout.ts';

export const judgmentSchema = z.object({
  type: z.literal('judgment'),
  version: z.literal(1),
  episodeId: z.string(),
  at: z.string(),
  judge: z.object({ method: z.literal('webjudge'), model: z.string(), baseUrl: z.string() }),
  /** null when the judge's answer could not be read (see malformed). */
  verdict: z.enum(['success', 'failure']).nullable(),
  /** Which answer could not be read, and why. */
  malformed: z.string().optional(),
  reasons: z.string(),
  keyPoints: z.array(z.string()),
  /** Every screenshot scored, with its relevance 1-5 (null: the score could not be read). */
  scores: z.array(z.object({ step: z.union([z.number().int(), z.literal('final')]), screenshot: z.string(), score: z.number().nullable() })),
  /** The screenshots the verdict was asked with. */
  keyScreenshots: z.array(z.object({ step: z.union([z.number().int(), z.literal('final')]), screenshot: z.string(), score: z.number().nullable() })),
  /** The model's own words for the key points and the verdict, kept for audit. */
  raw: z.object({ keyPoints: z.string(), verdict: z.string().nullable() }),
  usage: z.object({ calls: z.number().int(), promptTokens: z.number().int(), completionTokens: z.number().int() }),
});
export type Judgment = z.infer<typeof judgmentSchema>;

export class JudgmentStore {
  readonly dir: string;
  constructor(private readonly labDir: string) {
    this.dir = labPaths.judgments(labDir);
  }

  path(episodeId: string): string {
    return labPaths.judgmentsFile(this.labDir, episodeId);
  }

  append(j: Judgment): void {
    mkdirSync(this.dir, { recursive: true });
    const record = judgmentSchema.parse(j);
    withFileLock(this.path(j.episodeId), () => {
      const out = new JsonlAppender(this.path(j.episodeId), true);
      try {
        out.append(record);
      } finally {
        out.close();
      }
    });
  }

  /** Every judging of an episode, oldest first. */
  history(episodeId: string): Judgment[] {
    const p = this.path(episodeId);
    return existsSync(p) ? readJsonl(p, judgmentSchema).records : [];
  }

  /** The current verdict: the last judging, or undefined. */
  latest(episodeId: string): Judgment | undefined {
    return this.history(episodeId).at(-1);
  }

  /** Judged means a readable verdict; an episode whose last answer was malformed is judged again. */
  isJudged(episodeId: string): boolean {
    return !!this.latest(episodeId)?.verdict;
  }
}
