/**
 * Stop strings over text that grows token by token: where the first one starts, and how much of
 * the text can be sent to a streaming client without sending the beginning of a stop string
 * (which would then have to be taken back).
 */
export class StopScanner {
  private readonly stops: string[];

  constructor(stops: readonly string[]) {
    this.stops = stops.filter((s) => s.length > 0);
  }

  /** Index where the earliest stop string starts in `text`, or null. */
  find(text: string): number | null {
    let best: number | null = null;
    for (const s of this.stops) {
      const i = text.indexOf(s);
      if (i >= 0 && (best === null || i < best)) best = i;
    }
    return best;
  }

  /** Length of the prefix of `text` that cannot become part of a stop string, whatever follows. */
  safeLength(text: string): number {
    let hold = 0;
    for (const s of this.stops) {
      for (let n = Math.min(s.length - 1, text.length); n > hold; n--) {
        if (text.endsWith(s.slice(0, n))) {
          hold = n;
          break;
        }
      }
    }
    return text.length - hold;
  }
}
