// Apart from ./eval.ts (which loads the policy agent and TF.js) so the CLI can name them at start-up.
/** test: test seeds of the training families; heldout: the held-out families; train: training instances (rollouts for mining). */
export const EVAL_SPLITS = ['test', 'heldout', 'train'] as const;
export type EvalSplit = (typeof EVAL_SPLITS)[number];

/** lab/evals/<id>/episodes.jsonl: each finished episode with its decoding totals, appended as it ends, so a stopped evaluation can continue. */
export const EVAL_PROGRESS_FILE = 'episodes.jsonl';
/** lab/evals/<id>/request.json: what the evaluation runs; a continuation must ask for the same. */
export const EVAL_REQUEST_FILE = 'request.json';
