import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../src/config.js';
import { ERROR_CATALOG } from '../src/errors.js';
import { serverForSuite } from './helpers/server.js';

const server = serverForSuite();

const repoFile = (name: string) => readFile(fileURLToPath(new URL(`../../${name}`, import.meta.url)), 'utf8');

test('the OpenAPI 3.1 description is public and generated from the route schemas', async () => {
  const reply = await fetch(`${server.api}/openapi.json`);
  assert.equal(reply.status, 200);
  const spec = (await reply.json()) as { openapi: string; paths: Record<string, Record<string, unknown>>; components: { securitySchemes: object } };
  assert.equal(spec.openapi, '3.1.0');
  const expected: [string, string][] = [
    ['/pdfservice/v1/health', 'get'],
    ['/pdfservice/v1/sessions', 'post'],
    ['/pdfservice/v1/sessions/current', 'get'],
    ['/pdfservice/v1/sessions/current', 'delete'],
    ['/pdfservice/v1/users', 'get'],
    ['/pdfservice/v1/users', 'post'],
    ['/pdfservice/v1/documents', 'get'],
    ['/pdfservice/v1/documents/{folderPath}', 'put'],
    ['/pdfservice/v1/documents/{folderPath}', 'delete'],
    ['/pdfservice/v1/documents/{folderPath}', 'post'],
    ['/pdfservice/v1/documents/{filePath}.pdf', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf', 'put'],
    ['/pdfservice/v1/documents/{filePath}.pdf', 'delete'],
    ['/pdfservice/v1/documents/{filePath}.pdf', 'post'],
    ['/pdfservice/v1/documents/{filePath}.pdf/pages', 'post'],
    ['/pdfservice/v1/documents/{filePath}.pdf/pages', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/pages/{pageIndex}/text', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/pages/{pageIndex}/image', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/text', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/annotations', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/annotations', 'delete'],
    ['/pdfservice/v1/documents/{filePath}.pdf/annotations', 'post'],
    ['/pdfservice/v1/documents/{filePath}.pdf/annotations/{name}', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/annotations/{name}', 'delete'],
    ['/pdfservice/v1/documents/{filePath}.pdf/annotations/{name}/attachment', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/annotations/{name}/attachment/content', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/annotations/content', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/annotations/content', 'post'],
    ['/pdfservice/v1/documents/{filePath}.pdf/fields', 'post'],
    ['/pdfservice/v1/documents/{filePath}.pdf/fields/content', 'get'],
    ['/pdfservice/v1/documents/{filePath}.pdf/fields/content', 'post'],
  ];
  for (const [path, method] of expected) {
    assert.ok(spec.paths[path]?.[method], `${method.toUpperCase()} ${path} is described`);
  }
  const action = spec.paths['/pdfservice/v1/documents/{filePath}.pdf']!['post'] as { requestBody: { content: Record<string, { schema: { properties: object } }> } };
  assert.ok('CopyAction' in action.requestBody.content['application/json']!.schema.properties, 'actions are described from the registry');
  assert.ok('session' in spec.components.securitySchemes);
  const list = spec.paths['/pdfservice/v1/documents/{filePath}.pdf/annotations']!['get'] as { responses: Record<string, { content: Record<string, { schema: { properties: { annotations: { items: { examples?: unknown[] } } } } }> }> };
  const examples = list.responses['200']!.content['application/json']!.schema.properties.annotations.items.examples ?? [];
  assert.ok(examples.length >= 10, 'the annotation model has an example per family');
  // Page text comes as a model or as text/plain, page images as PNG or JPEG: each type is described.
  const text = spec.paths['/pdfservice/v1/documents/{filePath}.pdf/pages/{pageIndex}/text']!['get'] as { responses: Record<string, { content: Record<string, unknown> }>; parameters: { name: string; in: string }[] };
  assert.deepEqual(Object.keys(text.responses['200']!.content).sort(), ['application/json', 'application/xml', 'text/plain']);
  assert.ok(text.parameters.some((p) => p.name === 'detail' && p.in === 'query'));
  const image = spec.paths['/pdfservice/v1/documents/{filePath}.pdf/pages/{pageIndex}/image']!['get'] as { responses: Record<string, { content: Record<string, unknown> }> };
  assert.deepEqual(Object.keys(image.responses['200']!.content).sort(), ['image/jpeg', 'image/png']);
});

test('the documentation page is served without a session', async () => {
  const reply = await fetch(`${server.api}/docs/`, { redirect: 'follow' });
  assert.equal(reply.status, 200);
  assert.match(await reply.text(), /swagger/i);
});

test('docs/errors.md lists every error code with its status', async () => {
  const doc = await repoFile('docs/errors.md');
  for (const [code, { status }] of Object.entries(ERROR_CATALOG)) {
    assert.match(doc, new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`), `${code} (${status}) is documented`);
  }
});

test('the README configuration table lists every setting', async () => {
  const readme = await repoFile('README.md');
  for (const setting of Object.values(SETTINGS)) {
    assert.match(readme, new RegExp(`\\|\\s*\`${setting.env}\`\\s*\\|`), `${setting.env} is in the README`);
  }
});
