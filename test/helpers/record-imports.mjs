// `node --import ./record-imports.mjs`: writes every module URL the process resolved to the file
// named by $RECORD_IMPORTS_OUT when it exits (one per line). The startup test uses it to see what
// a command loads. The resolve hook runs on the loader thread and reports back over a port.
import { register } from 'node:module';
import { writeFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const seen = new Set();
port1.on('message', (url) => seen.add(url));
port1.unref();
register('./record-imports-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => writeFileSync(process.env.RECORD_IMPORTS_OUT, [...seen].join('\n')));
