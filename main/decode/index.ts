/** Decoder construction from a loaded model: the entry point other code (CLI, web policy) uses. */
import type { LoadedModel } from '../models/checkpoint.ts';
import { AutoregressiveDecoder } from './autoregressive.ts';
import { DEFAULT_TREE_WIDTHS, SdsatDecoder } from './sdsat.ts';
import { SdsatOnePassDecoder } from './sdsat-one-pass.ts';
import { LookupDecoder } from './lookup.ts';
import type { Decoder, DecodeMode } from './types.ts';

/** Drafted tokens per loop for lookup decoding when neither k nor the model's SAT block says. */
const DEFAULT_LOOKUP_K = 4;
/** Continuations a `lookup-tree` loop drafts. */
export const DEFAULT_LOOKUP_BRANCHES = 2;

export function createDecoder(loaded: Pick<LoadedModel, 'model' | 'sat'>, mode: DecodeMode, k?: number): Decoder {
  if (mode === 'ar') return new AutoregressiveDecoder(loaded.model);
  if (mode === 'lookup' || mode === 'lookup-tree') return new LookupDecoder(loaded.model, k ?? loaded.sat?.k ?? DEFAULT_LOOKUP_K, mode === 'lookup-tree' ? DEFAULT_LOOKUP_BRANCHES : 1);
  if (!loaded.sat) throw new Error('this model has no SAT tokens: train it with `lab train sdsat` or use --mode ar');
  if (mode === 'sdsat-one-pass' || mode === 'sdsat-lookup') return new SdsatOnePassDecoder(loaded.model, loaded.sat, k ?? loaded.sat.k, mode === 'sdsat-lookup');
  if (mode === 'merged-tree') return new SdsatDecoder(loaded.model, loaded.sat, k ?? loaded.sat.k, DEFAULT_TREE_WIDTHS, DEFAULT_LOOKUP_BRANCHES);
  return new SdsatDecoder(loaded.model, loaded.sat, k ?? loaded.sat.k, mode === 'sdsat-tree' ? DEFAULT_TREE_WIDTHS : undefined);
}

export { AutoregressiveDecoder, LookupDecoder, SdsatDecoder, SdsatOnePassDecoder };
export type { Decoder };
export * from './types.ts';
