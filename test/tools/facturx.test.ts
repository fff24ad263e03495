/**
 * FacturXAction (docs/attachments.md): a document made a Factur-X / ZUGFeRD invoice, judged outside the action:
 * veraPDF through the preflight route (PDF/A-3b), pdfdetach (the XML byte for byte), qpdf --json (the tree, /AF, the
 * relationship and media type), pdfinfo -meta (the fx XMP and its extension schema), qpdf --check. Refusals leave the
 * stored document as it was.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { checkFacturx, EN16931, invoice, MINIMUM } from '../helpers/facturx-fixtures.js';
import { call, expectUnchanged, putPdf, storedBytes, type Reply } from '../helpers/http.js';
import { makePdf, serializePdf, withTempFile } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();
const WAIT = { prefer: 'wait=180' };

function facturx(doc: string, params: Record<string, unknown>, xml: Buffer | undefined, headers: Record<string, string> = WAIT): Promise<Reply> {
  const data = new FormData();
  data.append('pageAction', JSON.stringify({ FacturXAction: params }));
  if (xml) data.append('file', new Blob([xml as BlobPart], { type: 'text/xml' }), 'factur-x.xml');
  return call(server, 'POST', `/documents/${doc}`, { body: data, headers });
}

async function preflight(doc: string): Promise<{ compliant: boolean; rules: unknown[] }> {
  const reply = await call(server, 'GET', `/documents/${doc}/preflight-results?profile=pdfa3b`);
  assert.equal(reply.status, 200, reply.text);
  return reply.json();
}

/** One page in Verdana, not embedded: no substitute of the service's, so the conversion takes Ghostscript's path. */
function verdanaPdf(): Buffer {
  const content = 'BT /F1 14 Tf 72 700 Td (Invoice INV-2026-0042, total 12.50 EUR) Tj ET';
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /TrueType /BaseFont /Verdana /Encoding /WinAnsiEncoding >>',
  ], '/Root 1 0 R');
}

describe('FacturXAction', () => {
  test('EN 16931 (profile given): PDF/A-3b by the MuPDF path, the XML attached as Alternative, the fx XMP; veraPDF passes it', async () => {
    const xml = invoice(EN16931);
    assert.equal((await putPdf(server, 'fx/invoice.pdf', makePdf({ pages: 2, text: (i) => `Invoice page ${i + 1}` }))).status, 201);
    const reply = await facturx('fx/invoice.pdf', { profile: 'en16931', savePath: 'fx/invoice-fx.pdf' }, xml);
    assert.equal(reply.status, 201, reply.text);
    const { report } = reply.json();
    assert.equal(report.compliant, true, JSON.stringify(report.rules));
    assert.equal(report.profile, 'pdfa3b');
    assert.deepEqual(report.facturx, { profile: 'en16931', conformanceLevel: 'EN 16931', relationship: 'Alternative', fileName: 'factur-x.xml', version: '1.0', guideline: EN16931 });
    const out = await storedBytes(server, 'fx/invoice-fx.pdf');
    checkFacturx(out, xml, 'Alternative', 'EN 16931');
    const verdict = await preflight('fx/invoice-fx.pdf');
    assert.equal(verdict.compliant, true, JSON.stringify(verdict.rules));
    // Done again on its own output (the invoice replaced): still one factur-x.xml, one extension schema, still PDF/A-3b.
    const again = await facturx('fx/invoice-fx.pdf', {}, xml);
    assert.equal(again.status, 200, again.text);
    const twice = await storedBytes(server, 'fx/invoice-fx.pdf');
    checkFacturx(twice, xml, 'Alternative', 'EN 16931');
    assert.equal(withTempFile(twice, (f) => execFileSync('pdfinfo', ['-meta', f], { encoding: 'utf8' })).split('<fx:DocumentType>').length, 2, 'one fx description');
    assert.equal((await preflight('fx/invoice-fx.pdf')).compliant, true);
    // Another attachment added through .../attachments keeps it PDF/A-3b (AFRelationship, /AF, the file's keys).
    const added = await call(server, 'PUT', '/documents/fx/invoice-fx.pdf/attachments/hours.csv?mediaType=text/csv&relationship=Supplement', {
      body: Buffer.from('hour;task\n1;analysis\n'), headers: { 'content-type': 'application/octet-stream' },
    });
    assert.equal(added.status, 201, added.text);
    const verdictAfter = await preflight('fx/invoice-fx.pdf');
    assert.equal(verdictAfter.compliant, true, JSON.stringify(verdictAfter.rules));
  });

  test('MINIMUM read from the XML, on the Ghostscript path: attached as Data; veraPDF passes it', async () => {
    const xml = invoice(MINIMUM);
    assert.equal((await putPdf(server, 'fx/verdana.pdf', verdanaPdf())).status, 201);
    const reply = await facturx('fx/verdana.pdf', {}, xml);
    assert.equal(reply.status, 200, reply.text);
    const { report } = reply.json();
    assert.equal(report.pipeline, 'ghostscript', JSON.stringify(report.attempts));
    assert.equal(report.facturx.profile, 'minimum');
    checkFacturx(await storedBytes(server, 'fx/verdana.pdf'), xml, 'Data', 'MINIMUM');
    assert.equal((await preflight('fx/verdana.pdf')).compliant, true);
  });

  test('refusals: XML that is no CII invoice, a profile the XML contradicts, no XML part, an unknown guideline without a profile; nothing written', async () => {
    const doc = 'fx/refused.pdf';
    assert.equal((await putPdf(server, doc, makePdf({ pages: 1 }))).status, 201);
    const cases: [string, () => Promise<Reply>, number, string][] = [
      ['not XML', () => facturx(doc, {}, Buffer.from('%PDF-1.7 not xml')), 422, 'INVOICE_XML_INVALID'],
      ['another root', () => facturx(doc, { profile: 'basic' }, invoice(EN16931, 'rsm:Invoice')), 422, 'INVOICE_XML_INVALID'],
      ['a DTD', () => facturx(doc, {}, Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><x/>')), 422, 'INVOICE_XML_INVALID'],
      ['a profile the guideline contradicts', () => facturx(doc, { profile: 'extended' }, invoice(MINIMUM)), 422, 'INVOICE_XML_INVALID'],
      ['an unknown guideline and no profile', () => facturx(doc, {}, invoice('urn:example:other')), 422, 'INVOICE_XML_INVALID'],
      ['no XML part', () => facturx(doc, {}, undefined), 400, 'MALFORMED_MULTIPART'],
      ['an unknown profile', () => facturx(doc, { profile: 'comfort' }, invoice(EN16931)), 400, 'VALIDATION_FAILED'],
      ['a relationship Factur-X does not allow', () => facturx(doc, { relationship: 'Supplement' }, invoice(EN16931)), 400, 'VALIDATION_FAILED'],
    ];
    for (const [what, request, status, code] of cases) {
      await test(what, () => expectUnchanged(server, doc, request, status, code).then(() => undefined));
    }
  });
});
