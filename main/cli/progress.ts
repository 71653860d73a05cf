/**
 * The one progress bar every long command shows on stderr (cli-progress underneath): drawn only
 * on a terminal and never with --json (the output is for a program then), started on the first
 * report so its total is known, and safe to stop twice (a command's cleanup and its normal end).
 */
import type { SingleBar } from 'cli-progress';

export interface ProgressBar {
  /** Whether a bar is drawn; commands print progress lines instead when it is not (a log file). */
  readonly drawn: boolean;
  /** done of total, with the format's other fields ({task}, {loss}, ...). */
  update(done: number, total: number, fields?: Record<string, string | number>): void;
  stop(): void;
}

const SILENT: ProgressBar = { drawn: false, update: () => {}, stop: () => {} };

/**
 * A bar with this cli-progress format (`collect [{bar}] {value}/{total} tasks {task}`); a silent
 * one when `quiet` (--json) or stderr is not a terminal.
 */
export async function progressBar(format: string, opts: { quiet?: boolean } = {}): Promise<ProgressBar> {
  if (opts.quiet || !process.stderr.isTTY) return SILENT;
  const { SingleBar, Presets } = await import('cli-progress');
  let bar: SingleBar | null = null;
  return {
    drawn: true,
    update(done, total, fields = {}) {
      if (!bar) {
        bar = new SingleBar({ format, hideCursor: true, stream: process.stderr }, Presets.shades_classic);
        bar.start(total, done, fields);
        return;
      }
      if (bar.getTotal() !== total) bar.setTotal(total);
      bar.update(done, fields);
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}
