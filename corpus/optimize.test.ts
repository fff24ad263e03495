/**
 * Issue 21's verification of OptimizeAction and LinearizeAction over the
 * corpus: every corpus PDF the service stores is optimized with `lossless`
 * and with `ebook`, and linearized, through the API. Each answer is a written
 * document (201), "not smaller, nothing written" (200, report.changed false),
 * or a documented 4xx: a password needed or not allowing changes (403), a
 * signed document (409 DOCUMENT_SIGNED: as a client would, the test then
 * clears its signatures and runs the three again); nothing else. Of each written file:
 * never larger than the input; `qpdf --check` no worse than on the input (a
 * file that is already broken is not made worse); pdftotext's words the same
 * (lossless and ebook); lossless renders pixel-identical on its first pages
 * (pdftoppm at a low resolution); the linearized file passes
 * `qpdf --check-linearization`. The counts are printed at the end.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { call, storedBytes } from '../test/helpers/http.js';
import { withTempFile } from '../test/helpers/pdf.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir, readManifest, type CorpusEntry } from './manifest.js';

/** Pages rendered for the lossless comparison, and their resolution: enough to see a changed pixel, cheap enough for CI. */
const RENDERED_PAGES = 2;
const RENDER_DPI = 30;

type Outcome = 'written' | 'unchanged' | string;

/** A run of a command-line tool on a file: its exit status and output (poppler and qpdf print their complaints and go on). */
function tool(command: string, args: string[], bytes: Buffer | Uint8Array): { status: number; stdout: Buffer; stderr: string } {
  return withTempFile(bytes, (file) => {
    const run = spawnSync(command, [...args, file], { maxBuffer: 1 << 28 });
    return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr.toString('utf8') };
  });
}

const popplerPassword = (pw: string | undefined) => (pw ? ['-opw', pw, '-upw', pw] : []);
const qpdfPassword = (pw: string | undefined) => (pw ? [`--password=${pw}`] : []);

/** qpdf --check's verdict as a rank: 0 clean, 1 warnings (exit 3), 2 errors (exit 2 or anything else). */
function checkRank(bytes: Buffer | Uint8Array, pw: string | undefined): { rank: number; output: string } {
  const run = tool('qpdf', ['--check', ...qpdfPassword(pw)], bytes);
  // A name with a stray # (pdf.js's stamps.pdf: /#qJzv...) is copied as it is; qpdf --check warns of it only where it
  // parses the object stream that holds it, which it did on the linearized file and not on the input.
  const warnings = `${run.stdout.toString('utf8')}${run.stderr}`.split('\n').filter((l) => l.startsWith('WARNING:'));
  const onlyStrayHashes = warnings.length > 0 && warnings.every((l) => /name with stray # will not work/.test(l));
  const rank = run.status === 0 || (run.status === 3 && onlyStrayHashes) ? 0 : run.status === 3 ? 1 : 2;
  return { rank, output: `${run.stdout.toString('utf8')}${run.stderr}`.slice(0, 600) };
}

/** poppler's complaints that say it could not read the file right (a damaged file, an encryption it cannot decrypt)... */
const POPPLER_COMPLAINT = /Syntax Error|Unimplemented Feature|Internal Error|Incorrect password/;
/** ...except those about what it read right but cannot draw or map (a field's font, an unknown operator it skips). */
const POPPLER_READ_RIGHT = /Unknown font tag|couldn't find a font for character|Unknown operator '[A-Za-z]+'$|Invalid CIDToGIDMap/;
const popplerCannotRead = (stderr: string) => stderr.split('\n').some((l) => POPPLER_COMPLAINT.test(l) && !POPPLER_READ_RIGHT.test(l));

/** pdftotext's words, and whether poppler read the file without complaint (only then is it a reference). */
function text(bytes: Buffer | Uint8Array, pw: string | undefined): { words: string[] | null; clean: boolean } {
  return withTempFile(bytes, (file) => {
    const run = spawnSync('pdftotext', [...popplerPassword(pw), '-enc', 'UTF-8', file, '-'], { maxBuffer: 1 << 28 });
    const words = run.status === 0 ? run.stdout.toString('utf8').split(/\s+/).filter(Boolean) : null;
    return { words, clean: words !== null && !popplerCannotRead(run.stderr.toString('utf8')) };
  });
}

/** The first pages rendered by poppler, as PPM bytes each (null where poppler cannot render the page cleanly). */
function renders(bytes: Buffer | Uint8Array, pages: number, pw: string | undefined): (Buffer | null)[] {
  return withTempFile(bytes, (file) => {
    const out: (Buffer | null)[] = [];
    for (let page = 1; page <= pages; page++) {
      const run = spawnSync('pdftoppm', [...popplerPassword(pw), '-r', String(RENDER_DPI), '-f', String(page), '-l', String(page), file], { maxBuffer: 1 << 28 });
      out.push(run.status === 0 && run.stdout.length > 0 && !popplerCannotRead(run.stderr.toString('utf8')) ? run.stdout : null);
    }
    return out;
  });
}

/** Share of the samples of two same-size PPM renders that differ. */
function differingShare(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) return 1;
  let differ = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
  return differ / a.length;
}

