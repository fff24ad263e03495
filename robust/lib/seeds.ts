/**
 * The valid documents the mutations start from: built in code with the test
 * fixtures (text pages, every annotation subtype, a form, rotated and cropped
 * pages, an image stamp, compressed object streams made by qpdf, an encrypted
 * copy), plus a few small valid files of the corpus when it is present (read
 * from there, never copied).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { everySubtypeFixture } from '../../test/helpers/annotated-pdf.js';
import { imageStampPdf } from '../../test/helpers/appearance-pdf.js';
import { makeFormPdf } from '../../test/helpers/form-pdf.js';
import { makePagesPdf, textLines } from '../../test/helpers/page-fixtures.js';
import { encryptPdf, makePdf, withTempFile } from '../../test/helpers/pdf.js';
import { corpusDir } from '../../corpus/manifest.js';
import type { SeedDocument } from './mutations.js';
import { parseObjects } from './pdf-objects.js';

/** Small valid corpus files used as seeds (byte-level and in-place mutations only when they use object streams). */
export const CORPUS_SEEDS = [
  'pdfbox/annotations/AnnotationTypes.pdf',
  'pdfjs/forms/textfields.pdf',
  'pypdf/text-extraction/crazyones.pdf',
  'pypdf/annotations/commented.pdf',
];

function seed(name: string, bytes: Buffer, password?: string): SeedDocument {
  const text = bytes.toString('latin1');
  const classic = !/\/Type\s*\/(ObjStm|XRef)\b/.test(text);
  return { name, bytes, objects: classic ? parseObjects(bytes) : null, ...(password !== undefined ? { password } : {}) };
}

export function seedDocuments(): SeedDocument[] {
  const annotated = everySubtypeFixture().pdf;
  const seeds: SeedDocument[] = [
    seed('text-1-page', makePdf({ pages: 1, text: () => 'Hostile input test' })),
    seed('text-3-pages', makePdf({ pages: 3, title: 'Three pages', text: (i) => `Page ${i + 1} of three (robust)` })),
    seed('every-annotation', annotated),
    seed('form', makeFormPdf()),
    seed(
      'pages-geometry',
      makePagesPdf({
        inherited: '/Rotate 90',
        pages: [
          { lines: textLines(72, 700, 12, 16, ['Rotated by inheritance', 'second line']), annotations: ['Text', 'FreeText', 'Link'] },
          { rotate: 270, mediaBox: [10, 20, 410, 620], cropBox: [50, 60, 350, 560], lines: textLines(60, 500, 10, 12, ['cropped page']) },
        ],
      }),
    ),
    seed('image-stamp', imageStampPdf().pdf),
    seed('object-streams', withTempFile(annotated, (file) => execFileSync('qpdf', ['--object-streams=generate', '--compress-streams=y', file, '-'], { maxBuffer: 64 << 20 }))),
    seed('encrypted-aes128', encryptPdf(makePdf({ pages: 2, text: (i) => `Secret page ${i + 1}` }), 'user', 'owner', '128'), 'user'),
  ];
  const dir = corpusDir();
  if (dir) {
    for (const file of CORPUS_SEEDS) {
      const absolute = path.join(dir, file);
      if (existsSync(absolute)) seeds.push(seed(`corpus:${file}`, readFileSync(absolute)));
    }
  }
  return seeds;
}
