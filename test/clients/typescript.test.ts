import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type * as ClientModule from '../../clients/typescript/src/index.js';
import { docx, paragraph } from '../helpers/office-fixtures.js';
import { makePdf } from '../helpers/pdf.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';
import { checkAreas, checkConvert, checkFlows, CLIENTS, PNG_16, REPO, writeAreasInputs, writeConvertInputs } from './fixtures.js';

/**
 * The TypeScript client (clients/typescript) as users get it: `npm pack` builds and packs it, the test unpacks the
 * tarball into a node_modules of its own and imports it from there (its types are the source's, checked by the
 * build), against one started service. The example the docs quote (clients/typescript/examples/flows.ts) is
 * type-checked strictly against the packed package and run.
 */
const run = promisify(execFile);
const server = serverForSuite();
let work = '';
let client: typeof ClientModule;

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'pdfservice-ts-client-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: path.join(CLIENTS, 'typescript') });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = packed!.files.map((f) => f.path).sort();
  assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts') && files.includes('README.md'), `packed: ${files.join(', ')}`);
  assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('examples/')), 'only the build and the README are packed');
  await run('tar', ['-xzf', path.join(work, packed!.filename), '-C', work]);
  await mkdir(path.join(work, 'node_modules', '@pdfservice'), { recursive: true });
  await rename(path.join(work, 'package'), path.join(work, 'node_modules', '@pdfservice', 'client'));
  // The package's dependency, and Node's types for the example, from the repository's node_modules.
  await symlink(path.join(REPO, 'node_modules', 'openapi-fetch'), path.join(work, 'node_modules', 'openapi-fetch'), 'dir');
  await symlink(path.join(REPO, 'node_modules', '@types'), path.join(work, 'node_modules', '@types'), 'dir');
  client = (await import(pathToFileURL(path.join(work, 'node_modules', '@pdfservice', 'client', 'dist', 'index.js')).href)) as typeof ClientModule;
});
after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** The examples the docs quote (clients/typescript/examples), type-checked strictly against the packed client in one folder. */
let examples: Promise<string> | undefined;
function compiledExamples(): Promise<string> {
  return (examples ??= compileExamples());
}

async function compileExamples(): Promise<string> {
  const folder = path.join(work, 'example');
  await mkdir(folder);
  const files = (await readdir(path.join(CLIENTS, 'typescript', 'examples'))).filter((f) => f.endsWith('.ts'));
  for (const file of files) await writeFile(path.join(folder, file), await readFile(path.join(CLIENTS, 'typescript', 'examples', file)));
  await writeFile(path.join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(path.join(folder, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: ['node'], skipLibCheck: true, noEmitOnError: true },
    files,
  }));
  await run(path.join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', folder]).catch((err: { stdout?: string }) => assert.fail(`tsc --strict: ${err.stdout}`));
  return folder;
}

async function runExample(name: string): Promise<{ stdout: string; folder: string }> {
  const folder = await compiledExamples();
  const { stdout } = await run(process.execPath, [`${name}.js`], {
    cwd: folder,
    env: { ...process.env, PDF_URL: server.baseUrl, PDF_USER: ADMIN.username, PDF_PASSWORD: ADMIN.password },
  }).catch((err: { stderr?: string; stdout?: string }) => assert.fail(`the example ${name} failed: ${err.stderr}\n${err.stdout}`));
  return { stdout, folder };
}

test('the docs example type-checks against the packed client and runs: sign-in, PDF and Word uploads, a job followed over SSE, a download, a typed error', { timeout: 300_000 }, async () => {
  const folder = await compiledExamples();
  await writeFile(path.join(folder, 'q1.pdf'), makePdf({ pages: 3, text: (p) => `Quarterly report page ${p + 1}` }));
  await writeFile(path.join(folder, 'minutes.docx'), docx(paragraph('Minutes of the meeting')));
  const { stdout } = await runExample('flows');
  await checkFlows(stdout, folder);
});

