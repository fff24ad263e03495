import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One row of ../shared/corpus/MANIFEST.tsv. */
export interface CorpusEntry {
  file: string;
  absolute: string;
  features: string[];
  expectation: string;
  /** From "pypdf-check: <empty>:no user:user owner:owner": which passwords open the file and as what. */
  passwords: { password: string; opensAs: 'no' | 'user' | 'owner' }[];
  publicKey: boolean;
}

/** PDFSERVICE_CORPUS, or ../shared/corpus beside the repository; null when absent. */
export function corpusDir(): string | null {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const dir = process.env['PDFSERVICE_CORPUS'] ?? path.resolve(repo, '..', 'shared', 'corpus');
  return existsSync(path.join(dir, 'MANIFEST.tsv')) ? dir : null;
}

function parsePasswords(expectation: string): CorpusEntry['passwords'] {
  const tail = /pypdf-check:\s*(.*)$/.exec(expectation)?.[1] ?? '';
  const found: CorpusEntry['passwords'] = [];
  for (const m of tail.matchAll(/\s*(.*?):(no|user|owner)(?=\s|$)/g)) {
    const password = m[1] === '<empty>' ? '' : m[1]!;
    found.push({ password, opensAs: m[2] as 'no' | 'user' | 'owner' });
  }
  return found;
}

export function readManifest(dir: string): CorpusEntry[] {
  const [, ...rows] = readFileSync(path.join(dir, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  return rows.map((row) => {
    const [file, , , , feature, expectation] = row.split('\t') as string[];
    return {
      file: file!,
      absolute: path.join(dir, file!),
      features: (feature ?? '').split(';'),
      expectation: expectation ?? '',
      passwords: parsePasswords(expectation ?? ''),
      publicKey: /public-key|Adobe\.PubSec/.test(expectation ?? ''),
    };
  });
}