/**
 * Files whose lossless output renders not quite identically, and why; each is held to a bound instead. MuPDF
 * holds real numbers as 32-bit floats, so a real it rewrites keeps about 7 significant digits: content streams are
 * copied as they are, but dictionaries are written anew.
 */
const RENDERS_DIFFER: Record<string, { why: string; share: number }> = {
  'pdfjs/annotations/annotation-ink-without-appearance.pdf': {
    why: 'ink annotations without an appearance stream, which poppler draws from their /InkList, whose coordinates have 17 digits',
    share: 0.01,
  },
};

/** Files refused by an action, and why (docs/optimize.md): 422 PROCESSING_FAILED, the actions named. */
const REFUSED: Record<string, { actions: string[]; why: string }> = {
  'qpdf/malformed/pages-loop.pdf': {
    actions: ['linearize'],
    why: 'its page tree loops: linearization orders objects page by page, and neither qpdf nor MuPDF\'s rewrite of it can',
  },
  'pdfjs/malformed/Pages-tree-refs.pdf': {
    actions: ['lossless', 'ebook', 'linearize'],
    why: 'its page tree has a cycle: MuPDF cannot load every page, so it cannot rewrite the file, nor qpdf linearize it',
  },
};

const dir = corpusDir();
if (!dir) {
  console.log('# corpus optimize suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus optimize suite (no corpus found)');
} else {
  const entries = readManifest(dir).filter((e) => e.file.toLowerCase().endsWith('.pdf'));
  const server = serverForSuite();
  const target = (e: CorpusEntry) => e.file.split('/').map(encodeURIComponent).join('/');
  const tally = new Map<string, Map<Outcome, string[]>>();
  const count = (action: string, outcome: Outcome, file: string) => {
    const byOutcome = tally.get(action) ?? new Map<Outcome, string[]>();
    tally.set(action, byOutcome);
    byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), file]);
  };
  let notStored: string[] = [];

  /** A signed document's signatures cleared, as docs/errors.md tells a client to do before a full rewrite. */
  const clearSignatures = async (path: string, headers: Record<string, string>) => {
    const list = await call(server, 'GET', `/documents/${path}/fields/signature-fields`, { headers: { ...headers, accept: 'application/json' } });
    assert.equal(list.status, 200, `${path}: signature fields ${list.text.slice(0, 300)}`);
    for (const field of (list.json().signatureFields as { name: string; signed: boolean }[]).filter((f) => f.signed)) {
      const cleared = await call(server, 'DELETE', `/documents/${path}/fields/signature-fields/${encodeURIComponent(field.name)}`, { headers });
      assert.equal(cleared.status, 204, `${path}: clearing ${field.name}: ${cleared.text.slice(0, 300)}`);
    }
  };

  describe(`OptimizeAction (lossless, ebook) and LinearizeAction over the corpus: ${entries.length} files`, () => {
    for (const entry of entries) {
      test(entry.file, async () => {
        const source = readFileSync(entry.absolute);
        const put = await call(server, 'PUT', `/documents/in/${target(entry)}`, { body: source, headers: { 'content-type': 'application/pdf' } });
        assert.ok(put.status < 500, `${entry.file}: upload ${put.status} ${put.text}`);
        if (put.status === 422) {
          // The documents suite checks which files may be refused; a refused file has nothing to optimize.
          notStored = [...notStored, `${entry.file} (${put.json().code})`];
          return;
        }
        assert.equal(put.status, 201, `${entry.file}: upload ${put.text}`);
        // The manifest's best password: the owner's opens for changes; a user password may not allow them (403).
        const owner = entry.passwords.find((p) => p.opensAs === 'owner');
        const user = entry.passwords.find((p) => p.opensAs === 'user');
        const password = (owner ?? user)?.password || undefined;
        const headers: Record<string, string> = { prefer: 'wait=300' };
        if (password) headers['x-service-documentpassword'] = Buffer.from(password, 'utf8').toString('latin1');
        const model = await call(server, 'GET', `/documents/in/${target(entry)}`, { headers: { ...headers, accept: 'application/json' } });
        const signed = model.status === 200 && model.json().hasSignatures === true;

        /** The three actions on the stored document, whose bytes are `source`; answers the refusals' codes. */
        const runActions = async (source: Buffer, signed: boolean): Promise<string[]> => {
          const refusals: string[] = [];
          const input = { check: checkRank(source, password), text: undefined as ReturnType<typeof text> | undefined, renders: undefined as (Buffer | null)[] | undefined };

          for (const action of ['lossless', 'ebook', 'linearize'] as const) {
            const out = `out/${action}/${target(entry)}`;
            const body = action === 'linearize' ? { LinearizeAction: { savePath: decodeURIComponent(out) } } : { OptimizeAction: { profileName: action, savePath: decodeURIComponent(out) } };
            const reply = await call(server, 'POST', `/documents/in/${target(entry)}`, { body, headers });
            const what = `${entry.file} ${action}`;
            assert.ok(reply.status < 500, `${what}: ${reply.status} ${reply.text.slice(0, 500)}`);
            if (REFUSED[entry.file]?.actions.includes(action)) {
              assert.equal(reply.status, 422, `${what}: ${reply.text.slice(0, 300)}`);
              assert.equal(reply.json().code, 'PROCESSING_FAILED');
              count(action, '422 PROCESSING_FAILED (documented)', entry.file);
              continue;
            }
            if (reply.status >= 400) {
              const code = reply.json().code as string;
              // The documented refusals, each where it applies; anything else (422 PROCESSING_FAILED) is an engine fault to fix.
              if (code === 'DOCUMENT_SIGNED') assert.ok(signed, `${what}: 409 but the DocumentModel says unsigned`);
              else if (code === 'DOCUMENT_PASSWORD_REQUIRED') assert.ok(!password && put.json().encrypted, `${what}: ${reply.text}`);
              else if (code === 'DOCUMENT_PERMISSION_DENIED') assert.ok(!owner || owner.password === '', `${what}: refused with the owner password`);
              else if (code === 'DOCUMENT_PASSWORD_INVALID') assert.ok(password && !owner, `${what}: ${reply.text}`);
              else assert.fail(`${what}: ${reply.status} ${reply.text.slice(0, 500)}`);
              assert.equal(reply.status, code === 'DOCUMENT_SIGNED' ? 409 : 403, what);
              count(action, `${reply.status} ${code}`, entry.file);
              refusals.push(code);
              continue;
            }
            if (action === 'linearize') {
              assert.equal(reply.status, 201, `${what}: ${reply.text.slice(0, 300)}`);
              assert.ok(!signed, `${what}: a signed document was rewritten`);
              const written = await storedBytes(server, decodeURIComponent(out));
              const linearization = tool('qpdf', ['--check-linearization', ...qpdfPassword(password)], written);
              // Exit 3 with "no linearization errors": qpdf also warns of what the input already had (a name with a stray #), which --check weighs below.
              const said = linearization.stdout.toString('utf8');
              assert.ok([0, 3].includes(linearization.status) && /: no linearization errors/.test(said), `${what}: qpdf --check-linearization: ${said.slice(0, 400)}${linearization.stderr.slice(0, 400)}`);
              const check = checkRank(written, password);
              assert.ok(check.rank <= input.check.rank, `${what}: qpdf --check worse than the input's (${input.check.rank} -> ${check.rank}): ${check.output}`);
              count(action, 'written', entry.file);
              continue;
            }
            const report = reply.json().report;
            assert.ok(!signed, `${what}: a signed document was optimized`);
            if (reply.status === 200) {
              assert.equal(report.changed, false, `${what}: 200 but changed`);
              assert.equal(report.bytesAfter, source.length);
              assert.equal((await call(server, 'GET', `/documents/${out}`)).status, 404, `${what}: nothing written when not smaller`);
              count(action, 'unchanged', entry.file);
              continue;
            }
            assert.equal(reply.status, 201, `${what}: ${reply.text.slice(0, 300)}`);
            const written = await storedBytes(server, decodeURIComponent(out));
            assert.equal(report.changed, true);
            assert.equal(report.bytesBefore, source.length);
            assert.equal(report.bytesAfter, written.length);
            assert.ok(written.length < source.length, `${what}: ${written.length} bytes, larger than the input's ${source.length}`);
            const check = checkRank(written, password);
            assert.ok(check.rank <= input.check.rank, `${what}: qpdf --check worse than the input's (${input.check.rank} -> ${check.rank}): ${check.output}`);
            // Where poppler cannot read the input cleanly (damaged, or an encryption it cannot decrypt), the input is no
            // reference for words or pixels; qpdf's check above still holds. Counted below.
            input.text ??= text(source, password);
            if (input.text.clean) assert.deepEqual(text(written, password).words, input.text.words, `${what}: pdftotext's words`);
            else count('poppler cannot read the input', action, entry.file);
            if (action === 'lossless') {
              input.renders ??= renders(source, Math.min(RENDERED_PAGES, model.status === 200 ? model.json().pageCount : 1), password);
              const outRenders = renders(written, input.renders.length, password);
              const allowed = RENDERS_DIFFER[entry.file];
              input.renders.forEach((page, i) => {
                if (!page) return;
                const share = outRenders[i] ? differingShare(page, outRenders[i]!) : 1;
                assert.ok(share <= (allowed?.share ?? 0), `${what}: page ${i + 1} renders differently at ${RENDER_DPI} dpi (${(share * 100).toFixed(3)}% of samples)`);
              });
            }
            count(action, 'written', entry.file);
          }
          return refusals;
        };
        const refusals = await runActions(source, signed);
        if (signed && refusals.length === 3 && refusals.every((code) => code === 'DOCUMENT_SIGNED')) {
          // As a client would (docs/errors.md): clear the signatures, then the same actions on what is left.
          await clearSignatures(`in/${target(entry)}`, headers);
          await runActions(await storedBytes(server, `in/${entry.file}`), false);
          count('signatures cleared first', 'then every action as above', entry.file);
        }
      });
    }
  });

  test('the server process survived the whole run', async () => {
    assert.equal(server.child.exitCode, null);
    assert.equal((await fetch(`${server.api}/health`)).status, 200);
  });

  after(() => {
    console.log(`# OptimizeAction and LinearizeAction over the corpus (${entries.length} PDFs; not stored: ${notStored.length})`);
    for (const [action, byOutcome] of tally) {
      const parts = [...byOutcome].map(([outcome, files]) => `${outcome} ${files.length}`);
      console.log(`# ${action}: ${parts.join(', ')}`);
    }
    for (const [action, byOutcome] of tally) {
      for (const [outcome, files] of byOutcome) if (outcome !== 'written') console.log(`# ${action} ${outcome}: ${files.join(', ')}`);
    }
    if (notStored.length) console.log(`# not stored (upload refused): ${notStored.join(', ')}`);
  });
}
