/** Factur-X invoices for the tests of FacturXAction: a minimal CII invoice, and what the specification asks of the output. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { qpdfCheck, withTempFile } from './pdf.js';
import { QpdfDocument } from './qpdf-json.js';

/** A minimal CII invoice of the given guideline (the structure Factur-X 1.0's examples have; content trimmed). */
export function invoice(guideline: string, root = 'rsm:CrossIndustryInvoice'): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext>
    <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${guideline}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
  </rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument><ram:ID>INV-2026-0042</ram:ID><ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">20261130</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction/>
</${root}>
`, 'utf8');
}
export const EN16931 = 'urn:cen.eu:en16931:2017';
export const MINIMUM = 'urn:factur-x.eu:1p0:minimum';

function detach(pdf: Buffer): { names: string[]; first: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'fx-'));
  try {
    return withTempFile(pdf, (f) => {
      const names = execFileSync('pdfdetach', ['-list', f], { encoding: 'utf8' }).split('\n').slice(1).filter(Boolean).map((l: string) => l.replace(/^\d+: /, ''));
      execFileSync('pdfdetach', ['-save', '1', '-o', path.join(dir, 'x.xml'), f]);
      return { names, first: readFileSync(path.join(dir, 'x.xml')) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the Factur-X specification asks of the output, read by qpdf and poppler. */
export function checkFacturx(pdf: Buffer, xml: Buffer, relationship: string, level: string): void {
  assert.ok(qpdfCheck(pdf).ok, qpdfCheck(pdf).output);
  const { names, first } = detach(pdf);
  assert.deepEqual(names, ['factur-x.xml']);
  assert.ok(first.equals(xml), 'pdfdetach gives the XML byte for byte');
  const doc = new QpdfDocument(pdf);
  const catalog = doc.catalog();
  const tree = doc.resolve((doc.resolve(catalog['/Names']) as Record<string, unknown>)['/EmbeddedFiles']) as Record<string, unknown>;
  const pairs = doc.resolve(tree['/Names']) as unknown[];
  assert.equal(pairs[0], 'u:factur-x.xml');
  const spec = doc.resolve(pairs[1]) as Record<string, unknown>;
  assert.equal(spec['/AFRelationship'], `/${relationship}`);
  assert.equal(spec['/UF'], 'u:factur-x.xml');
  assert.equal(spec['/F'], 'u:factur-x.xml');
  const ef = doc.resolve(spec['/EF']) as Record<string, unknown>;
  assert.equal((doc.resolve(ef['/F']) as Record<string, unknown>)['/Subtype'], '/text/xml');
  assert.deepEqual((doc.resolve(catalog['/AF']) as unknown[]).map(String), [String(pairs[1])], '/AF lists the invoice');
  const meta = withTempFile(pdf, (f) => execFileSync('pdfinfo', ['-meta', f], { encoding: 'utf8' }));
  assert.match(meta, /<fx:DocumentType>INVOICE<\/fx:DocumentType>/);
  assert.match(meta, /<fx:DocumentFileName>factur-x\.xml<\/fx:DocumentFileName>/);
  assert.match(meta, /<fx:Version>1\.0<\/fx:Version>/);
  assert.ok(meta.includes(`<fx:ConformanceLevel>${level}</fx:ConformanceLevel>`), meta);
  assert.match(meta, /<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#<\/pdfaSchema:namespaceURI>/);
  assert.match(meta, /<pdfaid:part>3<\/pdfaid:part>|pdfaid:part="3"/, "still PDF/A-3 (element form: ours; attribute form: Ghostscript's)");
}
