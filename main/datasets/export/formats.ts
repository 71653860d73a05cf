// Apart from the writers (./index.ts loads the Parquet library) so the CLI's help can list the formats.
export const EXPORT_FORMATS = ['sharegpt', 'openai', 'hf', 'hf-parquet', 'verl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(s: string): s is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(s);
}

// Files some formats add beside the data, named here so the CLI can print them without loading the writers.

/** verl's custom reward function, copied from resources/trainers/ into every verl export. */
export const REWARD_MODULE = 'reward_agent_lab.py';
/** LLaMA-Factory's training config, written into every sharegpt export. */
export const LLAMAFACTORY_CONFIG = 'llamafactory_sft.yaml';
