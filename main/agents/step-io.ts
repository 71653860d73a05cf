/**
 * The prompt and raw output an agent records on a step (StepRecord.io), clipped: a prompt carries
 * the page's element list and is re-sent every step, so keeping it whole would multiply the size
 * of an episode file; the start of it and its length are what a person reading a step needs.
 */
import type { StepIo } from '../store/schema.ts';

export const PROMPT_CHARS = 12_000;
export const OUTPUT_CHARS = 4_000;

export function stepIo(io: { prompt: string; output: string; promptTokens?: number; outputTokens?: number }): StepIo {
  return {
    prompt: clip(io.prompt, PROMPT_CHARS),
    ...(io.prompt.length > PROMPT_CHARS ? { promptChars: io.prompt.length } : {}),
    output: clip(io.output, OUTPUT_CHARS),
    ...(io.output.length > OUTPUT_CHARS ? { outputChars: io.output.length } : {}),
    ...(io.promptTokens !== undefined ? { promptTokens: io.promptTokens } : {}),
    ...(io.outputTokens !== undefined ? { outputTokens: io.outputTokens } : {}),
  };
}

/** Chat messages as one text, role by role; images stand as a placeholder (their bytes are in the step's screenshot). */
export function chatPromptText(messages: ReadonlyArray<{ role: string; content: string | ReadonlyArray<{ type: string; text?: string }> }>): string {
  return messages
    .map((m) => {
      const body = typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}]`)).join('\n');
      return `[${m.role}]\n${body}`;
    })
    .join('\n\n');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
