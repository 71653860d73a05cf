// Apart from ./eval.ts (which loads the policy agent and TF.js) so the CLI can name them at start-up.
/** test: test seeds of the training families; heldout: the held-out families; train: training instances (rollouts for mining). */
export const EVAL_SPLITS = ['test', 'heldout', 'train'] as const;
export type EvalSplit = (typeof EVAL_SPLITS)[number];

