/**
 * What a person does in the live demonstration view (a click at a point, typed text, a key, ...),
 * as it arrives from the UI: its schema is part of the API contract (main/server/params.ts), apart from
 * the demonstration session so the contract does not load the browser side.
 */
import { z } from 'zod';

/** What the person did in the live view, before it becomes an action string. */
export const humanInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('click'), x: z.number().finite(), y: z.number().finite() }),
  z.object({ kind: z.literal('type'), text: z.string() }),
  z.object({ kind: z.literal('select'), id: z.string().regex(/^\d+$/), option: z.string() }),
  z.object({ kind: z.literal('key'), key: z.string().min(1).max(40) }),
  z.object({ kind: z.literal('scroll'), dy: z.number().finite() }),
  z.object({ kind: z.literal('back') }),
  z.object({ kind: z.literal('finish'), answer: z.string() }),
]);
export type HumanInput = z.infer<typeof humanInputSchema>;
