// Apart from the writers (./index.ts loads the Parquet library) so the CLI's help can list the formats.
export const EXPORT_FORMATS = ['sharegpt', 'openai', 'hf', 'hf-parquet', 'verl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(s: string): s is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(s);
}
