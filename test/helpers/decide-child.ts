/**
 * Child process for the concurrent-review test: review decisions on one lab, as a second web
 * server or the CLI would make them. Says "ready" once loaded and decides when the parent writes
 * a line to its stdin, so two children decide at the same moment; prints one JSON line of answers.
 *
 *   node --import tsx decide-child.ts LAB RUN_ID DECISIONS_JSON
 *   DECISIONS_JSON: [{ "episodeId", "task", "decision": "accept"|"reject", "dataset" }, ...]
 */
import { LabStore } from '../../main/store/lab.ts';
import { decide } from '../../main/server/review-decisions.ts';
import type { DecideRequest } from '../../preload/views.ts';

const [labDir, runId, decisionsJson] = process.argv.slice(2);
const decisions = JSON.parse(decisionsJson) as Array<Omit<DecideRequest, 'runId'>>;
const store = new LabStore(labDir);
process.stdout.write('ready\n');
process.stdin.once('data', () => {
  const answers = decisions.map((d) => decide(store, { ...d, runId }).message);
  process.stdout.write(JSON.stringify({ answers }) + '\n');
  process.exit(0);
});
