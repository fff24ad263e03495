import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, expectUnchanged, putPdf } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

/**
 * Stored documents' paths in action bodies (savePath, MergeDocumentsAction's sources[].filePath,
 * InsertUploadedPagesAction's appendFilePath, PageNumbersAction's documents[].filePath) are one kind of value: the
 * same 400 for the same bad path, and the same rules in the OpenAPI description.
 */
const server = serverForSuite();

type Json = Record<string, any>;

/** Where each body path goes, as a document action's body with `path` in it, posted to `url`. */
const FIELDS: [string, string, (path: string) => object][] = [
  ['savePath', 'pages', (p) => ({ RotatePagesAction: { rotation: 90, savePath: p } })],
  ['MergeDocumentsAction sources[].filePath', '', (p) => ({ MergeDocumentsAction: { sources: [{ filePath: p }], savePath: 'paths/out.pdf' } })],
  ['InsertUploadedPagesAction appendFilePath', 'pages', (p) => ({ InsertUploadedPagesAction: { appendFilePath: p } })],
  ['PageNumbersAction documents[].filePath', 'pages', (p) => ({ PageNumbersAction: { documents: [{ filePath: p }] } })],
];

describe('document paths in action bodies', () => {
  test('a bad path is 400 INVALID_PATH wherever it is given (too long, escaping, not a .pdf); an empty one 400 VALIDATION_FAILED; nothing written', async () => {
    assert.equal((await putPdf(server, 'paths/doc.pdf', makePdf({ pages: 1 }))).status, 201);
    const bad = ['a/'.repeat(3000) + 'x.pdf', '../escape.pdf', 'paths/doc.txt', 'paths/.hidden.pdf'];
    for (const [field, url, body] of FIELDS) {
      for (const path of bad) {
        const reply = await expectUnchanged(server, 'paths/doc.pdf', () => call(server, 'POST', `/documents/paths/doc.pdf${url ? `/${url}` : ''}`, { body: body(path) }), 400, 'INVALID_PATH');
        assert.ok(reply.json().detail.length > 0, `${field} ${path.slice(0, 20)}`);
      }
      await expectUnchanged(server, 'paths/doc.pdf', () => call(server, 'POST', `/documents/paths/doc.pdf${url ? `/${url}` : ''}`, { body: body('') }), 400, 'VALIDATION_FAILED');
    }
    assert.equal((await call(server, 'GET', '/documents/paths/out.pdf')).status, 404);
  });

  test('the OpenAPI description gives each the document path rules of savePath', async () => {
    const spec = (await (await fetch(`${server.api}/openapi.json`)).json()) as Json;
    const actions = (url: string) => spec.paths[Object.keys(spec.paths).find((k) => k.endsWith(url))!].post.requestBody.content['application/json'].schema.properties as Json;
    const page = actions('/documents/{filePath}.pdf/pages');
    const doc = actions('/documents/{filePath}.pdf');
    const savePath = page.RotatePagesAction.properties.savePath;
    assert.ok(savePath.pattern && savePath.maxLength, JSON.stringify(savePath));
    const rules = (s: Json) => [s.type, s.pattern, s.minLength, s.maxLength];
    for (const [name, schema] of [
      ['sources[].filePath', doc.MergeDocumentsAction.properties.sources.items.properties.filePath],
      ['appendFilePath', page.InsertUploadedPagesAction.properties.appendFilePath],
      ['documents[].filePath', page.PageNumbersAction.properties.documents.items.properties.filePath],
    ] as const) {
      assert.deepEqual(rules(schema), rules(savePath), name);
    }
  });
});
