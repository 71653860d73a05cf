/**
 * The episode file format: JSON Lines, one event per line, validated on read.
 *   {"type":"episode", ...}   header, first line
 *   {"type":"step", ...}      one per step, appended as it happens
 *   {"type":"end", ...}       outcome, last line (absent if the run died)
 */
import { z } from 'zod';
import type { PageElement, StepError } from '../environment/types.ts';
import { LAB_ID } from './layout.ts';

export const FORMAT_VERSION = 1;

const box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const elementSchema = z.object({
  id: z.string(),
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  value: z.string().optional(),
  checked: z.union([z.boolean(), z.literal('mixed')]).optional(),
  selected: z.boolean().optional(),
  disabled: z.boolean().optional(),
  expanded: z.boolean().optional(),
  required: z.boolean().optional(),
  invalid: z.boolean().optional(),
  options: z.array(z.string()).optional(),
  box,
  visible: z.boolean(),
  inViewport: z.boolean(),
});

/**
 * A step error as read back. The code is read as any string, not only today's StepErrorCode, so an
 * episode written by a version with a code since renamed still opens.
 */
export const stepErrorSchema = z.object({ code: z.string(), message: z.string() });

// One format, declared once: the environment's types are what is written, these schemas what is
// read, and tsc holds them together field for field (an error here names the field that drifted).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const elementReadAsWritten: Same<z.infer<typeof elementSchema>, PageElement> = true;
const stepErrorReadsWhatIsWritten: StepError extends z.infer<typeof stepErrorSchema> ? true : false = true;
void elementReadAsWritten;
void stepErrorReadsWhatIsWritten;

/** What the agent saw: the observation minus the screenshot bytes, which live in blobs/. */
export const observationRecordSchema = z.object({
  url: z.string(),
  title: z.string(),
  elements: z.array(elementSchema),
  /** sha256 of the PNG in the lab's blob store. */
  screenshot: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
  lastActionError: stepErrorSchema.nullable(),
});

export const taskRecordSchema = z.object({
  family: z.string(),
  seed: z.number().int(),
  tier: z.number().int().min(1).max(3),
  instruction: z.string(),
  startUrl: z.string(),
  split: z.enum(['train', 'test', 'other']),
  /** Who decides success: absent = the site's checker; 'page' = the page's own reward (MiniWoB++); 'judge' = an LLM judge afterwards (lab/judgments/). */
  checker: z.enum(['site', 'page', 'judge']).optional(),
  /** 'state': the goal is a page state (the checker may end the episode); 'answer': a message to the user. Absent in older episodes. */
  goalKind: z.enum(['state', 'answer']).optional(),
  /** An imported benchmark task: its format, its own id, and the file and row it came from. */
  source: z.object({ format: z.string(), id: z.string(), file: z.string(), row: z.number().int() }).optional(),
  /** A benchmark page's run settings (MiniWoB++: timeLimitMs, pageSeed, humanDisplay). Absent for the built-in sites and in older episodes. */
  harness: z.object({ name: z.string(), settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])) }).optional(),
});

/**
 * Where an episode came from, recorded in its header when it is written: the collection run
 * (lab/runs/<id>), its attempt and arm, the evaluation (lab/evals/<id>) and the experiment
 * (lab/experiments/<id>) that made it. Absent in headers written before it was recorded, and
 * for episodes made outside those (a single `lab episode`, a demonstration).
 */
export const provenanceRecordSchema = z.object({
  run: z.string().optional(),
  attempt: z.number().int().min(0).optional(),
  /** 'reflect' or 'blind'; 'shared' for the first attempt, which counts in both arms. */
  arm: z.string().optional(),
  eval: z.string().optional(),
  experiment: z.string().optional(),
});

export const episodeHeaderSchema = z.object({
  type: z.literal('episode'),
  version: z.literal(FORMAT_VERSION),
  id: z.string().regex(LAB_ID),
  createdAt: z.string(),
  task: taskRecordSchema,
  agent: z.object({ name: z.string(), config: z.record(z.string(), z.unknown()).optional() }),
  env: z.object({
    viewport: z.object({ width: z.number(), height: z.number() }),
    screenshots: z.boolean(),
    browser: z.string(),
    /** Whether a page-state goal ended the episode when the checker passed; absent in older episodes, which ran without. */
    endOnGoal: z.boolean().optional(),
    /** Whether the page ran in Chromium's sandbox, and why not; absent in headers written before it was recorded, and for remote browsers. */
    sandbox: z.object({ enabled: z.boolean(), reason: z.string().optional() }).optional(),
    /**
     * The action sets the agent was allowed (main/environment/action-sets.ts). Absent in headers
     * written before they existed, which ran with all but `coord`. Read as any names, so a set
     * since renamed still opens.
     */
    actionSets: z.array(z.string()).optional(),
    /** How the observations laid out page text (`sentences` or `runs`, see EnvOptions.textLayout); absent in older headers. */
    textLayout: z.string().optional(),
  }),
  links: z
    .object({
      retryOf: z.string().optional(),
      reflection: z.string().optional(),
      shortenedFrom: z.string().optional(),
      /** A fork (collection/fork.ts): the parent episode and the step (0-based) where this episode's agent took over; the parent's steps before it were replayed. */
      forkOf: z.object({ episodeId: z.string(), step: z.number().int().min(0) }).optional(),
    })
    .default({}),
  provenance: provenanceRecordSchema.optional(),
});

