/**
 * What an agent and the episode record are told about a task instance (TaskSpec) and the words it
 * is written in. Apart from ./types.ts (the families' own interface, which names the oracle's
 * Agent) so that ./agent.ts can name a TaskSpec without a circle between the two.
 */
export type Tier = 1 | 2 | 3;

/** What an agent and the episode record are told about a task instance. */
export interface TaskSpec {
  family: string;
  seed: number;
  tier: Tier;
  instruction: string;
  startUrl: string;
  /** Origins the page may navigate within (the task server's own). */
  allowedOrigins: string[];
  maxSteps: number;
  /** Who decides success: the site's checker (absent), the page's own reward, or an LLM judge. */
  checker?: Checker;
  /** What the task asks for: a page state (ends when the checker passes) or an answer (ends with the agent's message). */
  goalKind: GoalKind;
  /** Where an imported task came from (benchmark, its task id, file and row). */
  source?: TaskSource;
  /** How an outside benchmark's page was run (MiniWoB++: time limit, page seed, human display). */
  harness?: TaskHarness;
}

/** The settings under which a benchmark's own page ran, recorded so a run says what it compares with. */
export interface TaskHarness {
  name: string;
  settings: Record<string, string | number | boolean>;
}

/**
 * 'site': the family's checker reads server-side state (the built-in families).
 * 'page': the page reports its own reward (MiniWoB++); the checker reads what it reported.
 * 'judge': no checker at all (tasks on the live web); `lab judge` decides afterwards.
 */
export type Checker = 'site' | 'page' | 'judge';

/**
 * 'state': the goal is a state of the site (a booking made, a job saved, a mail archived); as
 *   BrowserGym's validate, the episode ends the moment the checker reports success.
 * 'answer': the goal is a message to the user (a question answered with send_msg_to_user); the
 *   episode ends with the agent's message, never earlier, whatever the page state.
 */
export type GoalKind = 'state' | 'answer';

export interface TaskSource {
  format: string;
  id: string;
  file: string;
  row: number;
}
