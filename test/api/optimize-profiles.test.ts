import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call, leaksInternals, type Reply } from '../helpers/http.js';
import { startServer, basicAuth, type TestServer } from '../helpers/server.js';

function assertProblem(reply: Reply, status: number, code: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.json().code, code, reply.text);
}

const BUILT_INS = ['screen', 'ebook', 'printer', 'prepress', 'lossless'];

describe('optimize profiles over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.stop();
  });

  test('the built-in profiles are listed first, with Ghostscript\'s resolutions', async () => {
    const list = await call(server, 'GET', '/optimize-profiles');
    assert.equal(list.status, 200, list.text);
    const profiles = list.json().profiles as Record<string, any>[];
    assert.deepEqual(profiles.slice(0, 5).map((p) => p.name), BUILT_INS);
    assert.ok(profiles.slice(0, 5).every((p) => p.builtIn === true));
    const byName = Object.fromEntries(profiles.map((p) => [p.name, p]));
    assert.equal(byName.screen.colorImageHandler.dpi, 72);
    assert.equal(byName.ebook.colorImageHandler.dpi, 150);
    assert.equal(byName.ebook.grayImageHandler.dpi, 150);
    assert.equal(byName.printer.colorImageHandler.dpi, 300);
    assert.equal(byName.prepress.colorImageHandler.dpi, 300);
    assert.equal(byName.prepress.colorImageHandler.downsampling, 1, 'prepress downsamples bicubic');
    assert.equal(byName.ebook.colorImageHandler.downsampling, 0, 'ebook averages');
    // lossless changes no image: it has no image handler at all.
    assert.equal(byName.lossless.colorImageHandler, undefined);
    assert.equal(byName.lossless.grayImageHandler, undefined);
    assert.equal(byName.lossless.bwImageHandler, undefined);

    const one = await call(server, 'GET', '/optimize-profiles/ebook');
    assert.equal(one.status, 200);
    assert.deepEqual(one.json(), byName.ebook);
  });

  test('PUT creates (201, Location) then replaces (200); GET, list and DELETE follow', async () => {
    const body = { discardAnnotations: true, colorImageHandler: { colorSpace: 1, compression: 1, dpi: 120, jpegQuality: 0.5 } };
    const created = await call(server, 'PUT', '/optimize-profiles/web-small', { body });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get('location'), '/pdfservice/v1/optimize-profiles/web-small');
    const model = created.json();
    assert.equal(model.name, 'web-small');
    assert.equal(model.builtIn, false);
    assert.equal(model.discardAnnotations, true);
    // Defaults are filled in, so what is stored is the whole profile.
    assert.equal(model.compressObjectsIntoStreams, true);
    assert.equal(model.mergeDuplicateImages, true);
    assert.deepEqual(model.colorImageHandler, { colorSpace: 1, compression: 1, dpi: 120, jpegQuality: 0.5, downsampling: 0 });
    assert.equal(model.grayImageHandler, undefined, 'a handler left out is not invented');
    assert.ok(!Number.isNaN(Date.parse(model.createdAt)));

    const got = await call(server, 'GET', '/optimize-profiles/web-small');
    assert.equal(got.status, 200);
    assert.deepEqual(got.json(), model);

    const replaced = await call(server, 'PUT', '/optimize-profiles/web-small', { body: { grayImageHandler: { dpi: 200 } } });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.headers.get('location'), null);
    assert.equal(replaced.json().discardAnnotations, false, 'a replacement is whole, not merged with the old profile');
    assert.equal(replaced.json().colorImageHandler, undefined);
    assert.deepEqual(replaced.json().grayImageHandler, { colorSpace: 0, compression: 0, dpi: 200, downsampling: 0, jpegQuality: 0.75 });
    assert.equal(replaced.json().createdAt, model.createdAt, 'a replaced profile keeps its creation time');

    const list = await call(server, 'GET', '/optimize-profiles');
    assert.deepEqual(list.json().profiles.map((p: { name: string }) => p.name), [...BUILT_INS, 'web-small']);

    const removed = await call(server, 'DELETE', '/optimize-profiles/web-small');
    assert.equal(removed.status, 204);
    assertProblem(await call(server, 'GET', '/optimize-profiles/web-small'), 404, 'PROFILE_NOT_FOUND');
    assertProblem(await call(server, 'DELETE', '/optimize-profiles/web-small'), 404, 'PROFILE_NOT_FOUND');
  });

  test('XML in and out', async () => {
    const xml =
      '<OptimizeProfile><mergeDuplicateFonts>false</mergeDuplicateFonts>' +
      '<colorImageHandler><compression>2</compression><dpi>300</dpi></colorImageHandler>' +
      '<bwImageHandler><colorSpace>4</colorSpace><dpi>600</dpi></bwImageHandler></OptimizeProfile>';
    const created = await call(server, 'PUT', '/optimize-profiles/scans', { body: xml, headers: { 'content-type': 'application/xml', accept: 'application/xml' } });
    assert.equal(created.status, 201, created.text);
    assert.match(created.headers.get('content-type') ?? '', /application\/xml/);
    assert.match(created.text, /<OptimizeProfile>/);
    assert.match(created.text, /<name>scans<\/name>/);
    assert.match(created.text, /<mergeDuplicateFonts>false<\/mergeDuplicateFonts>/);
    assert.match(created.text, /<bwImageHandler>\s*<colorSpace>4<\/colorSpace>\s*<compression>0<\/compression>\s*<dpi>600<\/dpi>/);
    const json = await call(server, 'GET', '/optimize-profiles/scans');
    assert.deepEqual(json.json().colorImageHandler, { colorSpace: 0, compression: 2, dpi: 300, downsampling: 0, jpegQuality: 0.75 });
    const list = await call(server, 'GET', '/optimize-profiles', { headers: { accept: 'application/xml' } });
    assert.equal(list.status, 200);
    assert.match(list.text, /^(<\?xml[^>]*>\s*)?<OptimizeProfiles>\s*<OptimizeProfile>\s*<name>screen<\/name>/);
    // A handler with every field left to its default is an empty element in XML.
    const empty = await call(server, 'PUT', '/optimize-profiles/defaults', {
      body: '<OptimizeProfile><grayImageHandler/><bwImageHandler></bwImageHandler></OptimizeProfile>',
      headers: { 'content-type': 'application/xml' },
    });
    assert.equal(empty.status, 201, empty.text);
    assert.deepEqual(empty.json().grayImageHandler, { colorSpace: 0, compression: 0, dpi: 0, downsampling: 0, jpegQuality: 0.75 });
    assert.deepEqual(empty.json().bwImageHandler, { colorSpace: 0, compression: 0, dpi: 0, downsampling: 2 });
    assert.equal((await call(server, 'DELETE', '/optimize-profiles/defaults')).status, 204);
    const wrongRoot = await call(server, 'PUT', '/optimize-profiles/scans', { body: '<Profile><dpi>1</dpi></Profile>', headers: { 'content-type': 'application/xml' } });
    assertProblem(wrongRoot, 400, 'VALIDATION_FAILED');
    assert.equal((await call(server, 'DELETE', '/optimize-profiles/scans')).status, 204);
  });

  test('unknown fields, codes outside their lists and values out of range are 400, and nothing is stored', async () => {
    const bad: [string, unknown][] = [
      ['unknown field', { discardAnnotations: true, shrinkHarder: true }],
      ['unknown handler field', { colorImageHandler: { dpi: 150, quality: 3 } }],
      ['jpegQuality above 1', { colorImageHandler: { jpegQuality: 1.5 } }],
      ['jpegQuality below 0', { grayImageHandler: { jpegQuality: -0.1 } }],
      ['dpi negative', { colorImageHandler: { dpi: -1 } }],
      ['dpi too high', { colorImageHandler: { dpi: 100000 } }],
      ['dpi not an integer', { colorImageHandler: { dpi: 150.5 } }],
      ['colour space code unknown', { colorImageHandler: { colorSpace: 9 } }],
      ['bi-level for colour images', { colorImageHandler: { colorSpace: 4 } }],
      ['JPEG for bi-level images', { bwImageHandler: { compression: 1 } }],
      ['JPEG 2000 not writable', { colorImageHandler: { compression: 3 } }],
      ['jpegQuality on bi-level images', { bwImageHandler: { jpegQuality: 0.5 } }],
      ['boolean as a string', { discardAnnotations: 'yes' }],
      ['handler not an object', { grayImageHandler: 150 }],
    ];
    for (const [what, body] of bad) {
      const reply = await call(server, 'PUT', '/optimize-profiles/bad', { body: body as object });
      assertProblem(reply, 400, 'VALIDATION_FAILED');
      assert.ok(!leaksInternals(reply.text, server.dataDir), what);
    }
    assertProblem(await call(server, 'GET', '/optimize-profiles/bad'), 404, 'PROFILE_NOT_FOUND');
    assertProblem(await call(server, 'PUT', '/optimize-profiles/bad', { body: 'not json', headers: { 'content-type': 'application/json' } }), 400, 'MALFORMED_JSON');
    assertProblem(await call(server, 'PUT', '/optimize-profiles/bad', { body: 'dpi=1', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('names follow the path segment rules', async () => {
    for (const name of ['..', '.hidden', 'trailing.', 'trailing%20', 'a%5Cb', 'a%3Ab', 'ctl%01', '%252e%252e', 'x'.repeat(256)]) {
      const reply = await call(server, 'PUT', `/optimize-profiles/${name}`, { body: {} });
      // ".." is resolved away by URL parsing before it reaches the service: what is left names no resource.
      if (name === '..') assert.ok([400, 404, 405].includes(reply.status), reply.text);
      else assertProblem(reply, 400, 'INVALID_PATH');
    }
    const unicode = await call(server, 'PUT', `/optimize-profiles/${encodeURIComponent('Übersicht 150 dpi')}`, { body: {} });
    assert.equal(unicode.status, 201, unicode.text);
    assert.equal(unicode.headers.get('location'), `/pdfservice/v1/optimize-profiles/${encodeURIComponent('Übersicht 150 dpi')}`);
    assert.equal((await call(server, 'GET', unicode.headers.get('location')!.replace('/pdfservice/v1', ''))).json().name, 'Übersicht 150 dpi');
    assert.equal((await call(server, 'DELETE', `/optimize-profiles/${encodeURIComponent('Übersicht 150 dpi')}`)).status, 204);
  });

  test('built-in profiles cannot be replaced or deleted (409 PROFILE_READ_ONLY)', async () => {
    for (const name of BUILT_INS) {
      assertProblem(await call(server, 'PUT', `/optimize-profiles/${name}`, { body: { discardAnnotations: true } }), 409, 'PROFILE_READ_ONLY');
      assertProblem(await call(server, 'DELETE', `/optimize-profiles/${name}`), 409, 'PROFILE_READ_ONLY');
    }
    assert.equal((await call(server, 'GET', '/optimize-profiles/screen')).json().discardAnnotations, false);
  });

  test('rights: the method\'s right, as for documents; no credentials is 401', async () => {
    assert.equal((await call(server, 'POST', '/users', { body: { username: 'reader', password: 'reader-password', rights: ['GET'] } })).status, 201);
    assert.equal((await call(server, 'POST', '/users', { body: { username: 'writer', password: 'writer-password', rights: ['GET', 'PUT', 'DELETE'] } })).status, 201);
    const reader = basicAuth('reader', 'reader-password');
    const writer = basicAuth('writer', 'writer-password');
    assert.equal((await call(server, 'GET', '/optimize-profiles', { auth: reader })).status, 200);
    const refused = await call(server, 'PUT', '/optimize-profiles/mine', { auth: reader, body: {} });
    assertProblem(refused, 403, 'FORBIDDEN');
    assert.equal(refused.json().requiredRight, 'PUT');
    assert.equal((await call(server, 'PUT', '/optimize-profiles/mine', { auth: writer, body: {} })).status, 201, 'no admin right needed');
    assertProblem(await call(server, 'DELETE', '/optimize-profiles/mine', { auth: reader }), 403, 'FORBIDDEN');
    assert.equal((await call(server, 'GET', '/optimize-profiles/mine', { auth: reader })).status, 200, 'profiles are shared by all users');
    assert.equal((await call(server, 'DELETE', '/optimize-profiles/mine', { auth: writer })).status, 204);
    assertProblem(await call(server, 'GET', '/optimize-profiles', { auth: false }), 401, 'AUTHENTICATION_REQUIRED');
  });

  test('the API description gives the codes as enums and the name rule as a pattern', async () => {
    const spec = (await call(server, 'GET', '/openapi.json', { auth: false })).json();
    const put = spec.paths['/pdfservice/v1/optimize-profiles/{profileName}'].put;
    const name = put.parameters.find((p: { name: string }) => p.name === 'profileName');
    assert.ok(name.schema.pattern, 'the segment rule as a pattern');
    assert.ok(!new RegExp(name.schema.pattern, 'u').test('.hidden') && new RegExp(name.schema.pattern, 'u').test('ebook 2'));
    const body = put.requestBody.content['application/json'].schema;
    const resolve = (s: Record<string, any>) => (s.$ref ? spec.components.schemas[s.$ref.split('/').pop()] : s);
    const color = resolve(resolve(body).properties.colorImageHandler);
    assert.deepEqual(color.properties.colorSpace.enum, [0, 1, 2, 3]);
    assert.match(color.properties.colorSpace.description, /0 keep.*1 RGB.*2 gray.*3 CMYK/);
    assert.deepEqual(color.properties.compression.enum, [0, 1, 2]);
    assert.match(color.properties.compression.description, /1 JPEG.*2 Flate/);
    assert.equal(color.properties.jpegQuality.maximum, 1);
    assert.equal(color.additionalProperties, false);
  });
});

describe('optimize profiles are kept in the data folder\'s state across restarts', () => {
  test('a profile put before a restart is there after it; the state file is private', async () => {
    // A data folder of the test's own: stop() removes only folders the helper made.
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-test-'));
    let server = await startServer({ dataDir });
    try {
      assert.equal((await call(server, 'PUT', '/optimize-profiles/kept', { body: { colorImageHandler: { dpi: 96 } } })).status, 201);
      assert.equal((await call(server, 'PUT', '/optimize-profiles/gone', { body: {} })).status, 201);
      assert.equal((await call(server, 'DELETE', '/optimize-profiles/gone')).status, 204);
      await server.stop();
      const file = path.join(dataDir, 'state', 'optimize-profiles.json');
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const saved = JSON.parse(await readFile(file, 'utf8'));
      assert.deepEqual(saved.profiles.map((p: { name: string }) => p.name), ['kept']);
      server = await startServer({ dataDir });
      const kept = await call(server, 'GET', '/optimize-profiles/kept');
      assert.equal(kept.status, 200, kept.text);
      assert.equal(kept.json().colorImageHandler.dpi, 96);
      assertProblem(await call(server, 'GET', '/optimize-profiles/gone'), 404, 'PROFILE_NOT_FOUND');
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
