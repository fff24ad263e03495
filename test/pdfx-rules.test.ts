/**
 * PDF/X rules (src/engine/preflight/pdfx.ts) through the engine pool: every
 * profile's compliant fixture passes, and every variant fails exactly the
 * rule it breaks (or, for the allowed alternatives, stays compliant).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EnginePool } from '../src/engine/pool.js';
import { ServiceError } from '../src/errors.js';
import { makePdf, qpdfCheck } from './helpers/pdf.js';
import { CMYK_PROFILE, PDFX_PROFILES, pdfxFixture, VARIANTS } from './helpers/pdfx-fixtures.js';
import { tempFolders } from './helpers/temp.js';

const pool = new EnginePool({ size: 1, taskTimeoutMs: 120_000, maxMemoryBytes: 2 ** 31, queueLimit: 100 });
before(() => pool.ready());
after(() => pool.close());

const summary = (report: any) => report.rules.map((r: any) => `${r.testNumber} ${r.description}: ${JSON.stringify(r.locations.slice(0, 2))}`).join('\n');

describe('compliant fixtures', () => {
  for (const profile of PDFX_PROFILES) {
    test(`${profile}: the compliant document passes every rule`, async () => {
      const report = await pool.run('preflightPdfx', { pdf: pdfxFixture(profile), profile });
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
    const x3 = await pool.run('preflightPdfx', { pdf: pdfxFixture('pdfx32003'), profile: 'pdfx1a2003' });
    assert.deepEqual(x3.rules.map((r: any) => r.testNumber), [11, 19, 20], summary(x3));
    const colour = x3.rules[0];
    assert.equal(colour.specification, 'ISO 15930-4:2003');
    assert.equal(colour.locations[0].pageIndex, 0);
    assert.match(colour.locations[0].context, /ICCBased/);
    const x4 = await pool.run('preflightPdfx', { pdf: pdfxFixture('pdfx4'), profile: 'pdfx32003' });
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
  const x3 = await pool.run('preflightPdfx', { pdf, profile: 'pdfx32002' });
  assert.deepEqual(x3.rules, [], summary(x3));
  assert.equal(x3.compliant, true);
  const x1a = await pool.run('preflightPdfx', { pdf, profile: 'pdfx1a2001' });
  assert.deepEqual(x1a.rules.map((r: any) => r.testNumber), [19, 20], summary(x1a));
});

describe('one variant per rule', () => {
  for (const variant of VARIANTS) {
    for (const profile of variant.profiles) {
      const expect = variant.fails === 0 ? 'stays compliant' : `fails rule ${variant.fails} only`;
      test(`${profile} ${variant.name}: ${expect}`, async () => {
        const pdf = pdfxFixture(profile, variant.name);
        const report = await pool.run('preflightPdfx', { pdf, profile, ...(variant.password ? { password: variant.password } : {}) });
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
    const report = await pool.run('preflightPdfx', { pdf: makePdf({ pages: 2 }), profile: 'pdfx1a2001' });
    const failed = report.rules.map((r: any) => r.testNumber);
    for (const n of [1, 3, 5, 7, 16, 19, 20, 22, 23, 24]) assert.ok(failed.includes(n), `rule ${n} in ${failed}`);
    const fonts = report.rules.find((r: any) => r.testNumber === 16)!;
    assert.equal(fonts.failedChecks, 1, 'the one shared font object is reported once');
    const boxes = report.rules.find((r: any) => r.testNumber === 5)!;
    assert.deepEqual(boxes.locations.map((l: any) => l.pageIndex), [0, 1]);
  });

  test('locations stop at ten while the count goes on', async () => {
    const report = await pool.run('preflightPdfx', { pdf: makePdf({ pages: 25 }), profile: 'pdfx4' });
    const boxes = report.rules.find((r: any) => r.testNumber === 5)!;
    assert.equal(boxes.failedChecks, 25);
    assert.equal(boxes.locations.length, 10);
  });

  test('an encrypted document needs its password; an unknown profile is refused', async () => {
    const pdf = pdfxFixture('pdfx1a2001', 'encrypted');
    await assert.rejects(pool.run('preflightPdfx', { pdf, profile: 'pdfx1a2001' }), (e: unknown) => e instanceof ServiceError && e.code === 'DOCUMENT_PASSWORD_REQUIRED');
    await assert.rejects(pool.run('preflightPdfx', { pdf: pdfxFixture('pdfx4'), profile: 'pdfx5' }), (e: unknown) => e instanceof ServiceError && e.status === 400);
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
      try {
        const report = await pool.run('preflightPdfx', { pdf, profile: 'pdfx1a2003' });
        assert.equal(report.compliant, false);
      } catch (e) {
        assert.ok(e instanceof ServiceError && e.code === 'MALFORMED_PDF', String(e));
      }
    }
    const report = await pool.run('preflightPdfx', { pdf: good, profile: 'pdfx1a2003' });
    assert.equal(report.compliant, true);
  });
});
