/**
 * PDF/X rules (src/engine/preflight/pdfx.ts) through the running service:
 * GET .../preflight-results?profile= for every profile's compliant fixture,
 * and for every variant, which fails exactly the rule it breaks (or, for the
 * allowed alternatives, stays compliant).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { call, putPdf, type Reply } from '../helpers/http.js';
import { makePdf, qpdfCheck } from '../helpers/pdf.js';
import { CMYK_PROFILE, PDFX_PROFILES, pdfxFixture, VARIANTS } from '../helpers/pdfx-fixtures.js';
import { serverForSuite } from '../helpers/server.js';
import { tempFolders } from '../helpers/temp.js';

const server = serverForSuite();
let uploads = 0;

/** Stores `pdf` under a new path and asks for its preflight result; the reply as it came. */
async function ask(pdf: Buffer, profile: string, headers: Record<string, string> = {}): Promise<{ reply: Reply; document: string; etag: string }> {
  const document = `pdfx/${++uploads}.pdf`;
  const put = await putPdf(server, document, pdf);
  assert.equal(put.status, 201, put.text);
  const reply = await call(server, 'GET', `/documents/${document}/preflight-results?profile=${encodeURIComponent(profile)}`, { headers });
  return { reply, document, etag: put.headers.get('etag') ?? '' };
}

/** The PreflightResult of `pdf` (JSON), checked to name the document and the version checked. */
async function preflight(pdf: Buffer, profile: string, password?: string): Promise<any> {
  const { reply, document, etag } = await ask(pdf, profile, password ? { 'X-Service-DocumentPassword': password } : {});
  assert.equal(reply.status, 200, reply.text);
  const report = reply.json();
  assert.equal(report.document, `/${document}`);
  if (etag) assert.equal(report.etag, etag);
  return report;
}

const summary = (report: any) => report.rules.map((r: any) => `${r.testNumber} ${r.description}: ${JSON.stringify(r.locations.slice(0, 2))}`).join('\n');

describe('compliant fixtures', () => {
  for (const profile of PDFX_PROFILES) {
    test(`${profile}: the compliant document passes every rule`, async () => {
      const report = await preflight(pdfxFixture(profile), profile);
      assert.equal(report.profile, profile);
      assert.deepEqual(report.rules, [], summary(report));
      // The fixture is a sound PDF by an independent reader, so passing is not an artefact of a broken file.
      const qpdf = qpdfCheck(pdfxFixture(profile));
      assert.ok(qpdf.ok, qpdf.output);
      assert.equal(report.compliant, true);
      assert.equal(report.failedChecks, 0);
      assert.ok(report.passedChecks > 20, `passed checks: ${report.passedChecks}`);
      assert.equal(report.validator.name, 'pdfservice PDF/X rules');
      assert.match(report.validator.version, /^\d+\.\d+\.\d+/);
    });
  }

  test('the X-3 document (ICC-based RGB) fails X-1a on colour only; the X-4 document (transparency) fails X-3 on transparency and identification', async () => {
    const x3 = await preflight(pdfxFixture('pdfx32003'), 'pdfx1a2003');
    assert.deepEqual(x3.rules.map((r: any) => r.testNumber), [11, 19, 20], summary(x3));
    const colour = x3.rules[0];
    assert.equal(colour.specification, 'ISO 15930-4:2003');
    assert.equal(colour.locations[0].pageIndex, 0);
    assert.match(colour.locations[0].context, /ICCBased/);
    const x4 = await preflight(pdfxFixture('pdfx4'), 'pdfx32003');
    assert.deepEqual(x4.rules.map((r: any) => r.testNumber), [1, 13, 19], summary(x4));
  });
});

const tempFolder = tempFolders('pdfx');
/** Ghostscript (Debian `ghostscript`), an independent PDF/X writer, where it is installed. */
const GS_DEF = spawnSync('gs', ['--version']).status === 0 ? '/usr/share/ghostscript/' + execFileSync('gs', ['--version'], { encoding: 'utf8' }).trim() + '/lib/PDFX_def.ps' : undefined;

