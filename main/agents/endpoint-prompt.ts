/**
 * The chat messages the endpoint agent sends for one step: the action space (the same system
 * prompt dataset exports use), then the task, reflections from earlier failed attempts, the page
 * as a numbered element list, the episode so far (thoughts, actions and the errors they got), and
 * for vision models the set-of-marks screenshot as an image part. Deterministic: same input, same
 * messages.
 */
import type { Observation } from '../environment/types.ts';
import type { ChatMessage, ContentPart } from '../llm/client.ts';
import { SYSTEM_PROMPT, renderObservationText } from './observation-text.ts';

export interface EndpointStep {
  thought?: string;
  action: string;
  error?: { code: string; message: string } | null;
}

export interface EndpointPromptInput {
  instruction: string;
  observation: Observation;
  steps: readonly EndpointStep[];
  reflections: readonly string[];
  /** Attach the screenshot (set-of-marks) as an image part, when the observation has one. */
  vision: boolean;
  /** OpenAI's image `detail` (low, high, auto); unset: not sent. vLLM and SGLang ignore it (see README: Remote models). */
  imageDetail?: 'low' | 'high' | 'auto';
  /** Only the last N steps are shown (older ones are counted). Default 10. */
  maxHistory?: number;
  /** Character budget of the element list. Default 6000. */
  maxPageChars?: number;
}

export const REFLECTIONS_HEADER = 'Lessons from your earlier failed attempts at this same task (do not repeat their mistakes):';
const VISION_NOTE = 'The screenshot shows the page with each element boxed and labelled with its id.';

const clip = (s: string, n: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= n ? flat : `${flat.slice(0, n - 1)}…`;
};

function renderSteps(steps: readonly EndpointStep[], max: number): string {
  if (!steps.length) return 'Previous steps: none';
  const shown = steps.slice(-max);
  const skipped = steps.length - shown.length;
  const lines = skipped ? [`(${skipped} earlier steps not shown)`] : [];
  shown.forEach((s, i) => {
    const n = skipped + i + 1;
    if (s.thought?.trim()) lines.push(`${n}. thought: ${clip(s.thought, 300)}`);
    lines.push(`${s.thought?.trim() ? '   ' : `${n}. `}action: ${clip(s.action, 200)}${s.error ? `  -> error ${s.error.code}: ${clip(s.error.message, 200)}` : ''}`);
  });
  return ['Previous steps:', ...lines].join('\n');
}

export function buildEndpointMessages(input: EndpointPromptInput): ChatMessage[] {
  const { observation: obs } = input;
  const user: string[] = [`Task: ${input.instruction.trim()}`];
  if (input.reflections.length) {
    user.push('', REFLECTIONS_HEADER);
    input.reflections.forEach((r, i) => user.push(`Attempt ${i + 1}:`, r.trim()));
  }
  user.push('', 'Page:', renderObservationText(obs, { maxChars: input.maxPageChars ?? 6000 }), '', renderSteps(input.steps, input.maxHistory ?? 10));
  if (obs.lastActionError) user.push('', `Last action failed: ${obs.lastActionError.code}: ${clip(obs.lastActionError.message, 200)}`);
  user.push('', 'What is the next action? Write a short thought, then the action alone on the last line.');
  const text = user.join('\n');
  const image = input.vision && obs.screenshot ? `data:image/png;base64,${obs.screenshot.png.toString('base64')}` : null;
  const content: string | ContentPart[] = image
    ? [
        { type: 'text', text },
        { type: 'image_url', image_url: { url: image, ...(input.imageDetail ? { detail: input.imageDetail } : {}) } },
      ]
    : text;
  return [
    { role: 'system', content: image ? `${SYSTEM_PROMPT}\n${VISION_NOTE}` : SYSTEM_PROMPT },
    { role: 'user', content },
  ];
}
