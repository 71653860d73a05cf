/**
 * The OpenAI chat-completions wire format, as far as `lab serve` speaks it: the request body
 * (validated, so a bad body gets a 400 naming the field), the error shape, and the response and
 * stream-chunk objects.
 */
import { z } from 'zod';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
// `detail` is OpenAI's (low, high, auto); read and kept so a request's shape survives parsing, though a text model drops the image.
const imagePart = z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string(), detail: z.enum(['low', 'high', 'auto']).optional() }) });
// Other part types (audio, files) are not read by a text model either; they are dropped like images.
const otherPart = z.object({ type: z.string() }).loose();

export const chatMessageSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.union([textPart, imagePart, otherPart])), z.null()], {
    message: 'must be a string, an array of content parts ({type: "text", text} or {type: "image_url", image_url: {url}}), or null',
  }),
  name: z.string().optional(),
});

export const chatRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(chatMessageSchema).min(1, 'at least one message is required'),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  seed: z.number().int().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  n: z.literal(1, { message: 'only n=1 is supported' }).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof chatRequestSchema>;

export interface ApiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }

  get type(): string {
    if (this.status === 404 && this.code === 'model_not_found') return 'invalid_request_error';
    if (this.status >= 500) return 'server_error';
    if (this.status === 404) return 'not_found_error';
    return 'invalid_request_error';
  }

  body(): ApiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** Parse a request body, turning the first schema problem into a 400 that names the field. */
export function parseChatRequest(body: unknown): ChatCompletionRequest {
  const r = chatRequestSchema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const param = issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') || null;
  throw new ApiError(400, `${param ?? 'body'}: ${issue.message}`, param, 'invalid_value');
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** As OpenAI reports prompt caching: prompt tokens read from the cache of an earlier request. */
  prompt_tokens_details: { cached_tokens: number };
}

export const usageOf = (prompt: number, completion: number, cached = 0): Usage => ({
  prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: cached },
});