test('a PDF/X-3:2002 file written by Ghostscript pdfwrite passes the X-3:2002 rules, and fails X-1a only on its identification', { skip: GS_DEF ? false : 'Ghostscript (gs) is not installed' }, async () => {
  const dir = await tempFolder();
  // Ghostscript's own PDF/X definition file, with the CMYK output profile the fixtures use.
  writeFileSync(path.join(dir, 'pdfx_def.ps'), readFileSync(GS_DEF!, 'latin1').replace(/\/ICCProfile \([^)]*\) def/, `/ICCProfile (${CMYK_PROFILE}) def`), 'latin1');
  writeFileSync(path.join(dir, 'in.pdf'), makePdf({ pages: 2, title: 'Ghostscript PDF/X' }));
  execFileSync('gs', ['-q', '-dSAFER', `--permit-file-read=${path.dirname(CMYK_PROFILE)}/`, '-dPDFX', '-dBATCH', '-dNOPAUSE', '-sDEVICE=pdfwrite', '-sColorConversionStrategy=CMYK', `-sOutputFile=${path.join(dir, 'out.pdf')}`, path.join(dir, 'pdfx_def.ps'), path.join(dir, 'in.pdf')]);
  const pdf = readFileSync(path.join(dir, 'out.pdf'));
  const x3 = await preflight(pdf, 'pdfx32002');
  assert.deepEqual(x3.rules, [], summary(x3));
  assert.equal(x3.compliant, true);
  const x1a = await preflight(pdf, 'pdfx1a2001');
  assert.deepEqual(x1a.rules.map((r: any) => r.testNumber), [19, 20], summary(x1a));
});

describe('one variant per rule', () => {
  for (const variant of VARIANTS) {
    for (const profile of variant.profiles) {
      const expect = variant.fails === 0 ? 'stays compliant' : `fails rule ${variant.fails} only`;
      test(`${profile} ${variant.name}: ${expect}`, async () => {
        const pdf = pdfxFixture(profile, variant.name);
        const report = await preflight(pdf, profile, variant.password);
        if (variant.fails === 0) {
          assert.deepEqual(report.rules, [], summary(report));
          assert.equal(report.compliant, true);
          return;
        }
        assert.equal(report.compliant, false);
        assert.deepEqual(report.rules.map((r: any) => r.testNumber), [variant.fails], summary(report));
        const rule = report.rules[0];
        assert.ok(rule.failedChecks >= 1);
        assert.equal(report.failedChecks, rule.failedChecks);
        assert.ok(rule.locations.length >= 1 && rule.locations.length <= 10);
        assert.ok(rule.clause.length > 0);
        assert.match(rule.specification, /^ISO 15930-\d:20\d\d$/);
        if (variant.page !== undefined) assert.equal(rule.locations[0].pageIndex, variant.page, JSON.stringify(rule.locations));
      });
    }
  }
});

