/**
 * Accessibility preflight (docs/accessibility.md): profiles pdfua1, pdfua2 and wtpdf1a through the running service,
 * their verdicts compared with veraPDF's own, run once per file in a JVM of its own (test/helpers/verapdf.ts), on the
 * PDF/UA-1 files of the veraPDF corpus and on files made here (a tagged HTML upload, an untagged PDF).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { corpusDir } from '../../corpus/manifest.js';
import { HUMAN_CHECKS, MATTERHORN_CHECKPOINTS, matterhornConditions } from '../../src/operations/matterhorn.js';
import { call, putPdf, type Reply } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';
import { verapdfDir, verapdfVerdicts, type VerapdfVerdict } from '../helpers/verapdf.js';

const corpus = corpusDir();
const CHROMIUM = '/usr/lib/chromium/chromium';
/** PDF/UA-1 files of the veraPDF corpus: three that pass, three that fail (an embedded file, a Form XObject, a .notdef glyph). */
const PASSING = ['7.16-t01-pass-a.pdf', '7.4.2-t01-pass-a.pdf', '7.18.5-t01-pass-a.pdf'];
const FAILING = ['7.11-t01-fail-b.pdf', '7.20-t02-fail-a.pdf', '7.21.8-t01-fail-a.pdf'];
const corpusFile = (name: string) => readFileSync(path.join(corpus!, 'verapdf', 'PDF_UA-1', name));
const HTML = '<!DOCTYPE html><html lang="en"><head><title>Opening hours</title></head><body><h1>Opening hours</h1><p>Monday to Friday, 9 to 17.</p><h2>Holidays</h2><p>Closed.</p></body></html>';

interface Rule {
  clause: string;
  testNumber: number;
  failedChecks: number;
  locations: Array<{ pageIndex?: number; objectNumber?: number; context: string }>;
}
interface Checkpoint {
  checkpoint: string;
  name: string;
  failureConditions: string[];
  failedChecks: number;
  rules: Array<{ clause: string; testNumber: number }>;
  locations: Rule['locations'];
}
interface Result {
  profile: string;
  compliant: boolean;
  rules: Rule[];
  accessibility?: { protocol?: string; checkpoints?: Checkpoint[]; humanChecks: Array<{ failureCondition: string; checkpoint: string; name: string; description: string }> };
}

/** One file of a jar (a zip): found in the central directory, stored or deflated (no unzip program needed). */
function jarEntry(jar: Buffer, name: string): Buffer {
  const end = jar.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = jar.readUInt32LE(end + 16);
  for (let count = jar.readUInt16LE(end + 10); count > 0; count--) {
    const nameLength = jar.readUInt16LE(at + 28);
    if (jar.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      const [method, size, local] = [jar.readUInt16LE(at + 10), jar.readUInt32LE(at + 20), jar.readUInt32LE(at + 42)];
      const start = local + 30 + jar.readUInt16LE(local + 26) + jar.readUInt16LE(local + 28);
      const data = jar.subarray(start, start + size);
      return method === 0 ? data : inflateRawSync(data);
    }
    at += 46 + nameLength + jar.readUInt16LE(at + 30) + jar.readUInt16LE(at + 32);
  }
  throw new Error(`${name} is not in the jar`);
}

const ruleIds = (rules: ReadonlyArray<{ clause: string; testNumber: number }>) => rules.map((r) => `${r.clause}-${r.testNumber}`).sort();

/** The grouping a report must have: every failed rule in the checkpoint(s) of its failure conditions, counts and places added up. */
function assertGrouping(result: Result): void {
  const checkpoints = result.accessibility!.checkpoints!;
  assert.equal(result.accessibility!.protocol, 'Matterhorn Protocol 1.1');
  assert.deepEqual(checkpoints.map((c) => c.checkpoint), [...checkpoints.map((c) => c.checkpoint)].sort(), 'checkpoints in order');
  for (const rule of result.rules) {
    for (const condition of matterhornConditions(rule)) {
      const group = checkpoints.find((c) => c.checkpoint === condition.slice(0, 2));
      assert.ok(group, `rule ${rule.clause}-${rule.testNumber} (${condition}) is in no checkpoint`);
      assert.ok(group.failureConditions.includes(condition));
      assert.ok(group.rules.some((r) => r.clause === rule.clause && r.testNumber === rule.testNumber));
    }
  }
  for (const group of checkpoints) {
    const rules = result.rules.filter((r) => group.rules.some((g) => g.clause === r.clause && g.testNumber === r.testNumber));
    assert.equal(group.failedChecks, rules.reduce((sum, r) => sum + r.failedChecks, 0));
    assert.deepEqual(group.locations, rules.flatMap((r) => r.locations).slice(0, 10));
  }
}

