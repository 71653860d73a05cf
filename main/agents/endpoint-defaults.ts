/** The endpoint agent's defaults, apart from ./endpoint-agent.ts (which loads the OpenAI client) so the CLI's help can quote them. */
export const ENDPOINT_DEFAULTS = { temperature: 0.7, maxTokens: 256, vision: false, stream: false, maxMalformed: 3, maxWaitMs: 5 * 60_000 } as const;
