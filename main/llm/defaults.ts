/** The endpoint client's time limits, apart from ./client.ts (which loads the OpenAI client) so the CLI's help can quote them. */
export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_WAIT_MS = 5 * 60_000;