function assertHumanChecks(result: Result): void {
  const human = result.accessibility!.humanChecks;
  assert.equal(human.length, HUMAN_CHECKS.length);
  // Reading order, meaningful alt text and headings that match the page are among them, with their checkpoints named.
  for (const [id, checkpoint] of [['09-001', 'Appropriate tags'], ['13-005', 'Graphics'], ['14-001', 'Headings']] as const) {
    const item = human.find((h) => h.failureCondition === id);
    assert.ok(item, `${id} missing from humanChecks`);
    assert.equal(item.checkpoint, id.slice(0, 2));
    assert.equal(item.name, checkpoint);
    assert.ok(item.description.length > 10);
  }
}

test('every rule of the installed veraPDF PDF/UA-1 profile maps to Matterhorn failure conditions, but the two no condition names', () => {
  // The profile as veraPDF ships it (PDFUA-1.xml in its core jar): a rule a new veraPDF adds must be placed in the table.
  const core = readdirSync(path.join(verapdfDir, 'lib')).find((name) => /^core-.*\.jar$/.test(name))!;
  const profile = jarEntry(readFileSync(path.join(verapdfDir, 'lib', core)), 'org/verapdf/pdfa/validation/PDFUA-1.xml').toString('utf8');
  const rules = [...profile.matchAll(/<id specification="ISO_14289_1" clause="([\d.]+)" testNumber="(\d+)"\/>/g)].map((m) => ({ clause: m[1]!, testNumber: Number(m[2]) }));
  assert.ok(rules.length >= 100, `${rules.length} rules read`);
  const unmapped = rules.filter((rule) => matterhornConditions(rule).length === 0).map((r) => `${r.clause}-${r.testNumber}`);
  assert.deepEqual(unmapped, ['6.1-1', '7.1-12']);
  for (const rule of rules) {
    for (const condition of matterhornConditions(rule)) {
      assert.match(condition, /^\d{2}-\d{3}$/);
      assert.ok(MATTERHORN_CHECKPOINTS[condition.slice(0, 2)], `${condition}: no such checkpoint`);
      assert.ok(!HUMAN_CHECKS.some((h) => h.failureCondition === condition), `${condition} is a machine check and a human one`);
    }
  }
  assert.equal(Object.keys(MATTERHORN_CHECKPOINTS).length, 31);
});

test('the human checks are every failure condition the Matterhorn Protocol 1.1 marks "Human", and no machine one', () => {
  // Transcribed from the protocol's table of failure conditions (its "How" column), checkpoint by checkpoint.
  const human = [
    '01-001', '01-002', '01-006', '02-002', '03-001', '03-002', '03-003', '04-001', '05-001', '05-002', '05-003', '06-004',
    '08-001', '08-002', '09-001', '09-002', '09-003', '11-007', '12-001', '13-001', '13-002', '13-003', '13-005', '13-006',
    '13-007', '13-008', '14-001', '14-004', '14-005', '15-001', '15-002', '15-004', '15-005', '16-001', '16-002', '16-003',
    '17-001', '18-001', '18-002', '19-001', '19-002', '22-001', '24-001', '28-001', '28-003', '28-013', '29-001', '31-010',
  ];
  assert.deepEqual(HUMAN_CHECKS.map((h) => h.failureCondition), human);
  for (const { failureCondition, description } of HUMAN_CHECKS) {
    assert.ok(MATTERHORN_CHECKPOINTS[failureCondition.slice(0, 2)], `${failureCondition}: no such checkpoint`);
    assert.ok(description.length > 10, failureCondition);
  }
});

