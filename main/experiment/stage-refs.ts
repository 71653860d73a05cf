/**
 * The things a finished experiment stage produced that the app has views for: the collection run,
 * the dataset versions, the trained policy, the evaluation, the mining report. Read from the
 * stage's outputs/<stage>.json (see stages.ts for each stage's outputs); fields a stage does not
 * have are skipped, so a report from an older version still lists what it can.
 */
import type { StageOutputRef } from '../../preload/views.ts';

type Json = Record<string, unknown>;
const obj = (x: unknown): Json | null => (x && typeof x === 'object' && !Array.isArray(x) ? (x as Json) : null);
const str = (x: unknown): string | null => (typeof x === 'string' && x ? x : null);

function datasetRef(x: unknown): StageOutputRef | null {
  const d = obj(x);
  return d && str(d.name) && typeof d.version === 'number' ? { kind: 'dataset', id: `${d.name as string}@v${d.version}` } : null;
}

export function stageOutputRefs(stage: string, outputs: unknown): StageOutputRef[] {
  const o = obj(outputs);
  if (!o) return [];
  const refs: Array<StageOutputRef | null> = [];
  if (stage.startsWith('collect-')) refs.push(str(o.runId) ? { kind: 'run', id: o.runId as string } : null);
  else if (stage === 'datasets') refs.push(datasetRef(o.reflect), datasetRef(o.plain));
  else if (stage.startsWith('sft-') || stage.startsWith('salvage-')) refs.push(str(o.dir) ? { kind: 'policy', id: o.dir as string } : null);
  else if (stage === 'mine') refs.push(str(o.evalId) ? { kind: 'mining', id: o.evalId as string } : null);
  else if (str(o.evalId)) refs.push({ kind: 'eval', id: o.evalId as string });
  return refs.filter((r): r is StageOutputRef => r !== null);
}
