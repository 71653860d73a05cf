/**
 * Training samples from a frozen dataset: one per step, prompt messages + target action, with the
 * manual labels applied. A step labeled wrong or detour teaches the wrong thing, so it is left
 * out, unless a person wrote the action that should have been taken: then that is the target.
 */
import { renderPrompt, type ChatMessage, type PromptStep } from '../policy/observation-text.ts';
import type { PageElement } from '../environment/types.ts';
import type { LabStore } from '../store/lab.ts';
import { LabelStore, type StepLabel } from '../store/labels.ts';
import { DatasetError } from './errors.ts';
import type { DatasetManifest } from './manifest.ts';
import type { SplitName } from './split.ts';

export interface SampleImage {
  /** sha256 of the PNG in the lab's blob store. */
  sha256: string;
  /** Absolute path of the blob, to copy or read. */
  path: string;
}

export interface TrainingSample {
  episodeId: string;
  step: number;
  split: SplitName;
  family: string;
  seed: number;
  tier: number;
  /** system, user, assistant: what SFT trains on (the assistant message is the target). */
  messages: ChatMessage[];
  /** The action the model should produce (the correction when there is one). */
  target: { thought?: string; action: string };
  label: StepLabel | null;
  /** The target is a person's correction, not the recorded action. */
  corrected: boolean;
  /** Labeled critical: the state where the episode was won or lost (RL weights these). */
  critical: boolean;
  /** The step's screenshot, when one was recorded. */
  images: SampleImage[];
  /** The page's elements at the step: what an RL reward compares the target's meaning on. */
  elements: readonly PageElement[];
}

export interface BuildSamplesOptions {
  /** Only these splits (default all). */
  splits?: readonly SplitName[];
  signal?: AbortSignal;
  /** Fail on a step whose screenshot file is missing, instead of leaving the step out. */
  strict?: boolean;
}

export interface BuildSamplesResult {
  samples: TrainingSample[];
  /** Steps left out because they were labeled wrong or detour without a correction. */
  skipped: number;
  /** Steps left out because their screenshot file is missing (each also in warnings). */
  missingScreenshots: number;
  /**
   * Episodes whose labels file could not be read (exported without labels, file and line named),
   * and each step left out for a missing screenshot (file named).
   */
  warnings: string[];
}

const SKIP: ReadonlySet<StepLabel> = new Set(['wrong', 'detour']);

/** Build the samples of a manifest read with readManifest (which verified the files). */
export function buildSamples(lab: LabStore, manifest: DatasetManifest, opts: BuildSamplesOptions = {}): BuildSamplesResult {
  const where = `dataset ${manifest.name} v${manifest.version}`;
  const labels = new LabelStore(lab.dir);
  const samples: TrainingSample[] = [];
  const warnings: string[] = [];
  let skipped = 0;
  let missingScreenshots = 0;
  for (const entry of manifest.episodes) {
    if (opts.signal?.aborted) break;
    if (opts.splits && !opts.splits.includes(entry.split)) continue;
    let episode;
    try {
      episode = lab.readEpisode(entry.id);
    } catch (err) {
      throw new DatasetError(`${where}: episode ${entry.id} cannot be read: ${(err as Error).message}`);
    }
    const { labels: l, problem } = labels.readOrReport(entry.id);
    if (problem) warnings.push(`${where}: ${problem}`);
    const history: PromptStep[] = [];
    for (const step of episode.steps) {
      const label = l.steps[step.index] ?? null;
      const correction = l.corrections[step.index];
      if (label && SKIP.has(label) && correction === undefined) {
        skipped++;
      } else {
        // A recorded thought argued for the recorded action; it would contradict a correction.
        const target = correction !== undefined ? { action: correction } : { thought: step.thought, action: step.action };
        const shot = step.observation.screenshot;
        const images: SampleImage[] = [];
        if (shot && !lab.blobs.has(shot)) {
          const what = `${where}: episode ${entry.id} step ${step.index}: screenshot ${lab.blobs.pathOf(shot)} is missing`;
          if (opts.strict) throw new DatasetError(what);
          // A vision sample without its image would teach from a page the model never saw.
          warnings.push(`${what}; step left out`);
          missingScreenshots++;
          history.push({ action: step.action, error: step.error });
          continue;
        }
        if (shot) images.push({ sha256: shot, path: lab.blobs.pathOf(shot) });
        samples.push({
          episodeId: entry.id,
          step: step.index,
          split: entry.split,
          family: entry.family,
          seed: entry.seed,
          tier: entry.tier,
          messages: renderPrompt({ instruction: episode.header.task.instruction, observation: step.observation, history, target }),
          target: target.thought ? target : { action: target.action },
          label,
          corrected: correction !== undefined,
          critical: label === 'critical',
          images,
          elements: step.observation.elements,
        });
      }
      // The history is what really happened, corrected or not: the page shows its effects.
      history.push({ action: step.action, error: step.error });
    }
  }
  return { samples, skipped, missingScreenshots, warnings };
}