describe('accessibility preflight (pdfua1, pdfua2, wtpdf1a)', { skip: corpus ? false : 'no corpus (../shared/corpus or PDFSERVICE_CORPUS)' }, () => {
  const server = serverForSuite();
  const preflight = (doc: string, profile: string, headers: Record<string, string> = {}): Promise<Reply> =>
    call(server, 'GET', `/documents/${doc}/preflight-results?profile=${encodeURIComponent(profile)}`, { headers });
  const untagged = makePdf({ pages: 2, text: (page) => `Untagged page ${page}` });
  // veraPDF's own verdicts, from one JVM of its own: the corpus files, then the untagged file (ua1, ua2, wt1a).
  let independent: VerapdfVerdict[];
  before(() => {
    independent = verapdfVerdicts([
      ...[...PASSING, ...FAILING].map((name) => ({ bytes: corpusFile(name), flavour: 'ua1' })),
      ...['ua1', 'ua2', 'wt1a'].map((flavour) => ({ bytes: untagged, flavour })),
    ]);
  });

  test('PDF/UA-1 files of the veraPDF corpus: the service agrees with veraPDF, and failures are grouped by Matterhorn checkpoint', { timeout: 180_000 }, async () => {
    const files = [...PASSING, ...FAILING];
    for (const [index, name] of files.entries()) {
      const doc = `ua/corpus-${index}.pdf`;
      assert.equal((await putPdf(server, doc, corpusFile(name))).status, 201);
      const reply = await preflight(doc, 'pdfua1');
      assert.equal(reply.status, 200, reply.text);
      const result = reply.json() as Result;
      const verdict = independent[index]!;
      assert.equal(result.profile, 'pdfua1');
      assert.equal(result.compliant, verdict.compliant, `${name}: the service says ${result.compliant}, veraPDF ${verdict.compliant}`);
      assert.equal(result.compliant, PASSING.includes(name), `${name}: the corpus expects the other verdict`);
      assert.deepEqual(ruleIds(result.rules), ruleIds(verdict.rules), name);
      assertGrouping(result);
      assertHumanChecks(result);
      if (result.compliant) assert.deepEqual(result.accessibility!.checkpoints, []);
    }
    // The failing files each fail their clause, under the checkpoint the Matterhorn Protocol gives it.
    const expected: Record<string, [string, string]> = { '7.11-t01-fail-b.pdf': ['21', '21-001'], '7.20-t02-fail-a.pdf': ['30', '30-002'], '7.21.8-t01-fail-a.pdf': ['31', '31-030'] };
    for (const name of FAILING) {
      const index = [...PASSING, ...FAILING].indexOf(name);
      const result = (await preflight(`ua/corpus-${index}.pdf`, 'pdfua1')).json() as Result;
      const [checkpoint, condition] = expected[name]!;
      const group = result.accessibility!.checkpoints!.find((c) => c.checkpoint === checkpoint);
      assert.ok(group, `${name}: no checkpoint ${checkpoint} in ${JSON.stringify(result.accessibility!.checkpoints)}`);
      assert.ok(group.failureConditions.includes(condition), `${name}: ${condition} missing`);
      assert.ok(group.locations.length > 0 && group.locations.every((l) => l.context.startsWith('root')));
    }
  });

  test('an untagged PDF fails PDF/UA-1 under checkpoint 01 (01-005, clause 7.1) with pages and objects; PDF/UA-2 and WTPDF agree with veraPDF', { timeout: 120_000 }, async () => {
    assert.equal((await putPdf(server, 'ua/untagged.pdf', untagged)).status, 201);
    const result = (await preflight('ua/untagged.pdf', 'pdfua1')).json() as Result;
    const verdict = independent[PASSING.length + FAILING.length]!;
    assert.equal(result.compliant, false);
    assert.equal(verdict.compliant, false);
    assert.deepEqual(ruleIds(result.rules), ruleIds(verdict.rules));
    assert.ok(result.rules.some((r) => r.clause === '7.1'), JSON.stringify(ruleIds(result.rules)));
    assertGrouping(result);
    const real = result.accessibility!.checkpoints!.find((c) => c.checkpoint === '01')!;
    assert.equal(real.name, 'Real content tagged');
    assert.ok(real.failureConditions.includes('01-005'), JSON.stringify(real));
    // Content on both pages is untagged: the places name the pages (zero-based) and objects.
    const pages = new Set(real.locations.map((l) => l.pageIndex).filter((p) => p !== undefined));
    assert.ok(pages.has(0), JSON.stringify(real.locations));
    assert.ok(real.locations.some((l) => typeof l.objectNumber === 'number'));
    assertHumanChecks(result);
    // PDF/UA-2 and WTPDF: the same warm helper, veraPDF's verdict and rules; the human checks, no Matterhorn grouping.
    for (const [offset, profile] of ['pdfua2', 'wtpdf1a'].entries()) {
      const other = (await preflight('ua/untagged.pdf', profile)).json() as Result;
      const own = independent[PASSING.length + FAILING.length + 1 + offset]!;
      assert.equal(other.profile, profile);
      assert.equal(other.compliant, own.compliant);
      assert.deepEqual(ruleIds(other.rules), ruleIds(own.rules));
      assert.equal(other.accessibility!.checkpoints, undefined);
      assert.equal(other.accessibility!.protocol, undefined);
      assertHumanChecks(other);
    }
  });

  test('XML: <accessibility> with <checkpoints><checkpoint> and <humanChecks><humanCheck>', { timeout: 120_000 }, async () => {
    assert.equal((await putPdf(server, 'ua/untagged-xml.pdf', untagged)).status, 201);
    const reply = await preflight('ua/untagged-xml.pdf', 'pdfua1', { accept: 'application/xml' });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.text, /<PreflightResult>/);
    assert.match(reply.text, /<accessibility>\s*<protocol>Matterhorn Protocol 1\.1<\/protocol>\s*<checkpoints>\s*<checkpoint>\s*<checkpoint>01<\/checkpoint>\s*<name>Real content tagged<\/name>/);
    assert.match(reply.text, /<failureConditions>\s*<failureCondition>01-005<\/failureCondition>/);
    assert.match(reply.text, /<rules>\s*<rule>\s*<clause>6\.2<\/clause>\s*<testNumber>1<\/testNumber>\s*<\/rule>/);
    assert.match(reply.text, /<humanChecks>\s*<humanCheck>\s*<failureCondition>01-001<\/failureCondition>/);
  });

  test('a PDF/A result keeps its shape (no accessibility); an unknown profile is 400 listing the accessibility ones', { timeout: 120_000 }, async () => {
    const pdfa = (await preflight('ua/untagged.pdf', 'pdfa2b')).json() as Result;
    assert.equal(pdfa.profile, 'pdfa2b');
    assert.equal('accessibility' in pdfa, false);
    const bad = await preflight('ua/untagged.pdf', 'pdfua3');
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json().code, 'VALIDATION_FAILED');
    for (const profile of ['pdfua1', 'pdfua2', 'wtpdf1a']) assert.match(bad.text, new RegExp(profile));
  });

  test('a tagged HTML upload passes PDF/UA-1, as veraPDF says; nothing grouped, the human checks listed', { timeout: 120_000, skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing` }, async () => {
    const put = await call(server, 'PUT', '/documents/ua/hours.pdf', { body: Buffer.from(HTML), headers: { 'content-type': 'text/html' } });
    assert.equal(put.status, 201, put.text);
    const pdf = (await call(server, 'GET', '/documents/ua/hours.pdf')).bytes;
    const [verdict] = verapdfVerdicts([{ bytes: pdf, flavour: 'ua1' }]);
    const result = (await call(server, 'GET', '/documents/ua/hours.pdf/preflight-results?profile=pdfua1')).json() as Result;
    assert.equal(verdict!.compliant, true, JSON.stringify(verdict!.rules));
    assert.equal(result.compliant, true, JSON.stringify(result.rules));
    assert.deepEqual(result.rules, []);
    assert.deepEqual(result.accessibility!.checkpoints, []);
    assertHumanChecks(result);
  });
});
