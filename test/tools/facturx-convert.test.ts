/**
 * FacturXAction as a step of a one-shot conversion (POST /convert, docs/api.md "One-shot conversions"): the input in
 * part `file`, the invoice XML in part `invoice`; the answer judged as FacturXAction's own tests judge a stored one
 * (test/helpers/facturx-fixtures.ts), and by veraPDF through the preflight route once stored. Nothing is stored by
 * the conversion itself.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkFacturx, EN16931, invoice, MINIMUM } from '../helpers/facturx-fixtures.js';
import { call, putPdf } from '../helpers/http.js';
import { makePdf } from '../helpers/pdf.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

function convert(input: { bytes: Buffer; type: string; name: string }, steps: unknown[], xml: Buffer | undefined) {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(input.bytes)], { type: input.type }), input.name);
  if (xml) body.append('invoice', new Blob([new Uint8Array(xml)], { type: 'text/xml' }), 'factur-x.xml');
  body.append('steps', JSON.stringify(steps));
  return call(server, 'POST', '/convert', { body, headers: { prefer: 'wait=180' } });
}

async function veraPdf(pdf: Buffer, doc: string): Promise<{ compliant: boolean; rules: unknown[] }> {
  assert.equal((await putPdf(server, doc, pdf)).status, 201);
  const reply = await call(server, 'GET', `/documents/${doc}/preflight-results?profile=pdfa3b`);
  assert.equal(reply.status, 200, reply.text);
  return reply.json();
}

describe('FacturXAction as a step of POST /convert', () => {
  test('a PDF numbered, then made a Factur-X EN 16931 invoice, in one request: the XML attached, the fx XMP, veraPDF passes it as PDF/A-3b', async () => {
    const xml = invoice(EN16931);
    const reply = await convert({ bytes: makePdf({ pages: 2, text: (i) => `Invoice page ${i + 1}` }), type: 'application/pdf', name: 'invoice.pdf' }, [{ PageNumbersAction: { format: 'p. {n}' } }, { FacturXAction: {} }], xml);
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type') ?? '', /application\/pdf/);
    checkFacturx(reply.bytes, xml, 'Alternative', 'EN 16931');
    const verdict = await veraPdf(reply.bytes, 'fxconvert/en16931.pdf');
    assert.equal(verdict.compliant, true, JSON.stringify(verdict.rules));
  });

  test('from a text file (the Office conversion first), MINIMUM read from the XML: attached as Data; veraPDF passes it', async () => {
    const xml = invoice(MINIMUM);
    const text = Buffer.from('Invoice INV-2026-0042\n\nConsulting, 10 hours: 1,200.00 EUR\n');
    const reply = await convert({ bytes: text, type: 'text/plain', name: 'invoice.txt' }, [{ FacturXAction: {} }], xml);
    assert.equal(reply.status, 200, reply.text);
    checkFacturx(reply.bytes, xml, 'Data', 'MINIMUM');
    const verdict = await veraPdf(reply.bytes, 'fxconvert/minimum.pdf');
    assert.equal(verdict.compliant, true, JSON.stringify(verdict.rules));
  });

  test('no invoice part: 400 MALFORMED_MULTIPART before any conversion; an XML that is no invoice: 422 INVOICE_XML_INVALID', async () => {
    const pdf = { bytes: makePdf({ pages: 1 }), type: 'application/pdf', name: 'in.pdf' };
    const missing = await convert(pdf, [{ FacturXAction: {} }], undefined);
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.json().code, 'MALFORMED_MULTIPART');
    const notInvoice = await convert(pdf, [{ FacturXAction: {} }], invoice(EN16931, 'rsm:SomethingElse'));
    assert.equal(notInvoice.status, 422, notInvoice.text);
    assert.equal(notInvoice.json().code, 'INVOICE_XML_INVALID');
    // A step takes no savePath (nothing is stored).
    const saved = await convert(pdf, [{ FacturXAction: { savePath: 'fxconvert/x.pdf' } }], invoice(EN16931));
    assert.equal(saved.status, 400, saved.text);
    assert.equal(saved.json().code, 'INVALID_ACTION');
  });
});
