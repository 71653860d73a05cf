/**
 * The one front door to a decoding model: which model is shipped, and loading one with its backend
 * and decoders. `lab decode`, `lab serve`'s worker and the app's decoding dashboard all open models
 * here, so the defaults and the checks are written once.
 *
 * TF.js and the model load inside `openDecodingModel`, not with this module: CLI command files import
 * the paths for their help text, and `lab --help` must not wait for TF.js.
 */
import { resourcePath } from '../paths.ts';
import type { BackendInfo } from '../models/backend.ts';
import type { LoadedModel } from '../models/checkpoint.ts';
import type { createDecoder } from './index.ts';

/** The shipped SDSAT code model (`lab decode`, `bench decode`, `serve` and the dashboard default to it). */
export const SHIPPED_MODEL = resourcePath('models', 'sdsat-code');
/** The tiny model (265K parameters) that tests and `bench train` use because it decodes in a fraction of the time. */
export const TINY_MODEL = resourcePath('models', 'sdsat-ts');

export interface DecodingModel {
  backend: BackendInfo;
  loaded: LoadedModel;
  createDecoder: typeof createDecoder;
}

/**
 * Select the backend, load the model in `dir` and hand back the decoder factory.
 * `requireSat`: refuse a model without SAT tokens (the dashboard compares SDSAT with AR).
 */
export async function openDecodingModel(dir: string, o: { backend?: string; requireSat?: boolean } = {}): Promise<DecodingModel> {
  const [{ selectBackend }, { isCheckpoint, loadModel }, decode] = await Promise.all([
    import('../models/backend.ts'), import('../models/checkpoint.ts'), import('./index.ts'),
  ]);
  if (!isCheckpoint(dir)) throw new Error(`no model checkpoint in ${dir} (model.json and weights.bin)`);
  const backend = await selectBackend(o.backend);
  const loaded = loadModel(dir);
  if (o.requireSat && !loaded.sat) throw new Error(`${dir} has no SAT tokens: fine-tune it with \`lab train sdsat\``);
  return { backend, loaded, createDecoder: decode.createDecoder };
}
