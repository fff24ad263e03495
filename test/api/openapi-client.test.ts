import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { makePdf, pdftotext } from '../helpers/pdf.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';

/**
 * What the new user did: generate a typed client from the served
 * description, type-check a script against it with `tsc --strict` (no casts),
 * run it. The script is test/client/walkthrough.mts; it is not part of the
 * build, as its types exist only once the description has been fetched.
 */
const run = promisify(execFile);
const server = serverForSuite();
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const bin = (name: string) => path.join(repo, 'node_modules', '.bin', name);
let work = '';

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'pdfservice-client-'));
  await symlink(path.join(repo, 'node_modules'), path.join(work, 'node_modules'), 'dir');
});
after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Files are Blobs to fetch: `format: binary` becomes Blob (openapi-typescript's documented transform). */
const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));

test('a client generated from the served description type-checks strictly and walks through a first session', async () => {
  const ast = await openapiTS(new URL(`${server.api}/openapi.json`), {
    transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
  });
  await writeFile(path.join(work, 'api.d.ts'), astToString(ast));
  await copyFile(path.join(repo, 'test/client/walkthrough.mts'), path.join(work, 'walkthrough.mts'));
  await writeFile(path.join(work, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: ['node'], skipLibCheck: false, noEmitOnError: true },
    files: ['walkthrough.mts'],
  }));
  await run(bin('tsc'), ['-p', work]).catch((err: { stdout?: string }) => assert.fail(`tsc --strict: ${err.stdout}`));

  const pdfFile = path.join(work, 'report.pdf');
  await writeFile(pdfFile, makePdf({ pages: 2, text: (p) => `Quarterly report page ${p + 1}` }));
  const stamp = 'Approved by the generated client';
  const { stdout } = await run(process.execPath, [path.join(work, 'walkthrough.mjs')], {
    env: { ...process.env, SERVICE_URL: server.baseUrl, SERVICE_USER: ADMIN.username, SERVICE_PASSWORD: ADMIN.password, PDF_FILE: pdfFile, STAMP_TEXT: stamp },
  }).catch((err: { stderr?: string }) => assert.fail(`the walkthrough failed: ${err.stderr}`));
  const seen = JSON.parse(stdout) as { user: string; folder: string; uploaded: string; pageCount: number; annotations: number; text: string; download: string };
  assert.equal(seen.user, ADMIN.username);
  assert.equal(seen.folder, '/client-walkthrough');
  assert.equal(seen.uploaded, '/client-walkthrough/report.pdf');
  assert.equal(seen.pageCount, 2);
  assert.equal(seen.annotations, 0);
  assert.match(seen.text, /Quarterly report page 1/);
  assert.match(seen.text, new RegExp(stamp));
  const downloaded = Buffer.from(seen.download, 'base64');
  assert.equal(downloaded.subarray(0, 5).toString('latin1'), '%PDF-');
  assert.match(pdftotext(downloaded), new RegExp(stamp), 'the downloaded document carries the stamp');
});
