/**
 * Part 1b of the robustness suite (issue 10): hostile bodies. Seeded
 * mutations of XFDF and FDF files (annotation import and form field import),
 * of the JSON and XML bodies of every action (document and page actions, and
 * the multipart forms of the actions that take files), and of the other
 * JSON writes (redaction marks, a field's value, a file attachment's
 * annotation part, password protection). Every answer must be 2xx or a
 * documented 4xx within the deadline; a refused request must leave the
 * document byte-for-byte unchanged; the service must stay up (health after
 * every batch).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { everySubtypeFixture } from '../test/helpers/annotated-pdf.js';
import { imageStampPdf } from '../test/helpers/appearance-pdf.js';
import { makeFormPdf } from '../test/helpers/form-pdf.js';
import { sha256, storedBytes } from '../test/helpers/http.js';
import { makePdf } from '../test/helpers/pdf.js';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { corpusDir } from '../corpus/manifest.js';
import { smallPng } from './lib/bombs.js';
import { baseParams, mutateFdf, mutateJsonBody, mutateXml, toXml, type BodyMutation } from './lib/body-mutations.js';
import { caseCount, checkAlive, ErrorLog, inLanes, lanes, Ledger, onlyCases, problemCode, request, type Answer } from './lib/harness.js';
import { caseSeed, hex, Rng } from './lib/prng.js';

export const SEED = 0xb0d1_e510;
const TASK_TIMEOUT_MS = 10_000;
const DEADLINE_MS = 3 * TASK_TIMEOUT_MS + 5_000;
const BATCH = 25;
const XFDF = 'application/vnd.adobe.xfdf';
const FDF = 'application/vnd.fdf';

/** The documents each lane works on, reset after every batch. */
const DOCUMENTS: Record<string, () => Buffer> = {
  annotated: () => everySubtypeFixture().pdf,
  form: () => makeFormPdf(),
  text: () => makePdf({ pages: 3, text: (i) => (i === 0 ? 'a'.repeat(40) : `Jane Doe 2026 page ${i + 1}`) }),
  stamp: () => imageStampPdf().pdf,
};
const originals = Object.fromEntries(Object.entries(DOCUMENTS).map(([k, make]) => [k, make()]));

let server: TestServer;
let errorLog: ErrorLog;
before(async () => {
  server = await startServer({ env: { PDFSERVICE_TASK_TIMEOUT_MS: String(TASK_TIMEOUT_MS) } });
  errorLog = new ErrorLog(server);
});
after(async () => {
  await server.stop();
});

const docPath = (lane: number, name: string) => `bodies/${lane}/${name}.pdf`;

async function resetDocuments(lane: number): Promise<void> {
  for (const [name, bytes] of Object.entries(originals)) {
    const put = await request(server, 'PUT', `/documents/${docPath(lane, name)}`, { body: bytes, headers: { 'content-type': 'application/pdf' } });
    if (put.status >= 300) throw new Error(`cannot reset ${name}: ${put.status} ${put.text}`);
  }
}

interface Seeds {
  xfdf: Buffer[];
  fdf: Buffer[];
  documentActions: string[];
  pageActions: string[];
}

async function bodySeeds(): Promise<Seeds> {
  const get = async (url: string, accept: string) => {
    const a = await request(server, 'GET', url, { headers: { accept } });
    if (a.status !== 200) throw new Error(`${url}: ${a.status} ${a.text}`);
    return a.bytes;
  };
  const xfdf = [
    await get(`/documents/${docPath(0, 'annotated')}/annotations/content`, XFDF),
    await get(`/documents/${docPath(0, 'stamp')}/annotations/content`, XFDF),
    await get(`/documents/${docPath(0, 'form')}/fields/content?exportEmptyFields=true`, XFDF),
  ];
  const fdf = [
    await get(`/documents/${docPath(0, 'annotated')}/annotations/content`, FDF),
    await get(`/documents/${docPath(0, 'form')}/fields/content?exportEmptyFields=true`, FDF),
  ];
  const dir = corpusDir();
  if (dir) {
    for (const file of ['pdfbox/xfdf/xfdf-test-document-annotations.xml']) if (existsSync(path.join(dir, file))) xfdf.push(readFileSync(path.join(dir, file)));
    for (const file of ['pdfbox/fdf/nocatalog.fdf', 'pdfbox/fdf/withcatalog.fdf']) if (existsSync(path.join(dir, file))) fdf.push(readFileSync(path.join(dir, file)));
  }
  // The action names, as the service lists them when asked for an unknown one.
  const names = async (url: string) => {
    const a = await request(server, 'POST', url, { body: '{"NoSuchAction":{}}', headers: { 'content-type': 'application/json' } });
    const list = (JSON.parse(a.text) as { actions?: string[] }).actions;
    if (!list?.length) throw new Error(`no action list from ${url}: ${a.text}`);
    return list;
  };
  return {
    xfdf,
    fdf,
    documentActions: await names(`/documents/${docPath(0, 'text')}`),
    pageActions: await names(`/documents/${docPath(0, 'text')}/pages`),
  };
}

