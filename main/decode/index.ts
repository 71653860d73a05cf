/** Decoder construction from a loaded model: the entry point other code (CLI, web policy) uses. */
import type { LoadedModel } from '../models/checkpoint.ts';
import { AutoregressiveDecoder } from './autoregressive.ts';
import { SdsatDecoder } from './sdsat.ts';
import { SdsatOnePassDecoder } from './sdsat-one-pass.ts';
import type { Decoder, DecodeMode } from './types.ts';

export function createDecoder(loaded: Pick<LoadedModel, 'model' | 'sat'>, mode: DecodeMode, k?: number): Decoder {
  if (mode === 'ar') return new AutoregressiveDecoder(loaded.model);
  if (!loaded.sat) throw new Error('this model has no SAT tokens: train it with `lab train sdsat` or use --mode ar');
  if (mode === 'sdsat-one-pass') return new SdsatOnePassDecoder(loaded.model, loaded.sat, k ?? loaded.sat.k);
  return new SdsatDecoder(loaded.model, loaded.sat, k ?? loaded.sat.k);
}

export { AutoregressiveDecoder, SdsatDecoder, SdsatOnePassDecoder };
export type { Decoder };
export * from './types.ts';
