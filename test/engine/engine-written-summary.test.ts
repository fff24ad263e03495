/**
 * The summary a writing task answers with its bytes (engine/core/document-task.ts, withSummary) is what
 * validateUpload reads when it opens those bytes again, which the action runner did before: the same page count,
 * encryption and DocumentInfo, on plain, titled, linearized, form, annotated and encrypted documents, for every task
 * an action runs. An encrypted document's DocumentInfo is left out (the one thing that differs: it would be that of a
 * reader without the password, which the next model request reads); the action's answer never shows it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateUpload } from '../../src/engine/core/inspect.js';
import { textStamp } from '../../src/engine/stamps/stamps.js';
import { editPages } from '../../src/engine/pages/assembly.js';
import { flattenAnnotations } from '../../src/engine/annotations/flatten.js';
import { flattenFields } from '../../src/engine/forms/flatten.js';
import { applyRedactions } from '../../src/engine/redaction/apply.js';
import { addOcrLayers } from '../../src/engine/ocr/layer.js';
import { encryptPdf, linearizePdf, makePdf, redactablePdf } from '../helpers/pdf.js';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { everySubtypeFixture } from '../helpers/annotated-pdf.js';

type Summary = ReturnType<typeof validateUpload>;

function sameAsReopened(label: string, result: { bytes?: Uint8Array; summary?: Summary }): void {
  assert.ok(result.bytes, `${label}: bytes`);
  const reopened = validateUpload({ pdf: result.bytes });
  if (reopened.encrypted) {
    assert.equal(result.summary?.info, undefined, label);
    delete reopened.info;
  }
  assert.deepEqual(result.summary, reopened, label);
}

const plain = makePdf({ pages: 3, title: 'Quarterly report' });
const documents: [string, Buffer, string?][] = [
  ['plain', plain],
  ['linearized', linearizePdf(plain)],
  ['form', makeFormPdf()],
  ['annotated', everySubtypeFixture().pdf],
  ['encrypted, user password', encryptPdf(plain, 'user', 'owner'), 'user'],
  ['encrypted, empty user password', encryptPdf(plain, '', 'owner'), 'owner'],
];

for (const [label, pdf, password] of documents) {
  test(`written summaries equal validateUpload of the bytes: ${label}`, () => {
    const input = { pdf: new Uint8Array(pdf), password };
    sameAsReopened('textStamp', textStamp({ ...input, request: { text: 'DRAFT', x: 72, y: 72 } }));
    sameAsReopened('rotate', editPages({ ...input, operation: { kind: 'rotate', rotation: 90 } }));
    sameAsReopened('newPage', editPages({ ...input, operation: { kind: 'newPage' } }));
    sameAsReopened('extract', editPages({ ...input, operation: { kind: 'extract', pageRange: '1' } }));
    if (validateUpload({ pdf: new Uint8Array(pdf) }).pageCount !== 1) sameAsReopened('delete', editPages({ ...input, operation: { kind: 'delete', pageRange: '1' } }));
    const annotations = flattenAnnotations({ ...input, options: {} });
    if (annotations.bytes) sameAsReopened('flattenAnnotations', annotations);
    const fields = flattenFields({ ...input, options: {} });
    if (fields.bytes) sameAsReopened('flattenFields', fields);
  });
}

test('written summaries: applyRedactions, and a task that changed nothing answers the source\'s summary without DocumentInfo', () => {
  sameAsReopened('applyRedactions', applyRedactions({ pdf: new Uint8Array(redactablePdf(2)), request: {} }));
  const unchanged = addOcrLayers({ pdf: new Uint8Array(plain), layers: [] });
  assert.equal(unchanged.bytes, undefined);
  const { info: _info, ...source } = validateUpload({ pdf: new Uint8Array(plain) });
  assert.deepEqual(unchanged.summary, source);
});
