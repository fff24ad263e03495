import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { configurationTable, SETTINGS } from '../../src/config.js';
import { ERROR_CATALOG } from '../../src/errors.js';
import { call, putPdf } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

const repoFile = (name: string) => readFile(fileURLToPath(new URL(`../../../${name}`, import.meta.url)), 'utf8');

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
    ['/pdfservice/v1/documents/{filePath}.pdf/preflight-results', 'get'],
  ];
  for (const [path, method] of expected) {
    assert.ok(spec.paths[path]?.[method], `${method.toUpperCase()} ${path} is described`);
  }
  const action = spec.paths['/pdfservice/v1/documents/{filePath}.pdf']!['post'] as { requestBody: { content: Record<string, { schema: { properties: object } }> } };
  assert.ok('CopyAction' in action.requestBody.content['application/json']!.schema.properties, 'actions are described from the registry');
  assert.ok('session' in spec.components.securitySchemes);
  // Models are named components: follow the references as a client's generator does.
  const deref = (node: unknown): Record<string, unknown> => {
    const ref = (node as { $ref?: string }).$ref;
    return (ref ? (spec as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas[ref.replace('#/components/schemas/', '')] : node) as Record<string, unknown>;
  };
  const list = spec.paths['/pdfservice/v1/documents/{filePath}.pdf/annotations']!['get'] as { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
  const annotationsModel = deref(list.responses['200']!.content['application/json']!.schema) as { properties: { annotations: { items: unknown } } };
  const examples = (deref(annotationsModel.properties.annotations.items) as { examples?: unknown[] }).examples ?? [];
  assert.ok(examples.length >= 10, 'the annotation model has an example per family');
  // Page text comes as a model or as text/plain, page images as PNG or JPEG: each type is described.
  const text = spec.paths['/pdfservice/v1/documents/{filePath}.pdf/pages/{pageIndex}/text']!['get'] as { responses: Record<string, { content: Record<string, unknown> }>; parameters: { name: string; in: string }[] };
  assert.deepEqual(Object.keys(text.responses['200']!.content).sort(), ['application/json', 'application/xml', 'text/plain', 'text/xml']);
  assert.ok(text.parameters.some((p) => p.name === 'detail' && p.in === 'query'));
  const image = spec.paths['/pdfservice/v1/documents/{filePath}.pdf/pages/{pageIndex}/image']!['get'] as { responses: Record<string, { content: Record<string, unknown> }> };
  assert.deepEqual(Object.keys(image.responses['200']!.content).sort(), ['image/jpeg', 'image/png']);
  // The preflight result: its model from the schema (JSON and XML), its profile parameter listing the registry's profiles.
  const preflight = spec.paths['/pdfservice/v1/documents/{filePath}.pdf/preflight-results']!['get'] as {
    responses: Record<string, { content: Record<string, { schema: unknown }> }>;
    parameters: { name: string; in: string; required?: boolean; description?: string; schema: { enum?: string[] } }[];
  };
  assert.ok(preflight.responses['200']!.content['application/xml']);
  const result = deref(preflight.responses['200']!.content['application/json']!.schema) as { properties: Record<string, unknown>; required: string[] };
  assert.deepEqual([...result.required].sort(), ['compliant', 'document', 'etag', 'failedChecks', 'passedChecks', 'profile', 'rules', 'validator']);
  const profile = preflight.parameters.find((p) => p.name === 'profile' && p.in === 'query');
  assert.ok(profile?.required);
  for (const name of ['pdfa1a', 'pdfa1b', 'pdfa2b', 'pdfa2u', 'pdfa3b', 'pdfa4']) {
    assert.ok(profile.description?.includes(name), `profile lists ${name}`);
    assert.ok(profile.schema.enum?.includes(name), `the profile enum has ${name}`);
  }
});

type Operation = {
  operationId?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; schema: { type?: string; pattern?: string } }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
};
type Description = { servers?: { url: string }[]; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

async function description(): Promise<Description> {
  return (await (await fetch(`${server.api}/openapi.json`)).json()) as Description;
}
const operations = (spec: Description) => Object.entries(spec.paths).flatMap(([p, methods]) => Object.entries(methods).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })));

