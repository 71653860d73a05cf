/**
 * A WebJudge-style LLM judge for episodes without a checker (tasks on the live web):
 *   1. key points: what the task requires, from the instruction alone;
 *   2. key screenshots: each recorded screenshot scored 1-5 for relevance to those points; the best
 *      (score >= threshold, at most maxKeyScreenshots) are kept;
 *   3. verdict: instruction, key points, the actions taken (with thoughts) and the key screenshots,
 *      answered with reasons and "Status: success|failure".
 * An answer that cannot be read ends the judging with verdict null and the reason recorded.
 */
import type { ChatEndpoint, ChatMessage } from '../llm/client.ts';
import type { EpisodeData } from '../store/lab.ts';
import type { BlobStore } from '../store/blobs.ts';
import { keyPointsPrompt, scorePrompt, verdictPrompt, type ScreenshotView } from './prompts.ts';
import { parseKeyPoints, parseScore, parseVerdict } from './parse.ts';
import type { Judgment } from '../store/judgments.ts';

export interface JudgeOptions {
  /** Screenshots scoring at least this are key screenshots (WebJudge's default threshold: 3). */
  threshold: number;
  maxKeyScreenshots: number;
  /** Only the last N distinct screenshots are scored, to bound the cost of long episodes. */
  maxCandidates: number;
  temperature: number;
  maxTokens: number;
  signal?: AbortSignal;
  onProgress?: (stage: string) => void;
}

export const DEFAULT_JUDGE_OPTIONS: JudgeOptions = { threshold: 3, maxKeyScreenshots: 4, maxCandidates: 15, temperature: 0, maxTokens: 800 };

export type JudgeChat = Pick<ChatEndpoint, 'chat'>;

export async function judgeEpisode(
  episode: EpisodeData,
  blobs: BlobStore,
  chat: JudgeChat,
  judge: { model: string; baseUrl: string },
  options: Partial<JudgeOptions> = {},
): Promise<Judgment> {
  const o = { ...DEFAULT_JUDGE_OPTIONS, ...options };
  if (!episode.end) throw new Error(`episode ${episode.header.id} has not ended (incomplete); nothing to judge yet`);
  const instruction = episode.header.task.instruction;
  const usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  const ask = async (messages: ChatMessage[]) => {
    const r = await chat.chat({ messages, temperature: o.temperature, maxTokens: o.maxTokens, signal: o.signal });
    usage.calls++;
    usage.promptTokens += r.usage.promptTokens;
    usage.completionTokens += r.usage.completionTokens;
    return r.text;
  };
  const base = { type: 'judgment' as const, version: 1 as const, episodeId: episode.header.id, judge: { method: 'webjudge' as const, ...judge } };
  const finish = (rest: Omit<Judgment, keyof typeof base | 'at' | 'usage'>): Judgment => ({ ...base, at: new Date().toISOString(), ...rest, usage });

  o.onProgress?.('key points');
  const keyPointsText = await ask(keyPointsPrompt(instruction));
  const keyPoints = parseKeyPoints(keyPointsText);
  if (!keyPoints) {
    return finish({ verdict: null, malformed: 'key points: no numbered or bulleted list in the answer', reasons: '', keyPoints: [], scores: [], keyScreenshots: [], raw: { keyPoints: keyPointsText, verdict: null } });
  }

  const candidates = screenshotsOf(episode).slice(-o.maxCandidates);
  const scores: Judgment['scores'] = [];
  for (const [k, c] of candidates.entries()) {
    o.onProgress?.(`screenshot ${k + 1}/${candidates.length}`);
    const view: ScreenshotView = { step: c.step, action: c.action, dataUrl: dataUrl(blobs.get(c.screenshot)) };
    scores.push({ step: c.step, screenshot: c.screenshot, score: parseScore(await ask(scorePrompt(instruction, keyPoints, view))) });
  }
  const order = (s: Judgment['scores'][number]) => (s.step === 'final' ? Infinity : s.step);
  const keyScreenshots = scores
    .filter((s) => s.score !== null && s.score >= o.threshold)
    // The most relevant first; among equals the later page, which shows more of the outcome.
    .sort((a, b) => b.score! - a.score! || order(b) - order(a))
    .slice(0, o.maxKeyScreenshots)
    .sort((a, b) => order(a) - order(b));

  o.onProgress?.('verdict');
  const verdictText = await ask(
    verdictPrompt({
      instruction,
      keyPoints,
      actions: episode.steps.map((s) => `${s.thought ? `(${oneLine(s.thought)}) ` : ''}${s.action}${s.error ? `  -> error ${s.error.code}: ${oneLine(s.error.message)}` : ''}`),
      screenshots: keyScreenshots.map((s) => ({ step: s.step, dataUrl: dataUrl(blobs.get(s.screenshot)) })),
      ending: `The episode ended after ${episode.end.steps} steps (${endingWords(episode.end.reason)}); the last page was ${episode.end.finalObservation.url}.`,
    }),
  );
  const verdict = parseVerdict(verdictText);
  return finish({
    verdict: verdict?.status ?? null,
    ...(verdict ? {} : { malformed: 'verdict: no single "Status: success" or "Status: failure" line in the answer' }),
    reasons: verdict?.reasons ?? '',
    keyPoints,
    scores,
    keyScreenshots,
    raw: { keyPoints: keyPointsText, verdict: verdictText },
  });
}

interface Candidate {
  step: number | 'final';
  action?: string;
  screenshot: string;
}

/** Each distinct screenshot once, at the step it was first seen (the final page last). */
function screenshotsOf(e: EpisodeData): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const s of e.steps) {
    const h = s.observation.screenshot;
    if (h && !seen.has(h)) {
      seen.add(h);
      out.push({ step: s.index + 1, action: s.action, screenshot: h });
    }
  }
  const last = e.end?.finalObservation.screenshot;
  if (last && !seen.has(last)) out.push({ step: 'final', screenshot: last });
  return out;
}

function dataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function endingWords(reason: string): string {
  switch (reason) {
    case 'checker':
      return 'the agent finished';
    case 'goal_reached':
      return 'the goal state was reached';
    case 'max_steps':
      return 'it ran out of steps';
    case 'agent_error':
      return 'the agent failed';
    case 'page_lost':
      return 'the page crashed';
    default:
      return reason;
  }
}
