import { readFileSync } from 'node:fs';
import { corpusDir, readManifest } from '../corpus/manifest.js';

/**
 * The corpus documents of the optimize bench (issue 21): every file the manifest
 * marks with the feature `optimization`, from $PDFSERVICE_CORPUS or ../shared/corpus
 * (none when the corpus is absent: the bench runs on its generated documents alone).
 */
export function corpusOptimizationDocuments(): { name: string; label: string; pdf: Buffer }[] {
  const dir = corpusDir();
  if (!dir) return [];
  return readManifest(dir)
    .filter((e) => e.features.includes('optimization'))
    .map((e) => {
      const pdf = readFileSync(e.absolute);
      const base = e.file.replace(/^.*\//, '').replace(/\.pdf$/i, '');
      return { name: `corpus-${base}`, label: `corpus ${e.file} (${e.expectation.split('|')[0]!.trim()})`, pdf };
    });
}
