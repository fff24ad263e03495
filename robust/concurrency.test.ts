/**
 * Part 3 of the robustness suite (issue 10): concurrency without loss.
 * (a) 50 clients add a file attachment to one document at the same moment:
 *     afterwards all 50 are there, each with its own bytes.
 * (b) 20 clients run different actions on 20 documents (ten rounds each)
 *     while readers download the documents over and over: every download is
 *     a complete version (its bytes match its ETag and pass qpdf --check),
 *     every action succeeds, and every document ends complete.
 */
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { everySubtypeFixture } from '../test/helpers/annotated-pdf.js';
import { imageStampPdf } from '../test/helpers/appearance-pdf.js';
import { makeFormPdf } from '../test/helpers/form-pdf.js';
import { makePdf } from '../test/helpers/pdf.js';
import { serverForSuite } from '../test/helpers/server.js';
import { checkAlive, etagOf, judge, Ledger, problemCode, qpdfCheckAsync, request, type Answer } from './lib/harness.js';
import { Rng } from './lib/prng.js';

const SEED = 0xc0c0_0a10;
const ATTACHING_CLIENTS = 50;
const WRITERS = 20;
const ROUNDS = 10;
const READERS = 6;
const DEADLINE_MS = 60_000;

const server = serverForSuite();

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json', accept: 'application/json' } });

test('50 clients attach a file to one document at once: all 50 are there afterwards', async () => {
  const ledger = new Ledger('concurrency-attachments');
  const doc = '/documents/concurrent/attachments.pdf';
  const put = await request(server, 'PUT', doc, { body: makePdf({ pages: 2 }), headers: { 'content-type': 'application/pdf' } });
  if (put.status !== 201) throw new Error(`upload: ${put.status} ${put.text}`);
  const files = Array.from({ length: ATTACHING_CLIENTS }, (_, i) => Buffer.from(`client ${i}: ${createHash('sha256').update(String(i)).digest('hex').repeat(1 + (i % 7))}\n`));
  const answers = await Promise.all(
    files.map((bytes, i) => {
      const form = new FormData();
      form.append('annotation', JSON.stringify({ subtype: 'FileAttachment', name: `client-${i}`, pageIndex: i % 2, contents: `From client ${i}` }));
      form.append('file', new Blob([bytes], { type: 'text/plain' }), `client-${i}.txt`);
      return request(server, 'POST', `${doc}/annotations`, { body: form, headers: { accept: 'application/json' }, timeoutMs: DEADLINE_MS + 10_000 });
    }),
  );
  answers.forEach((a, i) => {
    ledger.cases++;
    ledger.check(`client ${i}`, 'attach', a, DEADLINE_MS);
    if (a.status !== 201) ledger.fail(`client ${i}`, `expected 201, got ${a.status} ${problemCode(a)}`);
  });
  const list = await request(server, 'GET', `${doc}/annotations?subtype=FileAttachment`, { headers: { accept: 'application/json' } });
  const names = new Set((JSON.parse(list.text).annotations as { name: string }[]).map((a) => a.name));
  for (let i = 0; i < ATTACHING_CLIENTS; i++) {
    if (!names.has(`client-${i}`)) {
      ledger.fail(`client ${i}`, 'its attachment is missing afterwards');
      continue;
    }
    const content = await request(server, 'GET', `${doc}/annotations/client-${i}/attachment/content`, { headers: { accept: '*/*' } });
    ledger.requests++;
    if (content.status !== 200 || !content.bytes.equals(files[i]!)) ledger.fail(`client ${i}`, `its attachment reads back ${content.status}, ${content.bytes.length} bytes instead of ${files[i]!.length}`);
  }
  const stored = await request(server, 'GET', doc);
  const check = await qpdfCheckAsync(stored.bytes);
  if (!check.ok) ledger.fail('document', `qpdf --check fails afterwards: ${check.output}`);
  ledger.notes.push(`${names.size} FileAttachment annotations afterwards`);
  ledger.finish();
});

type Step = { label: string; run: (doc: string, client: number, round: number) => Promise<Answer> };

const pagesAction = (label: string, body: (c: number, r: number) => unknown): Step => ({ label, run: (doc, c, r) => request(server, 'POST', `${doc}/pages`, { ...json(body(c, r)), timeoutMs: DEADLINE_MS + 10_000 }) });
const documentAction = (label: string, body: (c: number, r: number) => unknown): Step => ({ label, run: (doc, c, r) => request(server, 'POST', doc, { ...json(body(c, r)), timeoutMs: DEADLINE_MS + 10_000 }) });

