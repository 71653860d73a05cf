/**
 * The three WebJudge-style requests (Online-Mind2Web's protocol, in our own words): the key points
 * a task requires, a relevance score for each screenshot, and a verdict from the instruction, the
 * key points, the actions taken and the key screenshots.
 */
import type { ChatMessage, ContentPart } from '../llm/client.ts';

const SYSTEM =
  'You are an expert evaluator of web agents: software that operates a web browser to complete tasks for a user. ' +
  'You judge strictly from the evidence given and never assume that something happened when it is not shown.';

export function keyPointsPrompt(instruction: string): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `Task: ${instruction}\n\n` +
        'List the key points a completed attempt must satisfy: every explicit requirement of the task (the item, ' +
        'filters, quantities, dates, places, sort order, the answer asked for). Do not add requirements the task ' +
        'does not state, and do not merge separate requirements.\n\nReply in this form:\nKey Points:\n1. ...\n2. ...',
    },
  ];
}

export interface ScreenshotView {
  /** 1-based step the screenshot was taken before, or 'final' for the page after the last action. */
  step: number | 'final';
  /** The action taken from this page, if any. */
  action?: string;
  dataUrl: string;
}

export function scorePrompt(instruction: string, keyPoints: string[], shot: ScreenshotView): ChatMessage[] {
  const when = shot.step === 'final' ? 'the page after the agent\'s last action' : `the page at step ${shot.step}${shot.action ? `, before the agent did ${shot.action}` : ''}`;
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text:
            `Task: ${instruction}\n\nKey points:\n${numbered(keyPoints)}\n\nThe image is ${when}. ` +
            'How much does it show evidence needed to decide whether the key points were met (filters applied, ' +
            'the item chosen, a confirmation, the information asked for)? Give one or two sentences of reasons, ' +
            'then a last line "Score: N" with N from 1 (nothing relevant) to 5 (essential evidence).',
        },
        { type: 'image_url', image_url: { url: shot.dataUrl } },
      ],
    },
  ];
}

export interface VerdictInput {
  instruction: string;
  keyPoints: string[];
  /** "thought -> action (error)" lines, in order. */
  actions: string[];
  screenshots: ScreenshotView[];
  ending: string;
}

export function verdictPrompt(v: VerdictInput): ChatMessage[] {
  const parts: ContentPart[] = [
    {
      type: 'text',
      text:
        `Task: ${v.instruction}\n\nKey points:\n${numbered(v.keyPoints)}\n\n` +
        `Actions the agent took (a message to the user is sent with send_msg_to_user):\n${v.actions.length ? numbered(v.actions) : '(none)'}\n\n` +
        `${v.ending}\n\n` +
        (v.screenshots.length
          ? `The ${v.screenshots.length} key screenshot(s) follow, in order: ${v.screenshots.map((s) => (s.step === 'final' ? 'the final page' : `step ${s.step}`)).join(', ')}.`
          : 'No screenshot was judged relevant (or none was recorded); judge from the actions.'),
    },
  ];
  for (const s of v.screenshots) parts.push({ type: 'image_url', image_url: { url: s.dataUrl } });
  parts.push({
    type: 'text',
    text:
      'Did the agent complete the task? Every key point must be met, shown by the actions or the screenshots; ' +
      'a claim in a message that nothing else supports does not count. Reply in this form:\n' +
      'Thoughts: <your reasons, point by point>\nStatus: success or failure',
  });
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: parts },
  ];
}

function numbered(lines: string[]): string {
  return lines.map((l, i) => `${i + 1}. ${l}`).join('\n');
}