interface BodyCase {
  family: string;
  method: string;
  url: string;
  doc: string;
  contentType?: string;
  body: Buffer | FormData;
  mutation: BodyMutation;
}

function multipart(parts: { name: string; value: string | Buffer; type?: string; filename?: string }[]): FormData {
  const form = new FormData();
  for (const p of parts) {
    if (typeof p.value === 'string' && !p.filename) form.append(p.name, p.value);
    else form.append(p.name, new Blob([p.value as BlobPart], { type: p.type ?? 'application/octet-stream' }), p.filename ?? 'file.bin');
  }
  return form;
}

/** Builds case `index`: which endpoint, which document of the lane, which mutated body. */
function buildCase(seeds: Seeds, rng: Rng, lane: number): BodyCase {
  const family = rng.weighted([
    [14, 'xfdf-annotations'],
    [10, 'fdf-annotations'],
    [9, 'xfdf-fields'],
    [7, 'fdf-fields'],
    [18, 'action-json'],
    [10, 'action-xml'],
    [5, 'action-multipart'],
    [8, 'redaction-json'],
    [6, 'field-value-json'],
    [8, 'attachment-multipart'],
    [3, 'permissions-json'],
    [2, 'deprecated-a3-import'],
  ] as const);
  const laneName = String(lane);
  const doc = (name: string) => docPath(lane, name);
  switch (family) {
    case 'xfdf-annotations':
    case 'xfdf-fields': {
      const target = family === 'xfdf-fields' ? rng.pick(['form', 'form', 'text']) : rng.pick(['annotated', 'stamp', 'text', 'form']);
      const m = mutateXml(rng.pick(seeds.xfdf), rng);
      return { family, method: 'POST', url: `/documents/${doc(target)}/${family === 'xfdf-fields' ? 'fields' : 'annotations'}/content`, doc: doc(target), contentType: XFDF, body: m.body, mutation: m };
    }
    case 'fdf-annotations':
    case 'fdf-fields':
    case 'deprecated-a3-import': {
      const target = family === 'fdf-fields' ? rng.pick(['form', 'form', 'text']) : rng.pick(['annotated', 'stamp', 'text', 'form']);
      const m = mutateFdf(rng.pick(seeds.fdf), rng);
      const url = family === 'fdf-fields' ? 'fields/content' : family === 'deprecated-a3-import' ? 'annotations' : 'annotations/content';
      return { family, method: 'POST', url: `/documents/${doc(target)}/${url}`, doc: doc(target), contentType: FDF, body: m.body, mutation: m };
    }
    case 'action-json':
    case 'action-xml': {
      const pages = rng.chance(0.5);
      const actions = pages ? seeds.pageActions : seeds.documentActions;
      const action = rng.pick(actions);
      const target = rng.pick(['annotated', 'form', 'text', 'stamp']);
      const url = `/documents/${doc(target)}${pages ? '/pages' : ''}`;
      if (family === 'action-json') {
        const m = mutateJsonBody(action, baseParams(action, laneName), rng, actions);
        return { family, method: 'POST', url, doc: doc(target), contentType: 'application/json', body: m.body, mutation: { ...m, detail: `${action}: ${m.detail}` } };
      }
      // XML: the parameters (one value perhaps replaced) as elements, then perhaps an XML mutation.
      const params = baseParams(action, laneName);
      const lightly = mutateJsonBody(null, params, rng, actions);
      let parsed: unknown = params;
      try {
        parsed = JSON.parse(lightly.body.toString('utf8'));
      } catch {
        /* keep the valid parameters */
      }
      let xml: Buffer;
      try {
        xml = Buffer.from(toXml(action, parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, never>) : params), 'utf8');
      } catch {
        xml = Buffer.from(toXml(action, params), 'utf8'); // a value too deep to write as text
      }
      const m = rng.chance(0.6) ? mutateXml(xml, rng) : { kind: 'xml-values', detail: lightly.detail, body: xml };
      return { family, method: 'POST', url, doc: doc(target), contentType: rng.pick(['application/xml', 'text/xml']), body: m.body, mutation: { ...m, detail: `${action}: ${m.detail}` } };
    }
    case 'action-multipart': {
      const action = rng.pick(['ImageStampAction', 'InsertAttachedPagesAction', 'TextStampAction']);
      const target = rng.pick(['annotated', 'text', 'stamp']);
      const m = mutateJsonBody(action, baseParams(action, laneName), rng, seeds.pageActions);
      const file = action === 'ImageStampAction' ? { value: rng.chance(0.8) ? smallPng(8, 8) : rng.bytes(64), type: rng.pick(['image/png', 'application/octet-stream', 'image/jpeg']), filename: 'logo.png' }
        : { value: rng.chance(0.8) ? originals['text']! : rng.bytes(200), type: 'application/pdf', filename: 'insert.pdf' };
      const parts = [{ name: rng.pick(['pageAction', 'pageAction', 'action', 'other']), value: m.body.toString('utf8'), type: 'application/json', filename: 'action.json' }, { name: 'file', ...file }];
      if (rng.chance(0.1)) parts.push({ name: 'file2', ...file });
      return { family, method: 'POST', url: `/documents/${doc(target)}/pages`, doc: doc(target), body: multipart(parts), mutation: { ...m, detail: `${action}: ${m.detail}` } };
    }
    case 'redaction-json': {
      const target = rng.pick(['text', 'annotated', 'form']);
      const params = rng.pick<Record<string, string | boolean | number>>([
        { searchText: 'Jane Doe', overlayText: '[x]' },
        { searchText: 'a+', regex: true },
        { searchText: '(a+)+b', regex: true },
        { searchText: '(a|aa)+$', regex: true, pageIndex: 0 },
        { searchText: 'page', wholeWord: true, caseSensitive: true, includeAnnotations: false },
      ]);
      const m = mutateJsonBody(null, params, rng, []);
      return { family, method: 'POST', url: `/documents/${doc(target)}/annotations/redaction`, doc: doc(target), contentType: 'application/json', body: m.body, mutation: m };
    }
    case 'field-value-json': {
      const name = rng.pick(['comment', 'agree', 'color', 'country', 'toppings', 'id', 'person.name', 'ref', 'sig', 'submit', 'nosuch', 'person', '..', '%2e']);
      const value = rng.pick<Record<string, never> | object>([{ value: 'Jane' }, { value: 'Yes' }, { value: ['cheese', 'ham'] }, { value: 'Off' }]);
      const m = mutateJsonBody(null, value as Record<string, never>, rng, []);
      return { family, method: 'PUT', url: `/documents/${doc('form')}/fields/${encodeURIComponent(name)}`, doc: doc('form'), contentType: 'application/json', body: m.body, mutation: { ...m, detail: `field ${name}: ${m.detail}` } };
    }
    case 'attachment-multipart': {
      const target = rng.pick(['annotated', 'text', 'form']);
      const annotation = { subtype: 'FileAttachment', pageIndex: 0, contents: 'robust', rect: { x: 10, y: 10, width: 20, height: 20 }, icon: 'Paperclip', color: '#00AA00' };
      const m = mutateJsonBody(null, annotation as never, rng, []);
      const disposition = rng.pick(['attachment; filename="data.csv"', '{"fileName":"a.txt","mediaType":"text/plain"}', '{"fileName":"","creationDate":"not a date"}', 'attachment; filename*=UTF-8\'\'%FF%FE', 'x'.repeat(5000), '{"fileName":' + '['.repeat(10000)]);
      const parts: { name: string; value: string | Buffer; type?: string; filename?: string }[] = [
        { name: 'annotation', value: m.body.toString('utf8'), type: 'application/json', filename: 'a.json' },
        { name: 'file', value: rng.bytes(rng.pick([0, 10, 5000])), type: 'text/csv', filename: rng.pick(['data.csv', '../../x', '', '\u0000.bin']) || 'f' },
      ];
      if (rng.chance(0.8)) parts.push({ name: 'fileDisposition', value: disposition });
      return { family, method: 'POST', url: `/documents/${doc(target)}/annotations`, doc: doc(target), body: multipart(parts), mutation: m };
    }
    case 'permissions-json': {
      const target = rng.pick(['text', 'annotated']);
      const m = mutateJsonBody(null, { openPassword: 'open', permissionsPassword: 'owner', encryptType: 3, extractTextAllowed: false }, rng, []);
      return { family, method: 'PUT', url: `/documents/${doc(target)}/permissions/password-permissions`, doc: doc(target), contentType: 'application/json', body: m.body, mutation: m };
    }
  }
}

