/**
 * The chat messages the endpoint agent sends for one step: the action space (the same system
 * prompt dataset exports use, plus the coordinate actions where the environment allows them),
 * then the task, reflections from earlier failed attempts, the page as a numbered element list,
 * the episode so far (thoughts, actions and the errors they got), and for vision models the
 * set-of-marks screenshot as an image part. Deterministic: same input, same messages.
 */
import type { Observation } from '../environment/types.ts';
import type { ChatMessage, ContentPart } from '../llm/client.ts';
import type { ActionSpace } from '../tasks/agent.ts';
import { SYSTEM_PROMPT, renderObservationText } from '../policy/observation-text.ts';

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
  /** OpenAI's image `detail` (low, high, auto); unset: not sent. vLLM and SGLang ignore it (see docs/scaling.md: Remote models). */
  imageDetail?: 'low' | 'high' | 'auto';
  /** Only the last N steps are shown (older ones are counted). Default 10. */
  maxHistory?: number;
  /** Character budget of the element list. Default 6000. */
  maxPageChars?: number;
  /** What the environment allows (the agent learns it at reset); with `coord`, the prompt lists the coordinate actions. */
  actionSpace?: ActionSpace;
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

/**
 * The action space as the model reads it: SYSTEM_PROMPT, and the coordinate actions before its
 * last line when the environment allows them. Without `coord` it is SYSTEM_PROMPT byte for byte,
 * the prompt dataset exports carry and the shipped compact policy was trained on.
 */
export function endpointSystemPrompt(space?: ActionSpace): string {
  if (!space?.actionSets.includes('coord')) return SYSTEM_PROMPT;
  const { width, height } = space.viewport;
  const lines = SYSTEM_PROMPT.split('\n');
  lines.splice(lines.length - 1, 0,
    '  mouse_click(x, y)  mouse_dblclick(x, y)  mouse_move(x, y)  mouse_down(x, y)  mouse_up(x, y)  mouse_drag_and_drop(x1, y1, x2, y2)',
    `  keyboard_type('text') types into the focused element; x, y: CSS pixels from the top-left corner of the ${width}x${height} page view the screenshot shows`,
  );
  return lines.join('\n');
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
    { role: 'system', content: image ? `${endpointSystemPrompt(input.actionSpace)}\n${VISION_NOTE}` : endpointSystemPrompt(input.actionSpace) },
    { role: 'user', content },
  ];
}