test('every operation has a unique operationId, and public routes need no credentials', async () => {
  const spec = await description();
  const ids = operations(spec).map(({ key, op }) => {
    assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${key} has a camelCase operationId`);
    return op.operationId;
  });
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  assert.equal(spec.paths['/pdfservice/v1/documents/{filePath}.pdf']!['get']!.operationId, 'getDocument');
  // Named in the table, not derived from the path (a job is cancelled, not deleted).
  assert.equal(spec.paths['/pdfservice/v1/jobs/{id}']!['delete']!.operationId, 'cancelJob');
  assert.equal(spec.paths['/pdfservice/v1/jobs/{id}/events']!['get']!.operationId, 'followJobEvents');
  assert.deepEqual(spec.paths['/pdfservice/v1/health']!['get']!.security, []);
  assert.ok(!spec.paths['/pdfservice/v1/sessions/current']!['get']!.security, 'who-am-I needs a session');
  assert.ok(!spec.paths['/pdfservice/v1/documents']!['get']!.security, 'documents need a session (the global requirement)');
  assert.ok(spec.servers && spec.servers.length > 0);
});

test('bodies the routes read themselves are described: uploads, XFDF/FDF and multipart parts', async () => {
  const spec = await description();
  const doc = '/pdfservice/v1/documents/{filePath}.pdf';
  const content = (p: string, m: string) => spec.paths[p]![m]!.requestBody!.content;
  for (const type of ['application/pdf', 'image/png', 'image/jpeg', 'image/tiff', 'image/gif', 'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/html']) {
    assert.ok(content(doc, 'put')[type], `PUT document takes ${type}`);
  }
  assert.ok(content(`${doc}/annotations/content`, 'post')['application/vnd.adobe.xfdf']);
  assert.ok(content(`${doc}/fields/content`, 'post')['application/vnd.fdf']);
  const parts = (p: string, m: string) => Object.keys(content(p, m)['multipart/form-data']!.schema.properties ?? {}).sort();
  assert.deepEqual(parts(`${doc}/pages`, 'post'), ['action', 'file', 'pageAction']);
  assert.deepEqual(parts(`${doc}/annotations`, 'post'), ['annotation', 'file', 'fileDisposition']);
  assert.deepEqual(parts(`${doc}/fields/signature-fields/{fieldName}/signature`, 'post'), ['file', 'signature']);
  // A bundle's files (docs/api.md, "Bundles"): the HTML converter takes them.
  assert.deepEqual(parts('/pdfservice/v1/documents/{folderPath}', 'post'), ['asset', 'file']);
});

test('errors are problem documents in JSON and XML; headers, XML models, path rules and pageIndex are schema', async () => {
  const spec = await description();
  const doc = '/pdfservice/v1/documents/{filePath}.pdf';
  for (const { key, op } of operations(spec)) {
    assert.deepEqual(Object.keys(op.responses['4XX']?.content ?? {}).sort(), ['application/problem+json', 'application/problem+xml'], `${key} describes its errors`);
  }
  const get = spec.paths[doc]!['get']!;
  const headers = get.parameters!.filter((p) => p.in === 'header').map((p) => p.name);
  for (const name of ['if-none-match', 'if-range', 'range', 'x-service-documentpassword']) assert.ok(headers.includes(name), `GET document takes ${name}`);
  assert.ok(get.responses['200']!.headers!['ETag'] && get.responses['200']!.headers!['Content-Disposition']);
  assert.ok(get.responses['200']!.content!['application/xml'], 'the DocumentModel is served as XML too');
  assert.ok(get.responses['401']!.headers!['WWW-Authenticate']);
  assert.ok(get.responses['503']!.headers!['Retry-After']);
  const put = spec.paths[doc]!['put']!;
  assert.ok(put.parameters!.some((p) => p.name === 'if-match' && p.in === 'header'));
  assert.ok(put.responses['201']!.headers!['Location']);
  const pageIndex = spec.paths[`${doc}/pages/{pageIndex}/image`]!['get']!.parameters!.find((p) => p.name === 'pageIndex')!;
  assert.equal(pageIndex.schema.type, 'integer');
  const filePath = new RegExp(get.parameters!.find((p) => p.name === 'filePath')!.schema.pattern!, 'u');
  for (const good of ['report', 'a/b/report', 'Bericht März', 'x.pdf']) assert.match(good, filePath, good);
  for (const bad of ['../etc/passwd', 'a//b', '.hidden', 'a/.b', 'a:b', 'a\\b', 'dir./x', 'f.pdf/x', 'a%2e']) assert.doesNotMatch(bad, filePath, bad);
  const savePath = JSON.stringify(spec.paths[doc]!['post']!.requestBody!.content['application/json']!.schema.properties!['CopyAction']);
  assert.match(savePath, /"savePath":\{[^}]*"pattern"/, 'savePath carries the path rules');
  // A trash restore's savePath names a document or, for a folder entry, a folder (one trailing "/" allowed): both rules are described.
  const restore = spec.paths['/pdfservice/v1/trash/{id}/restore']!['post']!.requestBody!.content['application/json']!.schema as { properties: { savePath: { anyOf: { pattern: string }[] } } };
  const restorePath = restore.properties.savePath.anyOf.map((alt) => new RegExp(alt.pattern, 'u'));
  const described = (value: string) => restorePath.some((re) => re.test(value));
  for (const good of ['a/b.pdf', 'elsewhere/trash-g', 'elsewhere/trash-g/', 'Ordner März']) assert.ok(described(good), good);
  for (const bad of ['a//b', '../x', 'a/b.pdf/', '/a', 'a//', '.hidden/x']) assert.ok(!described(bad), bad);
  const subtype = spec.paths[`${doc}/annotations`]!['get']!.parameters!.find((p) => p.name === 'subtype')!;
  assert.match('freetext', new RegExp(subtype.schema.pattern!), 'subtype values are schema, in any case');
  assert.doesNotMatch('Freetexts', new RegExp(subtype.schema.pattern!));
  for (const model of ['DocumentModel', 'FolderModel', 'AnnotationModel', 'PageModel', 'FieldModel', 'SessionModel', 'UserModel', 'Problem']) {
    assert.ok(spec.components.schemas[model], `${model} is a named component`);
  }
});

test('what the routes send (status and media type) is in the description: 304 of the versioned lists, the attachment\'s own type', async () => {
  const spec = await description();
  const doc = 'described/doc.pdf';
  assert.equal((await putPdf(server, doc, makePdf({ pages: 2 }))).status, 201);
  const form = new FormData();
  form.append('annotation', JSON.stringify({ subtype: 'FileAttachment', name: 'note' }));
  form.append('file', new Blob([new Uint8Array(Buffer.from('a;b\n1;2\n'))], { type: 'text/csv' }), 'table.csv');
  assert.equal((await call(server, 'POST', `/documents/${doc}/annotations`, { body: form })).status, 201);
  /** A described media type covers a sent one when equal, or a range (`*\/*`, `text/*`) that includes it. */
  const covers = (described: string, sent: string) => described === sent || described === '*/*' || (described.endsWith('/*') && sent.startsWith(described.slice(0, -1)));
  const base = '/pdfservice/v1/documents/{filePath}.pdf';
  const cases: [string, string, Record<string, string>][] = [
    [`${base}/annotations`, `/documents/${doc}/annotations`, { accept: 'application/json' }],
    [`${base}/fields`, `/documents/${doc}/fields`, { accept: 'application/xml' }],
    [`${base}/fields/signature-fields`, `/documents/${doc}/fields/signature-fields`, { accept: 'application/json' }],
    [`${base}/pages`, `/documents/${doc}/pages`, { accept: 'application/json' }],
    [`${base}/text`, `/documents/${doc}/text`, { accept: 'text/plain' }],
    [`${base}/annotations/{name}/attachment/content`, `/documents/${doc}/annotations/note/attachment/content`, {}],
  ];
  for (const [path, url, headers] of cases) {
    const described = spec.paths[path]!['get']!.responses;
    const first = await call(server, 'GET', url, { headers });
    assert.equal(first.status, 200, `${url}: ${first.text}`);
    const sent = first.headers.get('content-type')!.split(';')[0]!.trim();
    assert.ok(Object.keys(described['200']!.content ?? {}).some((type) => covers(type, sent)), `${path}: 200 ${sent} is described (${Object.keys(described['200']!.content ?? {}).join(', ')})`);
    const etag = first.headers.get('etag');
    if (!etag) continue;
    const again = await call(server, 'GET', url, { headers: { ...headers, 'if-none-match': etag } });
    if (again.status === 304) assert.ok(described['304'], `${path}: its 304 is described`);
  }
  // Routes that answer 304 through the rendered cache without a fixture here (preflight needs veraPDF) say so too.
  assert.ok(spec.paths[`${base}/preflight-results`]!['get']!.responses['304']);
});

const run = promisify(execFile);

test('@redocly/cli lint (recommended rules) finds no error and no warning in the served description', async () => {
  const work = await mkdtemp(path.join(tmpdir(), 'pdfservice-lint-'));
  try {
    const file = path.join(work, 'openapi.json');
    await writeFile(file, JSON.stringify(await description()));
    const redocly = fileURLToPath(new URL('../../../node_modules/.bin/redocly', import.meta.url));
    // No telemetry and no update check: tests reach nothing but loopback.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const { stdout } = await run(redocly, ['lint', '--extends', 'recommended', '--format', 'json', file], { env, maxBuffer: 64 * 1024 * 1024 })
      .catch((err: { stdout: string }) => ({ stdout: err.stdout }));
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 }, report.problems.map((p) => `${p.ruleId}: ${p.message}`).join('\n'));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
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

test('the README configuration table is the one the settings blocks generate (npm run config-table writes it)', async () => {
  const readme = await repoFile('README.md');
  assert.ok(readme.includes(`\n${configurationTable()}\n`), 'README.md\'s configuration table differs from `npm run config-table`\'s');
});