test('one-shot conversions: DOCX to PDF/A-2b optimized inline, an image stamped as a job followed over SSE, a refused step a PdfServiceError', { timeout: 300_000 }, async () => {
  const folder = await compiledExamples();
  await writeConvertInputs(folder);
  const { stdout } = await runExample('convert');
  await checkConvert(stdout, folder);
});

test('the docs pages\' TypeScript: convert and OCR, sign, a job over SSE, OCR, PDF/A check and copy, pages, text, image, a stamp, annotations, redaction, a password, optimize, page structure, an Office option, form fields', { timeout: 600_000 }, async () => {
  const folder = await compiledExamples();
  await writeAreasInputs(folder);
  const { stdout } = await runExample('areas');
  await checkAreas(stdout, folder);
});

test('an API token signs in; an image uploads; problems are PdfServiceError with code, status and detail', { timeout: 120_000 }, async () => {
  const admin = new client.PdfServiceClient({ baseUrl: server.baseUrl });
  await admin.login(ADMIN.username, ADMIN.password);
  const { data: created } = await admin.api.POST('/pdfservice/v1/tokens', { body: { name: 'ts client test', rights: ['GET', 'PUT', 'POST'] } });
  assert.ok(created?.token);

  const scripted = new client.PdfServiceClient({ baseUrl: server.baseUrl, token: created.token });
  const me = await scripted.whoami();
  assert.equal(me.username, ADMIN.username);
  assert.equal((me as { via?: string }).via, 'token');

  await scripted.createFolder('ts/images');
  const image = await scripted.upload('ts/images/logo.pdf', PNG_16, { fileName: 'logo.png' });
  assert.equal(image.status, 201);
  assert.equal(image.document?.pageCount, 1);
  assert.equal(image.location, '/pdfservice/v1/documents/ts/images/logo.pdf');

  // A 4xx from a wrapper: a body that is not a PDF, nothing stored.
  const malformed = await scripted.upload('ts/images/bad.pdf', new TextEncoder().encode('not a pdf'), { type: 'application/pdf' }).catch((err: unknown) => err);
  assert.ok(malformed instanceof client.PdfServiceError, String(malformed));
  assert.equal(malformed.status, 422);
  assert.equal(malformed.code, 'MALFORMED_PDF');
  assert.ok(malformed.detail && malformed.requestId);
  assert.equal(malformed.problem.instance, '/pdfservice/v1/documents/ts/images/bad.pdf');

  // A 4xx from the generated client: the right the token lacks (DELETE).
  const forbidden = await scripted.api.DELETE('/pdfservice/v1/documents/{filePath}.pdf', { params: { path: { filePath: 'ts/images/logo' } } }).catch((err: unknown) => err);
  assert.ok(forbidden instanceof client.PdfServiceError, String(forbidden));
  assert.equal(forbidden.status, 403);
  assert.equal(forbidden.code, 'FORBIDDEN');
  assert.equal(forbidden.problem.requiredRight, 'DELETE');

  // A multipart bundle (a main file and its assets): an HTML page with its image is printed (docs/html.md); a bundle
  // whose main file no bundle converter takes (an image) is 415 naming why (docs/api.md#bundles), nothing stored.
  const page = await scripted.uploadForm('ts/images', { name: 'page.html', data: new TextEncoder().encode('<!DOCTYPE html><title>Logo</title><img src="logo.png" alt="Logo">') }, { assets: [{ name: 'logo.png', data: PNG_16 }] });
  assert.equal(page.status, 201);
  assert.equal(page.document?.pageCount, 1);
  const bundle = await scripted.uploadForm('ts/images', { name: 'scan.png', data: PNG_16 }, { assets: [{ name: 'logo.png', data: PNG_16 }] }).catch((err: unknown) => err);
  assert.ok(bundle instanceof client.PdfServiceError, String(bundle));
  assert.equal(bundle.code, 'UNSUPPORTED_MEDIA_TYPE');
  assert.deepEqual((await readdir(path.join(server.documentsDir, 'ts', 'images'))).sort(), ['logo.pdf', 'page.pdf']);

  await admin.logout();
  await assert.rejects(admin.whoami(), (err: unknown) => err instanceof client.PdfServiceError && err.status === 401 && err.code === 'AUTHENTICATION_REQUIRED');
});
