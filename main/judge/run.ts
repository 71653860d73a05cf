/** Which episodes need a judge, and judging them one by one with each verdict recorded as it comes. */
import type { LabStore } from '../store/lab.ts';
import { JudgmentStore, type Judgment } from '../store/judgments.ts';
import { judgeEpisode, type JudgeChat, type JudgeOptions } from './webjudge.ts';

/**
 * Finished (ended, not cancelled) episodes of judged tasks (no checker) without a readable verdict, oldest first.
 * Unreadable episode files are skipped here; `lab episodes list` reports them.
 */
export function unjudgedEpisodes(store: LabStore, judgments: JudgmentStore, family?: string): string[] {
  const { episodes } = store.listEpisodes();
  return episodes
    // A cancelled episode was stopped, not finished: there is nothing to judge.
    .filter((e) => e.status !== 'incomplete' && e.status !== 'cancelled' && (!family || e.family === family) && !judgments.isJudged(e.id))
    .filter((e) => store.readEpisode(e.id).header.task.checker === 'judge')
    .map((e) => e.id)
    .reverse();
}

export interface JudgeRunResult {
  episodeId: string;
  judgment?: Judgment;
  /** The endpoint failed (after its retries) or the episode could not be judged; nothing was recorded. */
  error?: string;
}

export async function judgeAndRecord(
  store: LabStore,
  ids: string[],
  chat: JudgeChat,
  judge: { model: string; baseUrl: string },
  options: Partial<JudgeOptions> & { onEpisode?: (r: JudgeRunResult, index: number) => void } = {},
): Promise<JudgeRunResult[]> {
  const judgments = new JudgmentStore(store.dir);
  const results: JudgeRunResult[] = [];
  for (const [i, id] of ids.entries()) {
    if (options.signal?.aborted) break;
    let r: JudgeRunResult;
    try {
      const judgment = await judgeEpisode(store.readEpisode(id), store.blobs, chat, judge, options);
      judgments.append(judgment);
      r = { episodeId: id, judgment };
    } catch (err) {
      if (options.signal?.aborted) break;
      r = { episodeId: id, error: (err as Error).message };
    }
    results.push(r);
    options.onEpisode?.(r, i);
  }
  return results;
}