test('hostile bodies: mutated XFDF, FDF, action and other JSON/XML bodies', async () => {
  const ledger = new Ledger('hostile-bodies');
  const only = onlyCases();
  const laneCount = lanes();
  for (let lane = 0; lane < laneCount; lane++) await resetDocuments(lane);
  const seeds = await bodySeeds();
  const count = caseCount('ROBUST_BODY_CASES', 1500);
  const families = new Map<string, { ok: number; refused: number }>();
  let slowest = { ms: 0, what: '' };
  /** The documents are valid, so the engine failing on them is worth a look: it may be a bad body answered with the wrong code. */
  const processingFailed: string[] = [];

  const runCase = async (index: number, lane: number) => {
    const rng = new Rng(caseSeed(SEED, index));
    const c = buildCase(seeds, rng, lane);
    const id = `case ${index} (seed ${hex(rng.seed)}, lane ${lane}, ${c.family} ${c.method} ${c.url}, ${c.mutation.kind}: ${c.mutation.detail})`;
    if (process.env['ROBUST_VERBOSE']) console.log(id);
    ledger.cases++;
    const before = sha256(await storedBytes(server, c.doc));
    // Wait for work that is long by nature (PDFAConvertAction, OCRAction), which answers 202 and writes later by default:
    // the lane's before/after comparison needs every write of a case done when its answer comes.
    const headers: Record<string, string> = { accept: 'application/json', prefer: `wait=${Math.floor(DEADLINE_MS / 1000)}` };
    if (c.contentType) headers['content-type'] = c.contentType;
    const answer: Answer = await request(server, c.method, c.url, { body: c.body, headers, timeoutMs: DEADLINE_MS + 10_000 });
    if (answer.ms > slowest.ms) slowest = { ms: answer.ms, what: `case ${index} ${c.family} ${answer.status}` };
    const input = c.body instanceof FormData ? undefined : c.body;
    if (!ledger.check(id, 'answer', answer, DEADLINE_MS, input)) return;
    const tally = families.get(c.family) ?? { ok: 0, refused: 0 };
    if (answer.status < 300) tally.ok++;
    else tally.refused++;
    families.set(c.family, tally);
    if (problemCode(answer) === 'PROCESSING_FAILED') processingFailed.push(`case ${index} ${c.family} ${c.mutation.kind}`);
    if (answer.status >= 400) {
      const after = sha256(await storedBytes(server, c.doc));
      if (after !== before) ledger.fail(id, `refused with ${answer.status} ${problemCode(answer)} but ${c.doc} changed`, input);
    }
  };

  const indices = Array.from({ length: count }, (_, i) => i).filter((i) => !only || only.has(i));
  for (let start = 0; start < indices.length; start += BATCH) {
    const batch = indices.slice(start, start + BATCH);
    // Each lane has its own documents, so a lane's before/after comparison sees only its own writes.
    await inLanes(laneCount, laneCount, async (lane) => {
      for (let i = lane; i < batch.length; i += laneCount) await runCase(batch[i]!, lane);
    });
    const dead = await checkAlive(server);
    if (dead) {
      ledger.fail(`batch ${start / BATCH}`, `after the batch: ${dead}\n${server.output.slice(-20).join('\n')}`);
      break;
    }
    for (let lane = 0; lane < laneCount; lane++) await resetDocuments(lane);
  }
  // parseFieldData reads the body alone, without any document: its failing can only be a bad body given the wrong code.
  for (const [what, n] of errorLog.counts) if (/parseFieldData/.test(what)) ledger.fail('field data parsing', `${n}x ${what} (answered PROCESSING_FAILED, should be MALFORMED_XFDF or MALFORMED_FDF)`);
  ledger.notes.push(`seed ${hex(SEED)}`);
  ledger.notes.push(`accepted/refused by family: ${[...families].map(([k, v]) => `${k} ${v.ok}/${v.refused}`).join(', ')}`);
  ledger.notes.push(`${processingFailed.length} answers PROCESSING_FAILED${processingFailed.length ? ` (${processingFailed.slice(0, 8).join(', ')}${processingFailed.length > 8 ? ', ...' : ''})` : ''}`);
  ledger.notes.push(errorLog.describe(12));
  ledger.notes.push(`slowest answer ${Math.round(slowest.ms)} ms (${slowest.what})`);
  ledger.finish();
});
