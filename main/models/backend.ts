/**
 * Run-time choice of the TensorFlow.js backend.
 *
 * Candidates are tried in priority order; the first that loads and initialises wins. Native
 * packages (tfjs-node-gpu, tfjs-node) are optional dependencies that often fail to install, so
 * they are loaded with a guarded dynamic import. Other code can add candidates (for instance a
 * native-kernel backend between tfjs-node and wasm) with `registerBackendCandidate`.
 */
import * as tf from '@tensorflow/tfjs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

export interface BackendCandidate {
  /** Name shown to users and recorded with runs, e.g. "tfjs-node-gpu", "wasm". */
  id: string;
  /** Priority: lower is tried first. Built-ins use 100 (gpu), 200 (node), 300 (native), 400 (wasm), 500 (cpu). */
  priority: number;
  /** Makes the backend available to tf and returns its tf backend name, or null when unavailable. */
  load(): Promise<string | null>;
}

export interface BackendInfo {
  id: string;
  tfBackend: string;
  tfVersion: string;
  /** Candidates tried before this one, with why they were skipped. */
  skipped: { id: string; reason: string }[];
}

/** Import a module whose name TypeScript must not resolve at compile time (optional deps). */
async function importOptional(specifier: string): Promise<unknown> {
  return import(specifier);
}

// The cpu backend (which the native one builds on) greets Node users on its first tensor with
// advice to install tfjs-node; the workbench picks and prints its backend itself, so that banner
// only misleads. PROD silences tfjs's warn(); it changes nothing that is computed.
tf.env().set('PROD', true);

const candidates: BackendCandidate[] = [
  {
    id: 'tfjs-node-gpu',
    priority: 100,
    async load() {
      await importOptional('@tensorflow/tfjs-node-gpu');
      return 'tensorflow';
    },
  },
  {
    id: 'tfjs-node',
    priority: 200,
    async load() {
      await importOptional('@tensorflow/tfjs-node');
      return 'tensorflow';
    },
  },
  {
    // The project's own CPU kernels (native/): between the TensorFlow C library and wasm.
    id: 'native',
    priority: 300,
    async load() {
      const { tryRegisterNativeBackend, NATIVE_BACKEND } = await import('./native-backend.ts');
      const r = tryRegisterNativeBackend();
      if (!r.ok) throw new Error(r.reason);
      return NATIVE_BACKEND;
    },
  },
  {
    id: 'wasm',
    priority: 400,
    async load() {
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      const require = createRequire(import.meta.url);
      const dir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
      // Threaded wasm does not work in Node 20: point at the single-threaded binaries only.
      tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
      wasm.setWasmPaths(dir + '/');
      return 'wasm';
    },
  },
  {
    id: 'cpu',
    priority: 500,
    async load() {
      return 'cpu';
    },
  },
];

/** Add a backend candidate (replaces one with the same id). */
export function registerBackendCandidate(candidate: BackendCandidate): void {
  const i = candidates.findIndex((c) => c.id === candidate.id);
  if (i >= 0) candidates.splice(i, 1);
  candidates.push(candidate);
}

/** Candidate ids in the order they would be tried. */
export function backendCandidateIds(): string[] {
  return [...candidates].sort((a, b) => a.priority - b.priority).map((c) => c.id);
}

let current: BackendInfo | null = null;

/**
 * Select and initialise a backend. With `prefer`, only that candidate is tried (an error if it
 * cannot load); otherwise the first one that works in priority order. $LAB_BACKEND acts as `prefer`.
 */
export async function selectBackend(prefer?: string): Promise<BackendInfo> {
  const wanted = prefer ?? process.env.LAB_BACKEND ?? undefined;
  const order = [...candidates].sort((a, b) => a.priority - b.priority).filter((c) => !wanted || c.id === wanted);
  if (wanted && order.length === 0) throw new Error(`unknown backend "${wanted}" (known: ${backendCandidateIds().join(', ')})`);
  if (current && (!wanted || current.id === wanted) && tf.getBackend() === current.tfBackend) return current;
  const skipped: { id: string; reason: string }[] = [];
  for (const c of order) {
    try {
      const name = await c.load();
      if (!name) throw new Error('not available');
      const ok = await tf.setBackend(name);
      if (!ok) throw new Error(`tf.setBackend('${name}') failed`);
      await tf.ready();
      current = { id: c.id, tfBackend: name, tfVersion: tf.version.tfjs, skipped };
      sayOnceWhyNativeIsMissing(skipped, c.id);
      return current;
    } catch (err) {
      skipped.push({ id: c.id, reason: firstLine(err) });
    }
  }
  throw new Error(`no TensorFlow.js backend could start: ${skipped.map((s) => `${s.id}: ${s.reason}`).join('; ')}`);
}

/** The backend chosen by the last `selectBackend`, or null. */
export function currentBackend(): BackendInfo | null {
  return current;
}

/** Every candidate that can load here (for benchmarks); leaves the first working one selected. */
export async function availableBackends(): Promise<string[]> {
  const ok: string[] = [];
  for (const id of backendCandidateIds()) {
    try {
      await selectBackend(id);
      ok.push(id);
    } catch {
      // Not available on this machine; benchmarks list only what runs.
    }
  }
  if (ok.length) await selectBackend(ok[0]);
  return ok;
}

let saidWhyNativeIsMissing = false;

/** The native kernels are this project's own: when they cannot run, say so once, with why. */
function sayOnceWhyNativeIsMissing(skipped: { id: string; reason: string }[], chosen: string): void {
  const native = skipped.find((s) => s.id === 'native');
  if (!native || saidWhyNativeIsMissing) return;
  saidWhyNativeIsMissing = true;
  process.stderr.write(`lab: native kernels unavailable (${native.reason}); using ${chosen}\n`);
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0];
}
