/**
 * OpenAI chat fine-tuning JSONL: <split>.jsonl, one {"messages": [...]} per line. The assistant
 * message carries weight 1 (train on it); a screenshot goes into the user message as a data: URL
 * image part, since a JSONL line must stand alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonlWriter, type ExportContext } from './common.ts';

type UserContent = string | Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>;

export async function exportOpenAi(ctx: ExportContext): Promise<void> {
  for (const { split, samples } of ctx.splits) {
    const file = `${split}.jsonl`;
    const out = new JsonlWriter(join(ctx.dir, file));
    try {
      for (const s of samples) {
        const [system, user, assistant] = s.messages;
        const content: UserContent = s.images.length
          ? [
              ...s.images.map((img) => ({ type: 'image_url' as const, image_url: { url: `data:image/png;base64,${readFileSync(img.path).toString('base64')}` } })),
              { type: 'text' as const, text: user.content },
            ]
          : user.content;
        out.write({
          messages: [
            { role: 'system', content: system.content },
            { role: 'user', content },
            { role: 'assistant', content: assistant.content, weight: 1 },
          ],
        });
        await ctx.advance();
      }
    } finally {
      out.close();
    }
    ctx.wrote(file);
  }
}