const STEPS: Step[] = [
  pagesAction('RotatePagesAction', () => ({ RotatePagesAction: { rotation: 90 } })),
  pagesAction('TextStampAction', (c, r) => ({ TextStampAction: { text: `client ${c} round ${r}`, x: 72, y: 72 + 20 * r, fontSize: 14 } })),
  pagesAction('NewPageAction', () => ({ NewPageAction: { width: 300, height: 300 } })),
  pagesAction('MovePagesAction', () => ({ MovePagesAction: { pageRange: '1-', toIndex: 0 } })),
  {
    label: 'XFDF import',
    run: (doc, c, r) =>
      request(server, 'POST', `${doc}/annotations/content`, {
        body: `<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><square page="0" rect="${50 + 10 * r},50,${100 + 10 * r},100" name="c${c}-r${r}" color="#FF0000"><contents>client ${c}</contents></square></annots></xfdf>`,
        headers: { 'content-type': 'application/vnd.adobe.xfdf', accept: 'application/json' },
        timeoutMs: DEADLINE_MS + 10_000,
      }),
  },
  {
    label: 'file attachment',
    run: (doc, c, r) => {
      const form = new FormData();
      form.append('annotation', JSON.stringify({ subtype: 'FileAttachment', pageIndex: 0 }));
      form.append('file', new Blob([`client ${c} round ${r}`], { type: 'text/plain' }), `c${c}-r${r}.txt`);
      return request(server, 'POST', `${doc}/annotations`, { body: form, headers: { accept: 'application/json' }, timeoutMs: DEADLINE_MS + 10_000 });
    },
  },
  {
    label: 'redaction marked and applied',
    run: async (doc) => {
      const marked = await request(server, 'POST', `${doc}/annotations/redaction`, { ...json({ searchText: 'Page', overlayText: 'X' }), timeoutMs: DEADLINE_MS + 10_000 });
      if (marked.status !== 200) return marked;
      return request(server, 'POST', doc, { ...json({ ApplyRedactionsAction: {} }), timeoutMs: DEADLINE_MS + 10_000 });
    },
  },
  documentAction('FlattenAnnotationsAction', () => ({ FlattenAnnotationsAction: {} })),
  documentAction('CopyAction', (c, r) => ({ CopyAction: { savePath: `concurrent/copies/c${c}-r${r}.pdf` } })),
];
const FORM_STEPS: Step[] = [
  { label: 'field value', run: (doc, c, r) => request(server, 'PUT', `${doc}/fields/comment`, { ...json({ value: `client ${c} round ${r}` }), timeoutMs: DEADLINE_MS + 10_000 }) },
  {
    label: 'field data import',
    run: (doc, c) =>
      request(server, 'POST', `${doc}/fields/content`, {
        body: `<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="person"><field name="name"><value>Client ${c}</value></field></field><field name="agree"><value>Yes</value></field></fields></xfdf>`,
        headers: { 'content-type': 'application/vnd.adobe.xfdf', accept: 'application/json' },
        timeoutMs: DEADLINE_MS + 10_000,
      }),
  },
];
const FIXTURES: [string, () => Buffer][] = [
  ['text', () => makePdf({ pages: 3, text: (i) => `Page ${i + 1} of a concurrent document` })],
  ['annotated', () => everySubtypeFixture().pdf],
  ['form', () => makeFormPdf()],
  ['stamp', () => imageStampPdf().pdf],
];

test('20 clients run actions on 20 documents while others read: every download is a complete document', async () => {
  const ledger = new Ledger('concurrency-actions');
  const docs = Array.from({ length: WRITERS }, (_, i) => ({ path: `/documents/concurrent/doc-${i}.pdf`, kind: FIXTURES[i % FIXTURES.length]! }));
  for (const d of docs) {
    const put = await request(server, 'PUT', d.path, { body: d.kind[1](), headers: { 'content-type': 'application/pdf' } });
    if (put.status !== 201) throw new Error(`upload ${d.path}: ${put.status} ${put.text}`);
  }
  let writing = true;
  const checks: Promise<void>[] = [];
  let reads = 0;
  const versions = new Set<string>();
  const readers = Array.from({ length: READERS }, async (_, r) => {
    const rng = new Rng(SEED + r);
    while (writing) {
      const d = rng.pick(docs);
      const model = rng.chance(0.3);
      const a = await request(server, 'GET', d.path, { headers: { accept: model ? 'application/json' : 'application/pdf' }, timeoutMs: DEADLINE_MS + 10_000 });
      reads++;
      ledger.requests++;
      const id = `reader ${r}, read ${reads}, ${d.path}${model ? ' DocumentModel' : ''}`;
      if (judge(a, DEADLINE_MS) !== null || a.status !== 200) {
        ledger.fail(id, `answered ${a.status || a.error} ${problemCode(a)}`);
        continue;
      }
      if (model) continue;
      const etag = a.headers.get('etag');
      if (etag !== etagOf(a.bytes)) ledger.fail(id, `the bytes (${a.bytes.length}) do not match the ETag ${etag}: not one complete version`, a.bytes);
      versions.add(etagOf(a.bytes));
      checks.push(qpdfCheckAsync(a.bytes).then((c) => (c.ok ? undefined : ledger.fail(id, `qpdf --check fails: ${c.output.slice(0, 300)}`, a.bytes))));
    }
  });
  const writers = docs.map(async (d, c) => {
    const steps = d.kind[0] === 'form' ? [...FORM_STEPS, ...STEPS] : STEPS;
    for (let round = 0; round < ROUNDS; round++) {
      const step = steps[(c + round) % steps.length]!;
      ledger.cases++;
      const a = await step.run(d.path, c, round);
      const id = `writer ${c} (${d.kind[0]} ${d.path}), round ${round}, ${step.label}`;
      ledger.requests++;
      const problem = judge(a, DEADLINE_MS);
      if (problem || a.status >= 300) ledger.fail(id, problem ?? `answered ${a.status} ${problemCode(a)}: ${a.text.slice(0, 200)}`);
    }
  });
  await Promise.all(writers);
  writing = false;
  await Promise.all(readers);
  await Promise.all(checks);
  for (const d of docs) {
    const a = await request(server, 'GET', d.path);
    const c = await qpdfCheckAsync(a.bytes);
    if (!c.ok) ledger.fail(`${d.path} at the end`, `qpdf --check fails: ${c.output.slice(0, 300)}`, a.bytes);
  }
  const dead = await checkAlive(server);
  if (dead) ledger.fail('service', dead);
  ledger.notes.push(`${reads} reads by ${READERS} readers saw ${versions.size} distinct versions, each checked with qpdf`);
  ledger.finish();
});
