/** Ids and file names that sort by time: a compact UTC time stamp, then random hex so two in one second differ. */
import { randomBytes } from 'node:crypto';

/** "20261207T081137Z": an ISO time without separators or milliseconds. */
export function timeStamp(at: Date = new Date()): string {
  return at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** "20261207T081137Z-3fa2c1": the time stamp, then `bytes` random bytes in hex. */
export function stampedId(bytes = 3, at: Date = new Date()): string {
  return `${timeStamp(at)}-${randomBytes(bytes).toString('hex')}`;
}
