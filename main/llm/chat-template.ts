/**
 * The chat template `lab serve` uses to turn chat messages into one prompt for a workbench model.
 * The models are plain causal LMs trained on text without role tokens, so the template is plain
 * text a person can read and a small model can learn:
 *
 *   ### System
 *   You are a web agent...
 *
 *   ### User
 *   Task: ...
 *
 *   ### Assistant
 *   <generation starts here>
 *
 * Each message is a header line `### <Role>`, its content, and a blank line. A past assistant turn
 * ends like any other message. Generation stops at the end-of-text token, at the start of another
 * turn (TURN_STOP) or at the request's own stop strings. Image parts are dropped: the models read
 * text only; the caller is told how many were dropped.
 */

export type ChatRole = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface TemplateMessage {
  role: ChatRole;
  content: string | null | ReadonlyArray<{ type: string; text?: string }>;
}

const HEADERS: Record<ChatRole, string> = {
  system: 'System',
  // OpenAI's newer name for the system role; both read as instructions to the model.
  developer: 'System',
  user: 'User',
  assistant: 'Assistant',
  tool: 'Tool',
};

/** A model that starts writing the next turn has finished its own. */
export const TURN_STOP = '\n### ';

export interface RenderedChat {
  prompt: string;
  droppedImages: number;
}

export function renderChatPrompt(messages: readonly TemplateMessage[]): RenderedChat {
  let droppedImages = 0;
  const parts: string[] = [];
  for (const m of messages) {
    let text: string;
    if (typeof m.content === 'string') text = m.content;
    else if (m.content === null) text = '';
    else {
      const texts: string[] = [];
      for (const p of m.content) {
        if (p.type === 'text') texts.push(p.text ?? '');
        else droppedImages++;
      }
      text = texts.join('\n');
    }
    parts.push(`### ${HEADERS[m.role]}\n${text.trim()}\n\n`);
  }
  parts.push(`### ${HEADERS.assistant}\n`);
  return { prompt: parts.join(''), droppedImages };
}
