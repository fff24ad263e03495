import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { docx, paragraph } from '../helpers/office-fixtures.js';
import { makePdf } from '../helpers/pdf.js';
import { ADMIN, serverForSuite } from '../helpers/server.js';
import { checkAreas, checkConvert, checkFlows, CLIENTS, REPO, writeAreasInputs, writeConvertInputs } from './fixtures.js';

/**
 * The Python client (clients/python) as users get it: `python -m build` makes its sdist and wheel (in the
 * project's .venv-clients, made by scripts/setup.sh), and the wheel's contents, not the source, are what the
 * example the docs quote (clients/python/examples/flows.py) and the package's pytest suite (clients/python/tests)
 * import, against one started service.
 */
const run = promisify(execFile);
const server = serverForSuite();
const PYTHON = path.join(REPO, '.venv-clients', 'bin', 'python');
let work = '';
let wheelDir = '';

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'pdfservice-py-client-'));
  const dist = path.join(work, 'dist');
  await run(PYTHON, ['-m', 'build', '--no-isolation', '--outdir', dist, path.join(CLIENTS, 'python')]).catch((err: { stderr?: string; stdout?: string }) =>
    assert.fail(`python -m build: ${err.stdout}\n${err.stderr}`),
  );
  const built = (await readdir(dist)).sort();
  assert.deepEqual(built, ['pdfservice_client-0.1.0-py3-none-any.whl', 'pdfservice_client-0.1.0.tar.gz']);
  // A pure-Python wheel is a zip of the installed files: unpacked, it is what an installation puts on the path.
  wheelDir = path.join(work, 'wheel');
  await run(PYTHON, ['-m', 'zipfile', '-e', path.join(dist, built[0]!), wheelDir]);
});
after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const env = () => ({ ...process.env, PYTHONPATH: wheelDir, PYTHONDONTWRITEBYTECODE: '1', PDF_URL: server.baseUrl, PDF_USER: ADMIN.username, PDF_PASSWORD: ADMIN.password });

/** Runs clients/python/examples/<name>.py with the built wheel in a folder of its own, made by `inputs`. */
async function runExample(name: string, inputs: (folder: string) => Promise<void>): Promise<{ stdout: string; folder: string }> {
  const folder = path.join(work, name);
  await mkdir(folder);
  await inputs(folder);
  const { stdout } = await run(PYTHON, [path.join(CLIENTS, 'python', 'examples', `${name}.py`)], { cwd: folder, env: env() }).catch(
    (err: { stderr?: string; stdout?: string }) => assert.fail(`the example ${name} failed: ${err.stderr}\n${err.stdout}`),
  );
  return { stdout, folder };
}

test('the docs example runs with the built wheel: sign-in, PDF and Word uploads, a job followed over SSE, a download, a typed error', { timeout: 300_000 }, async () => {
  const { stdout, folder } = await runExample('flows', async (example) => {
    await writeFile(path.join(example, 'q1.pdf'), makePdf({ pages: 3, text: (p) => `Quarterly report page ${p + 1}` }));
    await writeFile(path.join(example, 'minutes.docx'), docx(paragraph('Minutes of the meeting')));
  });
  await checkFlows(stdout, folder);
});

test('one-shot conversions: DOCX to PDF/A-2b optimized inline, an image stamped as a job followed over SSE, a refused step a PdfServiceError', { timeout: 300_000 }, async () => {
  const { stdout, folder } = await runExample('convert', writeConvertInputs);
  await checkConvert(stdout, folder);
});

test('the docs pages\' Python: convert and OCR, sign, a job over SSE, OCR, PDF/A check and copy, pages, text, image, a stamp, annotations, redaction, a password, optimize, page structure, an Office option, form fields', { timeout: 600_000 }, async () => {
  const { stdout, folder } = await runExample('areas', writeAreasInputs);
  await checkAreas(stdout, folder);
});

test("the package's pytest suite passes against the service: a token, an image upload, the generated API, typed errors", { timeout: 120_000 }, async () => {
  const tests = path.join(CLIENTS, 'python', 'tests');
  const { stdout } = await run(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', tests], { cwd: work, env: env() }).catch(
    (err: { stderr?: string; stdout?: string }) => assert.fail(`pytest: ${err.stdout}\n${err.stderr}`),
  );
  assert.match(stdout, /\b7 passed\b/, stdout);
});
