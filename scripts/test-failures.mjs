// A node:test reporter that writes one line per failed test: its file, its name and the first lines of its error.
// .ci/run passes it beside the usual reporter and prints the lines after the time per stage, at the very end of the log,
// so that a failure is named where a reader of only the log's tail looks (a long run's failure scrolls out of sight).
// Parents that failed only because a subtest did are left out: the subtest's own line says it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function describe(event) {
  const { name, file, details } = event.data;
  const error = details?.error;
  if (error?.failureType === 'subtestsFailed') return undefined;
  const cause = error?.cause ?? error;
  const message = String(cause?.message ?? cause ?? 'failed')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 4)
    .join(' | ');
  const where = file ? path.relative(process.cwd(), file.startsWith('file:') ? fileURLToPath(file) : file) : '?';
  return `${where}: "${name}": ${message.length > 600 ? `${message.slice(0, 600)}...` : message}\n`;
}

export default async function* failures(source) {
  for await (const event of source) {
    if (event.type !== 'test:fail' || event.data.todo) continue;
    const line = describe(event);
    if (line) yield line;
  }
}