export const stepRecordSchema = z.object({
  type: z.literal('step'),
  index: z.number().int().min(0),
  observation: observationRecordSchema,
  thought: z.string().optional(),
  action: z.string(),
  error: stepErrorSchema.nullable(),
  timing: z.object({
    agentMs: z.number(),
    actionMs: z.number(),
    settleMs: z.number(),
    observeMs: z.number(),
    totalMs: z.number(),
    navigated: z.boolean().optional(),
  }),
  /** The language-model call behind the step (endpoint agents): tokens, latency, retries, malformed output. */
  llm: z
    .object({
      promptTokens: z.number().int().min(0),
      completionTokens: z.number().int().min(0),
      latencyMs: z.number().min(0),
      attempts: z.number().int().min(1),
      malformed: z.string().optional(),
      /** The start of a malformed answer (clipped); outputChars is its whole length when it was clipped. */
      output: z.string().optional(),
      outputChars: z.number().int().min(0).optional(),
      /** The whole length of a thought that was clipped in the step. */
      thoughtChars: z.number().int().min(0).optional(),
    })
    .optional(),
  /**
   * The agent's prompt and raw output for the step, clipped (promptChars / outputChars: the whole
   * length when clipped), with token counts where the agent knows them. Absent for agents without
   * a model (oracle, random, a person) and in steps recorded before it was.
   */
  io: z
    .object({
      prompt: z.string(),
      promptChars: z.number().int().min(0).optional(),
      output: z.string(),
      outputChars: z.number().int().min(0).optional(),
      promptTokens: z.number().int().min(0).optional(),
      outputTokens: z.number().int().min(0).optional(),
    })
    .optional(),
  /**
   * What the page logged and requested from the previous observation to this step's (step 0: since
   * the page opened), at most 50 console entries and 100 requests, strings clipped; the dropped
   * counts say how many were left out. Absent in steps recorded before it was.
   */
  activity: z
    .object({
      console: z.array(z.object({ level: z.string(), source: z.string(), text: z.string() })),
      requests: z.array(
        z.object({
          method: z.string(),
          url: z.string(),
          type: z.string(),
          status: z.number().int().nullable(),
          durationMs: z.number().nullable(),
          failed: z.string().optional(),
        }),
      ),
      droppedConsole: z.number().int().min(0),
      droppedRequests: z.number().int().min(0),
      /** Requests the network guard refused (the page's, its frames' and workers'): all counted, the first 20 listed. */
      refused: z.object({ count: z.number().int().min(1), requests: z.array(z.string()) }).optional(),
    })
    .optional(),
  at: z.string(),
});

export const endRecordSchema = z.object({
  type: z.literal('end'),
  success: z.boolean(),
  /**
   * checker: the agent ended it (a message, report_infeasible) or the page did (MiniWoB++), then the
   * checker judged; goal_reached: the checker found a page-state goal met after a step and ended it.
   */
  reason: z.enum(['checker', 'goal_reached', 'max_steps', 'page_lost', 'agent_error', 'cancelled']),
  keyPoints: z.array(z.object({ name: z.string(), met: z.boolean(), detail: z.string().optional() })),
  steps: z.number().int().min(0),
  messages: z.array(z.string()),
  infeasible: z.string().optional(),
  /** Why the agent stopped, when it failed rather than acted (reason 'agent_error'). */
  agentError: z.string().optional(),
  /** The page's own reward (MiniWoB++): as given, before the time discount, and its reason. */
  reward: z.object({ value: z.number(), raw: z.number(), reason: z.string().nullable() }).optional(),
  finalObservation: observationRecordSchema,
  durationMs: z.number(),
  at: z.string(),
});

export const episodeLineSchema = z.discriminatedUnion('type', [episodeHeaderSchema, stepRecordSchema, endRecordSchema]);

export type EpisodeHeader = z.infer<typeof episodeHeaderSchema>;
export type StepRecord = z.infer<typeof stepRecordSchema>;
export type StepIo = NonNullable<StepRecord['io']>;
export type EndRecord = z.infer<typeof endRecordSchema>;
export type ObservationRecord = z.infer<typeof observationRecordSchema>;
export type EpisodeLine = z.infer<typeof episodeLineSchema>;
export type ProvenanceRecord = z.infer<typeof provenanceRecordSchema>;