describe('documents that are not PDF/X, and damaged ones', () => {
  test('a plain document fails the identification and output intent rules, and its non-embedded Helvetica', async () => {
    const report = await preflight(makePdf({ pages: 2 }), 'pdfx1a2001');
    const failed = report.rules.map((r: any) => r.testNumber);
    for (const n of [1, 3, 5, 7, 16, 19, 20, 22, 23, 24]) assert.ok(failed.includes(n), `rule ${n} in ${failed}`);
    const fonts = report.rules.find((r: any) => r.testNumber === 16)!;
    assert.equal(fonts.failedChecks, 1, 'the one shared font object is reported once');
    const boxes = report.rules.find((r: any) => r.testNumber === 5)!;
    assert.deepEqual(boxes.locations.map((l: any) => l.pageIndex), [0, 1]);
  });

  test('locations stop at ten while the count goes on', async () => {
    const report = await preflight(makePdf({ pages: 25 }), 'pdfx4');
    const boxes = report.rules.find((r: any) => r.testNumber === 5)!;
    assert.equal(boxes.failedChecks, 25);
    assert.equal(boxes.locations.length, 10);
  });

  test('an encrypted document needs its password; an unknown profile is refused', async () => {
    const pdf = pdfxFixture('pdfx1a2001', 'encrypted');
    const bare = (await ask(pdf, 'pdfx1a2001')).reply;
    assert.equal(bare.status, 403, bare.text);
    assert.equal(bare.json().code, 'DOCUMENT_PASSWORD_REQUIRED');
    const wrong = (await ask(pdf, 'pdfx1a2001', { 'X-Service-DocumentPassword': 'wrong' })).reply;
    assert.equal(wrong.status, 403, wrong.text);
    assert.equal(wrong.json().code, 'DOCUMENT_PASSWORD_INVALID');
    const unknown = (await ask(pdfxFixture('pdfx4'), 'pdfx5')).reply;
    assert.equal(unknown.status, 400, unknown.text);
    for (const profile of PDFX_PROFILES) assert.ok(unknown.json().detail.includes(profile), `${profile} is listed: ${unknown.json().detail}`);
  });

  test('damaged documents give a report or MALFORMED_PDF, and the worker keeps working', async () => {
    const good = pdfxFixture('pdfx1a2003');
    const text = good.toString('latin1');
    const damaged = [
      good.subarray(0, Math.floor(good.length / 2)),
      Buffer.from(text.replace(/stream\n/g, 'stream\nXX'), 'latin1'),
      Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n'),
      // A second "1 0 obj": MuPDF's repair (met midway) replaces the catalog, and the page tree is lost.
      Buffer.from(text.replace(/endobj\n8 0 obj/, 'endobj\n1 0 obj'), 'latin1'),
      // A form whose dictionary cannot be parsed: what the page draws with it cannot be checked.
      Buffer.from(text.replace('/Type /XObject /Subtype /Form /BBox [0 0 50 50]', '/Type /XObject /Subtype /Form /BBox [0 0 50 50]] >>'), 'latin1'),
    ];
    for (const pdf of damaged) {
      const document = `pdfx/${++uploads}.pdf`;
      const put = await putPdf(server, document, pdf);
      if (put.status === 422) {
        // Refused at upload: the service stores no file it cannot open.
        assert.equal(put.json().code, 'MALFORMED_PDF');
        continue;
      }
      assert.equal(put.status, 201, put.text);
      const reply = await call(server, 'GET', `/documents/${document}/preflight-results?profile=pdfx1a2003`);
      if (reply.status === 422) {
        assert.equal(reply.json().code, 'MALFORMED_PDF');
        continue;
      }
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.json().compliant, false, summary(reply.json()));
    }
    const report = await preflight(good, 'pdfx1a2003');
    assert.equal(report.compliant, true);
  });
});

describe('the HTTP model', () => {
  test('XML: <PreflightResult> with the failed rules, their counts and locations, the same as the JSON', async () => {
    const pdf = pdfxFixture('pdfx1a2001', 'rgb-fill');
    const { reply, document } = await ask(pdf, 'pdfx1a2001', { accept: 'application/xml' });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type')!, /^application\/xml/);
    const xml = new XMLParser({ parseTagValue: false }).parse(reply.text);
    const result = xml.PreflightResult;
    assert.ok(result, reply.text);
    assert.equal(result.document, `/${document}`);
    assert.equal(result.profile, 'pdfx1a2001');
    assert.equal(result.compliant, 'false');
    assert.equal(result.validator.name, 'pdfservice PDF/X rules');
    const rule = [result.rules.rule].flat()[0];
    assert.equal(rule.testNumber, '11');
    assert.equal(rule.specification, 'ISO 15930-1:2001');
    assert.equal(rule.failedChecks, '1');
    const location = [rule.locations.location].flat()[0];
    assert.equal(location.pageIndex, '0');
    assert.match(location.context, /rg operator \(DeviceRGB\)/);
    const json = (await call(server, 'GET', `/documents/${document}/preflight-results?profile=pdfx1a2001`)).json();
    assert.equal(json.rules[0].locations[0].context, location.context);
    assert.equal(json.passedChecks, Number(result.passedChecks));
  });

  test('a new version of the document is checked again; the same version answers the same result', async () => {
    const document = `pdfx/${++uploads}.pdf`;
    assert.equal((await putPdf(server, document, pdfxFixture('pdfx32003', 'no-title'))).status, 201);
    const url = `/documents/${document}/preflight-results?profile=pdfx32003`;
    const first = (await call(server, 'GET', url)).json();
    assert.deepEqual(first.rules.map((r: any) => r.testNumber), [22]);
    assert.deepEqual((await call(server, 'GET', url)).json(), first);
    const put = await putPdf(server, document, pdfxFixture('pdfx32003'));
    assert.ok(put.status === 200 || put.status === 201, put.text);
    const second = (await call(server, 'GET', url)).json();
    assert.equal(second.compliant, true, summary(second));
    assert.notEqual(second.etag, first.etag);
  });
});
