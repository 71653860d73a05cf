/** One error type for everything wrong with a dataset, so callers (CLI, UI) can show it as is. */
export class DatasetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatasetError';
  }
}

/** Thrown when an AbortSignal stops an export; the partial output has been removed. */
export class ExportCancelledError extends Error {
  constructor(message = 'export cancelled') {
    super(message);
    this.name = 'ExportCancelledError';
  }
}
