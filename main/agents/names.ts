/** The agents the CLI can name, apart from ./registry.ts (which loads them all, TF.js included) so its help can list them. */
export const AGENT_NAMES = ['oracle', 'noisy', 'random', 'endpoint', 'policy'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];
