/**
 * PDFAConvertAction (issue 20) through the real service over HTTP. Every
 * output the service calls PDF/A is judged again outside the action: by
 * veraPDF through the service's own preflight route (every output), by PDFBox Preflight
 * (PDF/A-1b), qpdf --check, pdffonts (every font embedded), pdftotext (the
 * same words), pdfdetach (attachments), poppler renders (pages look the
 * same, invisible OCR text stays invisible) and the raw bytes of image
 * streams (not recompressed). Failure cases leave the stored bytes unchanged.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cffFont } from '../helpers/cff-font.js';
import { call, expectUnchanged, jobEnded, putPdf, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { differingShare, makePdf, otherWidthsHelveticaPdf, pdfboxPreflightA1b, pdftotext, qpdfCheck, renderPage, serializePdf, withTempFile } from '../helpers/pdf.js';
import { sequenceSimilarity, words } from '../helpers/poppler-text.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();
const WAIT = { prefer: 'wait=120' };
const CORPUS = process.env.PDFSERVICE_CORPUS ?? fileURLToPath(new URL('../../../../shared/corpus', import.meta.url));
const haveCorpus = existsSync(path.join(CORPUS, 'MANIFEST.tsv'));
if (!haveCorpus) console.log(`corpus not found at ${CORPUS}: the corpus cases are skipped`);

function corpusFile(relative: string): Buffer {
  return readFileSync(path.join(CORPUS, relative));
}

function convert(doc: string, params: Record<string, unknown> = {}, headers: Record<string, string> = WAIT): Promise<Reply> {
  return call(server, 'POST', `/documents/${doc}`, { body: { PDFAConvertAction: params }, headers });
}

/** Converts and answers the stored output and the action's report, asserting the action said compliant. */
async function convertOk(doc: string, params: Record<string, unknown>, headers: Record<string, string> = WAIT): Promise<{ out: Buffer; report: any }> {
  const reply = await convert(doc, params, headers);
  assert.equal(reply.status, params.savePath ? 201 : 200, reply.text);
  const report = reply.json().report;
  assert.equal(report.compliant, true, JSON.stringify(report.rules));
  console.log(`${doc} -> ${params.profile ?? 'pdfa2b'}: ${report.pipeline} ${JSON.stringify(report.attempts)}`);
  const target = (params.savePath as string | undefined) ?? doc;
  // Round trip: the service's own preflight route (veraPDF, outside the action) says the stored output is compliant.
  const checked = await preflight(target, (params.profile as string | undefined) ?? 'pdfa2b');
  assert.equal(checked.compliant, true, JSON.stringify(checked.rules));
  return { out: await storedBytes(server, target), report };
}

/** veraPDF's verdict on a stored document, through the service's preflight route. */
async function preflight(doc: string, profile: string, password?: string): Promise<any> {
  const reply = await call(server, 'GET', `/documents/${doc}/preflight-results?profile=${profile}`, password ? { headers: { 'x-service-documentpassword': password } } : {});
  assert.equal(reply.status, 200, reply.text);
  return reply.json();
}

/** What an independent reader says of the output: well formed, not encrypted, every font embedded, the part claimed in XMP. */
function checkOutput(out: Buffer, part: number): void {
  const check = qpdfCheck(out);
  assert.ok(check.ok, check.output);
  const fonts = withTempFile(out, (file) => execFileSync('pdffonts', [file], { encoding: 'utf8' }));
  for (const line of fonts.split('\n').slice(2).filter(Boolean)) assert.match(line, /\s+yes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/, `font not embedded: ${line}`);
  const encryption = withTempFile(out, (file) => execFileSync('qpdf', ['--show-encryption', file], { encoding: 'utf8' }));
  assert.match(encryption, /File is not encrypted/);
  const latin = out.toString('latin1');
  assert.match(latin, new RegExp(`pdfaid:part[>=]['"]?${part}`), 'the XMP claims the part');
  assert.match(latin, /\/ID\s*\[/, 'the trailer has an ID');
}

function sameWords(before: Buffer | string, after: Buffer, password?: string): void {
  const a = words(typeof before === 'string' ? before : pdftotext(before, password));
  const b = words(pdftotext(after));
  assert.ok(a.length > 0, 'the source has words');
  assert.deepEqual(b, a);
}

/**
 * PDFBox Preflight (Debian libpdfbox2-java), a second PDF/A-1b validator. The outputs the tests hand it are judged
 * together by the file's last test, in one JVM (`pdfboxPreflightA1b`): a JVM per output cost about 1.1 s of CPU each,
 * nearly all start-up (docs/testing.md).
 */
const pdfboxOutputs: { label: string; bytes: Buffer }[] = [];
function expectPdfboxValid(label: string, out: Buffer): void {
  pdfboxOutputs.push({ label, bytes: out });
}

/** A page whose text is drawn half transparent (an ExtGState with ca 0.5): PDF/A-1 forbids it. */
function transparentPdf(): Buffer {
  const content = '/GS1 gs 0 0 1 rg BT /F1 24 Tf 72 700 Td (Half transparent words) Tj ET';
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /ExtGState << /GS1 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /ExtGState /ca 0.5 /CA 0.5 >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ], '/Root 1 0 R');
}

/** The standard 14 fonts and common aliases (BaseFont, encoding entry or none, the words drawn), none embedded. */
const STANDARD_FONTS: [string, string, string][] = [
  ['Helvetica', '/Encoding /WinAnsiEncoding', 'Helvetica plain words'],
  ['Helvetica-Bold', '/Encoding /WinAnsiEncoding', 'Helvetica bold words'],
  ['Helvetica-Oblique', '/Encoding /WinAnsiEncoding', 'Helvetica oblique words'],
  ['Helvetica-BoldOblique', '', 'Helvetica bold oblique words'],
  ['Times-Roman', '/Encoding /WinAnsiEncoding', 'Times roman words'],
  ['Times-Bold', '/Encoding /MacRomanEncoding', 'Times bold words'],
  ['Times-Italic', '/Encoding << /Type /Encoding /Differences [39 /quotesingle] >>', "Times italic words'"],
  ['Times-BoldItalic', '/Encoding /WinAnsiEncoding', 'Times bold italic words'],
  ['Courier', '/Encoding /WinAnsiEncoding', 'Courier plain words'],
  ['Courier-Bold', '/Encoding /WinAnsiEncoding', 'Courier bold words'],
  ['Courier-Oblique', '/Encoding /WinAnsiEncoding', 'Courier oblique words'],
  ['Courier-BoldOblique', '/Encoding /WinAnsiEncoding', 'Courier bold oblique words'],
  ['Symbol', '', 'abgd'],
  ['ZapfDingbats', '', '3456'],
];
/** Aliases, drawn by a form XObject: its fonts count as the page's. */
const ALIAS_FONTS: [string, string, string][] = [
  ['Arial,Bold', '/Encoding /WinAnsiEncoding', 'Arial bold alias'],
  ['TimesNewRomanPS-ItalicMT', '/Encoding /WinAnsiEncoding', 'Times New Roman italic alias'],
  ['ABCDEF+CourierNewPSMT', '/Encoding /WinAnsiEncoding', 'Courier New alias'],
  ['Helvetica-Narrow-Bold', '/Encoding /WinAnsiEncoding', 'Helvetica narrow bold alias'],
];
/** TrueType-subtype aliases (as Word names them), drawn by the form XObject too: Liberation 2 stands in. */
const TRUETYPE_FONTS: [string, string, string][] = [
  ['Arial', '/Encoding /WinAnsiEncoding /FontDescriptor << /Type /FontDescriptor /FontName /Arial /Flags 32 /FontBBox [-665 -325 2000 1006] /ItalicAngle 0 /Ascent 905 /Descent -212 /CapHeight 716 /StemV 80 >>', 'Arial TrueType words'],
  ['TimesNewRoman,Bold', '/Encoding /WinAnsiEncoding', 'Times New Roman TrueType bold'],
  ['CourierNewPS-ItalicMT', '/Encoding /MacRomanEncoding', 'Courier New TrueType italic'],
];

/**
 * One page drawing words in each standard-14 font and alias (none embedded), and a text field whose appearance and
 * the form's /DR use Helvetica (not embedded either).
 */
function standardFontsPdf(): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const fontRef = (i: number) => `${10 + i} 0 R`;
  const all = [...STANDARD_FONTS, ...ALIAS_FONTS, ...TRUETYPE_FONTS];
  const drawnByForm = [...ALIAS_FONTS, ...TRUETYPE_FONTS];
  const line = (name: string, text: string, y: number) => `BT /${name} 12 Tf 40 ${y} Td (${text}) Tj ET`;
  const pageContent = STANDARD_FONTS.map(([, , text], i) => line(`F${i}`, text, 760 - i * 24)).join('\n') + '\nq 1 0 0 1 0 -360 cm /X1 Do Q';
  const formContent = drawnByForm.map(([, , text], i) => line(`A${i}`, text, 360 - i * 24)).join('\n');
  const appearance = '/Tx BMC BT /Helv 10 Tf 0 g 2 6 Td (Filled value) Tj ET EMC';
  add('<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /DR << /Font << /Helv 6 0 R >> >> /DA (/Helv 0 Tf 0 g) >> >>');
  add('<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ${STANDARD_FONTS.map((_, i) => `/F${i} ${fontRef(i)}`).join(' ')} >> /XObject << /X1 7 0 R >> >> /Contents 8 0 R /Annots [4 0 R] >>`);
  add('<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Filled value) /Rect [380 740 580 760] /P 3 0 R /F 4 /DA (/Helv 10 Tf 0 g) /AP << /N 5 0 R >> >>');
  add(`<< /Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources << /Font << /Helv 6 0 R >> >> /Length ${appearance.length} >>\nstream\n${appearance}\nendstream`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  add(`<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << ${drawnByForm.map((_, i) => `/A${i} ${fontRef(STANDARD_FONTS.length + i)}`).join(' ')} >> >> /Length ${formContent.length} >>\nstream\n${formContent}\nendstream`);
  add(`<< /Length ${pageContent.length} >>\nstream\n${pageContent}\nendstream`);
  add('<< >>');
  for (const [baseFont, encoding] of all) add(`<< /Type /Font /Subtype /${TRUETYPE_FONTS.some(([f]) => f === baseFont) ? 'TrueType' : 'Type1'} /BaseFont /${baseFont} ${encoding} >>`);
  return serializePdf(objects, '/Root 1 0 R');
}

/** Mean absolute difference of two renders' channels, 0 to 255 (anti-aliased edges of a glyph drawn slightly otherwise add a little). */
function meanDifference(x: ReturnType<typeof renderPage>, y: ReturnType<typeof renderPage>): number {
  assert.deepEqual([x.width, x.height], [y.width, y.height]);
  let sum = 0;
  for (let row = 0; row < x.height; row++) {
    for (let col = 0; col < x.width; col++) {
      const [a, b] = [x.rgb(col, row), y.rgb(col, row)];
      sum += Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
    }
  }
  return sum / (3 * x.width * x.height);
}

/** A 32x24 red-to-blue gradient as a JPEG 2000 file (ImageMagick 6.9, jp2): PDF/A-1 (PDF 1.4) has no JPXDecode. */
const JP2 = Buffer.from('AAAADGpQICANCocKAAAAFGZ0eXBqcDIgAAAAAGpwMiAAAAAtanAyaAAAABZpaGRyAAAAGAAAACAAAw8HAAAAAAAPY29scgEAAAAAABAAAAFPanAyY/9P/1EALwAAAAAAIAAAABgAAAAAAAAAAAAAACAAAAAYAAAAAAAAAAAAAw8BAQ8BAQ8BAf9SAAwAAAABAQQEBAAB/1wAEECAiIiQiIiQiIiQiIiQ/2QAJQABQ3JlYXRlZCBieSBPcGVuSlBFRyB2ZXJzaW9uIDIuNS4w/5AACgAAAAAAywAB/5PP/DAUCJDemEff+JBICzzOLIVhp/w7/3jASAPkCZ92oZmav4CgP5BACH+Mv6A/kEABx3jfgKH/QYLADL2zHmtttbxeO++h/0GCwA4+Xo81ttvFAgN/gKD/YAHgQI3DtCOBNA6ow3U7BG3ZoP9gAgBB5ce0I4E0DqjDdTpEs7amgKB/gbCMpCk/+8rYAwkD7UB1N2EtiMgGA1r3nQn0Rz+gf4GgjI6o/33lbAGEgfagOpuwlqP8GaABgNVkyxn/2Q==', 'base64');

/** A page drawing the JPEG 2000 image large, with a line of text (in Helvetica, not embedded) or without. */
function jpxPdf(withText = true): Buffer {
  const content = `q 320 0 0 240 72 400 cm /Im1 Do Q${withText ? ' BT /F1 18 Tf 72 700 Td (A JPEG 2000 picture) Tj ET' : ''}`;
  const head = Buffer.from(serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${withText ? '/Font << /F1 4 0 R >> ' : ''}/XObject << /Im1 6 0 R >> >> /Contents 5 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /XObject /Subtype /Image /Width 32 /Height 24 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /JPXDecode /Length ${JP2.length} >>\nstream\n${JP2.toString('latin1')}\nendstream`,
  ], '/Root 1 0 R'));
  return head;
}

/** A ToUnicode CMap for one-byte codes: code -> the character it stands for. */
function toUnicodeCMap(map: [number, string][]): string {
  const hex = (n: number, digits: number) => n.toString(16).toUpperCase().padStart(digits, '0');
  return '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def ' +
    '/CMapName /Adobe-Identity-UCS def /CMapType 2 def 1 begincodespacerange <00> <FF> endcodespacerange\n' +
    `${map.length} beginbfchar\n${map.map(([code, ch]) => `<${hex(code, 2)}> <${hex(ch.charCodeAt(0), 4)}>`).join('\n')}\nendbfchar endcmap CMapName currentdict /CMap defineresource pop end end`;
}

/**
 * Three pages whose text Ghostscript's PDF/A path changes in two ways (measured with gs 10.0 and MuPDF): page 1 a
 * sentence in Verdana, not embedded (no substitute of the service's: the Ghostscript path; its text is kept); page 2
 * one word in an embedded TrueType font (Liberation Sans, fonts-liberation2) whose encoding has a Differences array
 * and no ToUnicode map: Ghostscript re-encodes it and MuPDF then reads U+FFFD for every letter (poppler still reads
 * them); page 3 one word in an embedded CFF font whose glyphs have standard names that are not what they show, and a
 * ToUnicode map that says what they are: Ghostscript drops the map and the names read as other letters.
 */
function textLossPdf(): Buffer {
  const word = 'Archive';
  const letters = [...new Set(word)];
  const ttf = readFileSync('/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf');
  const cffNames = letters.map((ch) => String.fromCharCode(ch.charCodeAt(0) + 1)); // 'A' is drawn by a glyph named B...
  const cff = cffFont('ABCDEF+Shifted', cffNames.map((name) => ({ name, width: 600 })));
  const cffCodes = word.split('').map((ch) => (letters.indexOf(ch) + 1).toString(16).padStart(2, '0')).join('');
  const cmap = toUnicodeCMap(letters.map((ch, i) => [i + 1, ch]));
  const stream = (dict: string, data: string) => `<< /Length ${data.length} ${dict}>>\nstream\n${data}\nendstream`;
  const page = (content: number) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /V 6 0 R /L 7 0 R /C 9 0 R >> >> /Contents ${content} 0 R >>`;
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>',
    page(13), page(14), page(15),
    '<< /Type /Font /Subtype /TrueType /BaseFont /Verdana /Encoding /WinAnsiEncoding >>',
    `<< /Type /Font /Subtype /TrueType /BaseFont /LiberationSans /FirstChar 32 /LastChar 126 /Widths [${Array(95).fill(556).join(' ')}] ` +
      '/Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [39 /quotesingle] >> /FontDescriptor 8 0 R >>',
    '<< /Type /FontDescriptor /FontName /LiberationSans /Flags 32 /FontBBox [-544 -303 1302 980] /ItalicAngle 0 /Ascent 905 /Descent -212 /CapHeight 716 /StemV 80 /FontFile2 12 0 R >>',
    `<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Shifted /FirstChar 1 /LastChar ${letters.length} /Widths [${letters.map(() => 600).join(' ')}] ` +
      `/Encoding << /Type /Encoding /Differences [1 ${cffNames.map((n) => `/${n}`).join(' ')}] >> /FontDescriptor 10 0 R /ToUnicode 11 0 R >>`,
    '<< /Type /FontDescriptor /FontName /ABCDEF+Shifted /Flags 4 /FontBBox [0 -250 1000 1000] /ItalicAngle 0 /Ascent 750 /Descent -250 /CapHeight 700 /StemV 80 /FontFile3 16 0 R >>',
    stream('', cmap),
    stream(`/Length1 ${ttf.length} `, ttf.toString('latin1')),
    stream('', 'BT /V 14 Tf 72 700 Td (This page keeps every word it has) Tj ET'),
    stream('', `BT /L 24 Tf 72 700 Td (${word}) Tj ET`),
    stream('', `BT /C 24 Tf 72 700 Td <${cffCodes}> Tj ET`),
    stream('/Subtype /Type1C ', cff.toString('latin1')),
  ], '/Root 1 0 R');
}

/** One page built from its content, resources and extra objects (numbered from 5 on); Helvetica, not embedded, is /F1. */
function builtPage(content: string, pageExtra = '', extra: string[] = []): Buffer {
  return serializePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R ${pageExtra}>>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ...extra,
  ], '/Root 1 0 R');
}

describe('PDFAConvertAction', () => {
  test('standard-14 fonts and their aliases, not embedded, get URW and Liberation substitutes embedded by the MuPDF path (1b, 2b, 3b): words, looks and fields kept', async () => {
    const source = standardFontsPdf();
    await putPdf(server, 'standard14.pdf', source);
    const fieldsBefore = (await call(server, 'GET', '/documents/standard14.pdf/fields')).json().fields as { name: string }[];
    assert.equal(fieldsBefore.length, 1);
    for (const [profile, part] of [['pdfa1b', 1], ['pdfa2b', 2], ['pdfa3b', 3]] as const) {
      const target = `standard14-${profile}.pdf`;
      const { out, report } = await convertOk('standard14.pdf', { profile, savePath: target });
      assert.equal(report.pipeline, 'mupdf', JSON.stringify(report.attempts));
      checkOutput(out, part);
      sameWords(source, out);
      const changes = report.changes.join('\n');
      for (const [font, substitute] of [['Helvetica', 'NimbusSans-Regular'], ['Times-Bold', 'NimbusRoman-Bold'], ['Courier-BoldOblique', 'NimbusMonoPS-BoldItalic'], ['Symbol', 'StandardSymbolsPS'],
        ['ZapfDingbats', 'D050000L'], ['Arial,Bold', 'NimbusSans-Bold'], ['TimesNewRomanPS-ItalicMT', 'NimbusRoman-Italic'], ['CourierNewPSMT', 'NimbusMonoPS-Regular'], ['Helvetica-Narrow-Bold', 'NimbusSansNarrow-Bold'],
        ['Arial', 'LiberationSans-Regular'], ['TimesNewRoman,Bold', 'LiberationSerif-Bold'], ['CourierNewPS-ItalicMT', 'LiberationMono-Italic']]) {
        assert.ok(changes.includes(`${font} as ${substitute}`), `${font}: ${changes}`);
      }
      const fonts = withTempFile(out, (file) => execFileSync('pdffonts', [file], { encoding: 'utf8' }));
      // Each font of the page and the form XObject, and the field's Helvetica: every one listed (checkOutput: and embedded).
      assert.equal(fonts.split('\n').slice(2).filter(Boolean).length, STANDARD_FONTS.length + ALIAS_FONTS.length + TRUETYPE_FONTS.length + 1, fonts);
      const fieldsAfter = (await call(server, 'GET', `/documents/${target}/fields`)).json().fields as { name: string }[];
      assert.deepEqual(fieldsAfter.map((f) => f.name), fieldsBefore.map((f) => f.name), 'the field is still a field');
      const difference = meanDifference(renderPage(source, 1, 40), renderPage(out, 1, 40));
      console.log(`${profile}: mean pixel difference ${difference.toFixed(3)} of 255`);
      assert.ok(difference < 0.05, `the page looks the same (mean difference ${difference.toFixed(3)})`);
      if (profile === 'pdfa1b') {
        expectPdfboxValid('standard-14 fonts, pdfa1b', out);
      }
    }
  });

  test('a standard-14 font whose Widths are other metrics is not substituted: Ghostscript embeds it, as before', async () => {
    // Helvetica laid out with Courier's 600 units a character: Nimbus Sans' glyphs would not fit those widths (6.2.11.5).
    const source = otherWidthsHelveticaPdf();
    await putPdf(server, 'other-widths.pdf', source);
    const { out, report } = await convertOk('other-widths.pdf', { profile: 'pdfa2b' });
    assert.equal(report.pipeline, 'ghostscript');
    assert.deepEqual(report.attempts, ['mupdf: skipped, 1 font(s) not embedded']);
    assert.doesNotMatch(report.changes.join('\n'), /fonts embedded/);
    checkOutput(out, 2);
    // The same characters (poppler splits words of text this widely spaced wherever a gap falls).
    assert.equal(pdftotext(out).replace(/\s+/g, ''), pdftotext(source).replace(/\s+/g, ''));
  });

  test('corpus files whose standard-14 fonts are now substituted take the MuPDF path to 1b, and PDFBox Preflight passes them too', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    // A page without resources, a PDF 2.0 header, an outline entry whose page an update removed: Ghostscript's rewrite
    // used to repair those, the MuPDF path keeps the document as it is, so the preparation and finish must.
    for (const file of ['pdfbox/forms/AcroFormsRotation.pdf', 'pdf-lib/pdfx-ish/PDF_2.0_with_page_level_output_intent.pdf', 'pdf-lib/incremental/with_update_sections.pdf']) {
      const doc = `kept-${path.basename(file)}`;
      await putPdf(server, doc, corpusFile(file));
      const { out, report } = await convertOk(doc, { profile: 'pdfa1b' });
      assert.equal(report.pipeline, 'mupdf', `${file}: ${JSON.stringify(report.attempts)}`);
      assert.match(report.changes.join('\n'), /fonts embedded: Helvetica as NimbusSans-Regular/);
      checkOutput(out, 1);
      assert.equal(out.subarray(0, 7).toString('latin1'), '%PDF-1.');
      expectPdfboxValid(`${file}, pdfa1b (MuPDF path)`, out);
    }
  });

  test('a document with a font it does not embed becomes PDF/A-1b, -2b and -3b with its words and looks', async () => {
    const source = makePdf({ pages: 2, text: (i) => `Archive page ${i + 1} with Helvetica named, not embedded`, title: 'Archived report' });
    for (const [profile, part] of [['pdfa1b', 1], ['pdfa2b', 2], ['pdfa3b', 3]] as const) {
      const doc = `fonts-${profile}.pdf`;
      await putPdf(server, doc, source);
      // Round trip: the input is not PDF/A, and preflight says why.
      const before = await preflight(doc, profile);
      assert.equal(before.compliant, false);
      assert.ok(before.rules.length > 0);
      const { out, report } = await convertOk(doc, { profile });
      assert.equal(report.profile, profile);
      assert.equal(report.validator.name.toLowerCase().includes('verapdf'), true);
      checkOutput(out, part);
      sameWords(source, out);
      assert.ok(differingShare(renderPage(source, 1, 50), renderPage(out, 1, 50)) < 0.005, 'the page looks the same');
      const title = withTempFile(out, (file) => execFileSync('pdfinfo', [file], { encoding: 'utf8' }));
      assert.match(title, /Title:\s+Archived report/);
      assert.match(out.toString('latin1'), /<dc:title>[\s\S]*Archived report/);
    }
  });

  test('level U: pdfa2u and pdfa3u outputs claim U and veraPDF passes them as U', async () => {
    const source = makePdf({ pages: 1, text: () => 'Unicode mapped words', title: 'Level U' });
    for (const [profile, part] of [['pdfa2u', 2], ['pdfa3u', 3]] as const) {
      await putPdf(server, `${profile}.pdf`, source);
      const { out, report } = await convertOk(`${profile}.pdf`, { profile });
      assert.equal(report.profile, profile);
      checkOutput(out, part);
      assert.match(out.toString('latin1'), /pdfaid:conformance[>=]['"]?U/);
      sameWords(source, out);
    }
  });

  test('PDF/A-1b output passes PDFBox Preflight too, and the preflight route agrees with the action', async () => {
    await putPdf(server, 'pdfbox-1b.pdf', makePdf({ pages: 1, text: () => 'Checked twice', title: 'Twice' }));
    const { out } = await convertOk('pdfbox-1b.pdf', { profile: 'pdfa1b' });
    expectPdfboxValid('pdfbox-1b.pdf', out);
    // And a 1b output of the MuPDF path (every font embedded: the document kept as it is).
    if (haveCorpus) {
      await putPdf(server, 'pdfbox-1b-kept.pdf', corpusFile('pdfjs/attachments/attachment.pdf'));
      const { out: kept, report } = await convertOk('pdfbox-1b-kept.pdf', { profile: 'pdfa1b' });
      expectPdfboxValid(`attachment.pdf, pdfa1b (${report.pipeline} path)`, kept);
    }
  });

  test('transparency: refused for PDF/A-1b with transparency 1 (nothing written), made opaque by default, kept in PDF/A-2b', async () => {
    const source = transparentPdf();
    await putPdf(server, 'transparent.pdf', source);
    const reply = await expectUnchanged(server, 'transparent.pdf', () => convert('transparent.pdf', { profile: 'pdfa1b', transparency: 1 }), 422, 'PDFA_CONVERSION_FAILED');
    const rules = reply.json().report.rules as { clause: string; locations: { pageIndex?: number }[] }[];
    assert.equal(rules[0]!.clause, '6.4');
    assert.equal(rules[0]!.locations[0]!.pageIndex, 0);
    const { out } = await convertOk('transparent.pdf', { profile: 'pdfa1b', savePath: 'transparent-1b.pdf' });
    checkOutput(out, 1);
    sameWords(source, out);
    assert.doesNotMatch(out.toString('latin1'), /\/ca\s+0?\.5/, 'no constant alpha left');
    const { out: out2 } = await convertOk('transparent.pdf', { profile: 'pdfa2b', savePath: 'transparent-2b.pdf' });
    checkOutput(out2, 2);
    assert.ok(differingShare(renderPage(source, 1, 50), renderPage(out2, 1, 50)) < 0.005, 'PDF/A-2b keeps the page as it looked');
  });

  test('an encrypted document converts with its owner password (output unencrypted); its user password is not enough', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    const source = corpusFile('pdfbox/encryption/PasswordSample-128bit.pdf');
    await putPdf(server, 'encrypted.pdf', source);
    const denied = await expectUnchanged(server, 'encrypted.pdf', () => convert('encrypted.pdf', { profile: 'pdfa2b' }, { ...WAIT, 'x-service-documentpassword': 'user' }), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.match(denied.json().detail, /owner/);
    const { out } = await convertOk('encrypted.pdf', { profile: 'pdfa2b' }, { ...WAIT, 'x-service-documentpassword': 'owner' });
    checkOutput(out, 2);
    sameWords(pdftotext(source, 'user'), out);
  });

  test('forms become PDF/A-2b: fields kept where the document is kept as it is, else flattened with their words', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    for (const file of ['pdf-lib/forms/fancy_fields.pdf', 'pdfjs/forms/form_two_pages.pdf']) {
      const source = corpusFile(file);
      const doc = `form-${path.basename(file)}`;
      await putPdf(server, doc, source);
      const fieldsBefore = (await call(server, 'GET', `/documents/${doc}/fields`)).json().fields as unknown[];
      assert.ok(fieldsBefore.length > 0);
      const { out, report } = await convertOk(doc, { profile: 'pdfa2b' });
      checkOutput(out, 2);
      const fieldsAfter = (await call(server, 'GET', `/documents/${doc}/fields`)).json().fields as unknown[];
      if (report.pipeline === 'mupdf') {
        assert.equal(fieldsAfter.length, fieldsBefore.length, `${file}: the fields stay fields`);
        sameWords(source, out);
      } else {
        // Ghostscript draws the fields' appearances into the page (docs/pdfa.md, limits): their words stay, as page text.
        assert.equal(fieldsAfter.length, 0);
        const after = new Set(words(pdftotext(out)));
        // Words of letters and digits: a check box's ZapfDingbats mark is drawn, not text.
        for (const word of words(pdftotext(source)).filter((w) => /[\p{L}\p{N}]/u.test(w))) assert.ok(after.has(word), `${file}: "${word}" is still in the text`);
      }
    }
  });

  test('a JPEG 2000 image: re-encoded losslessly (Flate, same pixels) for PDF/A-1b, which PDFBox Preflight then accepts; kept as it is in PDF/A-2b', async () => {
    const source = jpxPdf();
    await putPdf(server, 'jpx.pdf', source);
    const { out, report } = await convertOk('jpx.pdf', { profile: 'pdfa1b', savePath: 'jpx-1b.pdf' });
    assert.ok(report.changes.some((c: string) => /JPEG 2000 images re-encoded losslessly.*: 1$/.test(c)), JSON.stringify(report.changes));
    checkOutput(out, 1);
    // pdfimages lists the picture, also where Ghostscript wrote it inline: its filter is Flate (poppler calls it "image").
    assert.doesNotMatch(out.toString('latin1'), /JPXDecode/);
    assert.deepEqual(imageSizes(out).map((row) => row.split(' ').slice(0, 6).join(' ')), imageSizes(source));
    expectPdfboxValid('jpx-1b.pdf', out);
    assert.ok(differingShare(renderPage(source, 1, 100), renderPage(out, 1, 100)) < 0.001, 'the picture looks the same');
    // Without the font to embed, the document is kept as it is (the MuPDF path): PDF/A-2 allows JPEG 2000, the image keeps its bytes.
    const plain = jpxPdf(false);
    await putPdf(server, 'jpx-plain.pdf', plain);
    const { out: out2 } = await convertOk('jpx-plain.pdf', { profile: 'pdfa2b', savePath: 'jpx-2b.pdf' });
    assert.deepEqual(imageStreams(out2), imageStreams(plain));
    const { out: out3 } = await convertOk('jpx-plain.pdf', { profile: 'pdfa1b', savePath: 'jpx-plain-1b.pdf' });
    assert.deepEqual(imageStreams(out3).map((i) => i.filter), ['FlateDecode']);
    expectPdfboxValid('jpx-plain-1b.pdf', out3);
  });

  test('an AES-256 document whose owner password is empty (made with qpdf) converts without a password header, as its owner', async () => {
    const source = makePdf({ pages: 1, text: () => 'Owner password left empty', title: 'Empty owner' });
    const encrypted = withTempFile(source, (file) => {
      execFileSync('qpdf', ['--encrypt', 'the-user-password', '', '256', '--allow-insecure', '--', file, `${file}.out`]);
      return readFileSync(`${file}.out`);
    });
    await putPdf(server, 'empty-owner.pdf', encrypted);
    const model = await call(server, 'GET', '/documents/empty-owner.pdf', { headers: { accept: 'application/json' } });
    assert.equal(model.status, 200, model.text);
    assert.equal(model.json().encrypted, true);
    // The input is encrypted, which PDF/A forbids: preflight says so.
    const before = await preflight('empty-owner.pdf', 'pdfa2b');
    assert.equal(before.compliant, false);
    const { out } = await convertOk('empty-owner.pdf', { profile: 'pdfa2b', savePath: 'empty-owner-2b.pdf' });
    checkOutput(out, 2);
    sameWords(source, out);
    // A wrong password is still wrong.
    const wrong = await call(server, 'GET', '/documents/empty-owner.pdf', { headers: { accept: 'application/json', 'x-service-documentpassword': 'wrong' } });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.json().code, 'DOCUMENT_PASSWORD_INVALID');
  });

  test('text that shows undefined codes (a newline in a string, in a standard-encoded font not embedded) converts: the codes go, as they would be .notdef once the font is embedded', async () => {
    // Codes 10 in WinAnsi Helvetica: viewers draw nothing for them; an embedded substitute refers them to .notdef, which PDF/A forbids.
    const source = builtPage('BT /F1 14 Tf 72 700 Td (First words\\nsecond words\\nthird words) Tj 0 -30 Td [(Array with\\012newline) -200 (kept)] TJ ET');
    await putPdf(server, 'notdef.pdf', source);
    for (const [profile, part] of [['pdfa1b', 1], ['pdfa2b', 2]] as const) {
      const { out, report } = await convertOk('notdef.pdf', { profile, savePath: `notdef-${profile}.pdf` });
      assert.ok(report.changes.some((c: string) => /undefined character codes .*: 3$/.test(c)), JSON.stringify(report.changes));
      checkOutput(out, part);
      sameWords(source, out);
      // Helvetica may be drawn by an embedded substitute now: the criterion of the standard-14 test, a mean difference.
      assert.ok(meanDifference(renderPage(source, 1, 40), renderPage(out, 1, 40)) < 0.05, 'the page looks the same');
    }
  });

  test('a Highlight without appearance on a PDF/A-1b page Ghostscript converts keeps the page as text: the highlight stays an annotation for viewers to draw', async () => {
    // Ghostscript drew such a page, text and all, as one image (it blends the highlight it draws itself); the text check refused it.
    const words = 'Highlighted words stay words after the conversion to PDF/A-1b';
    const source = builtPage(`BT /F1 14 Tf 72 700 Td (${words}) Tj ET`, '/Annots [6 0 R] ', [
      '<< /Type /Annot /Subtype /Highlight /Rect [72 695 300 715] /QuadPoints [72 715 300 715 72 695 300 695] /C [1 1 0] /F 4 /Contents (A note) >>',
    ]);
    await putPdf(server, 'highlight-gs.pdf', source);
    const { out, report } = await convertOk('highlight-gs.pdf', { profile: 'pdfa1b' });
    checkOutput(out, 1);
    sameWords(source, out);
    assert.deepEqual(imageSizes(out), [], `no page drawn as an image (${report.pipeline})`);
    const annotations = (await call(server, 'GET', '/documents/highlight-gs.pdf/annotations')).json().annotations as { subtype: string }[];
    assert.deepEqual(annotations.map((a) => a.subtype), ['Highlight']);
    expectPdfboxValid('highlight-gs.pdf', out);
  });

  test('a conversion that would lose text is 422 with the text rule, whatever the page\'s length: U+FFFD on a one-word page, other letters on another; nothing written', async () => {
    const source = textLossPdf();
    assert.equal((await putPdf(server, 'text-loss.pdf', source)).status, 201);
    for (const profile of ['pdfa2b', 'pdfa1b']) {
      const reply = await expectUnchanged(server, 'text-loss.pdf', () => convert('text-loss.pdf', { profile, savePath: `text-loss-${profile}.pdf` }), 422, 'PDFA_CONVERSION_FAILED');
      const report = reply.json().report;
      assert.equal(report.compliant, false);
      assert.equal(report.pipeline, 'ghostscript');
      assert.deepEqual(report.rules.map((r: any) => `${r.specification} ${r.clause}-${r.testNumber}`), ['pdfservice text-1']);
      // Page 2 lost its word to U+FFFD, page 3 reads other letters; page 1 kept its sentence.
      assert.deepEqual(report.rules[0].locations.map((l: any) => l.pageIndex), [1, 2], JSON.stringify(report.rules[0].locations));
      assert.match(report.rules[0].locations[0].context, /^7 of 7 characters lost/);
      assert.equal((await call(server, 'GET', `/documents/text-loss-${profile}.pdf`)).status, 404, 'no output written');
    }
  });

  test('a page without resources gets an empty resource dictionary, which PDFBox Preflight requires', async () => {
    const source = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>',
      '<< /Type /Annot /Subtype /Square /Rect [100 100 200 200] /C [1 0 0] /F 4 >>',
    ], '/Root 1 0 R');
    await putPdf(server, 'no-resources.pdf', source);
    const { out } = await convertOk('no-resources.pdf', { profile: 'pdfa1b' });
    checkOutput(out, 1);
    expectPdfboxValid('no-resources.pdf', out);
  });

  test('PDF/A-1b of a drawing in coordinates beyond 32767 (under a tiny matrix): rewritten in larger units, drawing the same', async () => {
    // PDF/A-1 keeps PDF 1.4's limit on reals (6.1.12; integers may be larger); tracemonkey.pdf draws its charts this way.
    const big = (n: number) => `${n * 100000}.5`;
    const content = [
      'BT /F1 14 Tf 72 720 Td (A chart drawn in huge units) Tj ET',
      `q 0.00001 0 0 0.00001 72 400 cm 0 0 1 RG 300000 w 0 0 m ${big(200)} ${big(100)} l S 1 0 0 rg ${big(50)} ${big(50)} ${big(100)} ${big(80)} re f Q`,
      `q 0.00001 0 0 0.00001 72 300 cm BT /F1 14 Tf 100000 0 0 100000 0 0 Tm (Text under the same matrix) Tj ET Q`,
    ].join('\n');
    const source = builtPage(content);
    await putPdf(server, 'huge-units.pdf', source);
    const before = await preflight('huge-units.pdf', 'pdfa1b');
    assert.ok(before.rules.some((r: { clause: string }) => r.clause === '6.1.12'), JSON.stringify(before.rules));
    const { out, report } = await convertOk('huge-units.pdf', { profile: 'pdfa1b' });
    assert.ok(report.changes.some((c: string) => /rewritten in larger units/.test(c)), JSON.stringify(report.changes));
    checkOutput(out, 1);
    sameWords(source, out);
    // Its text may be drawn by an embedded Helvetica substitute: the criterion of the standard-14 test, a mean difference.
    assert.ok(meanDifference(renderPage(source, 1, 40), renderPage(out, 1, 40)) < 0.05, 'the page looks the same');
  });

  test('PDF/A-1b of a document with optional content that is all on: made plain content (PDF/A-1 has none), the page as it was', async () => {
    const content = '/OC /L1 BDC 0 0 1 rg 100 500 200 100 re f EMC';
    const source = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [6 0 R] /D << /ON [6 0 R] /Order [6 0 R] >> >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Properties << /L1 6 0 R >> >> /Contents 5 0 R >>',
      '<< >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /OCG /Name (Layer) >>',
    ], '/Root 1 0 R');
    await putPdf(server, 'layers-on.pdf', source);
    const { out, report } = await convertOk('layers-on.pdf', { profile: 'pdfa1b' });
    assert.equal(report.pipeline, 'mupdf');
    assert.ok(report.changes.some((c: string) => /optional content made plain content/.test(c)), JSON.stringify(report.changes));
    checkOutput(out, 1);
    assert.doesNotMatch(out.toString('latin1'), /\/OCProperties/);
    assert.ok(differingShare(renderPage(source, 1, 50), renderPage(out, 1, 50)) < 0.001, 'the page looks the same');
    expectPdfboxValid('layers-on.pdf', out);
  });

  test('LZW streams (every part forbids the filter) are rewritten, and DeviceCMYK gets a DefaultCMYK, so the document is kept as it is', async () => {
    // An LZW stream of 9-bit literal codes (clear, the bytes, end of data): valid for short data, before the table widens the codes.
    const lzw = (text: string) => {
      const codes = [256, ...Buffer.from(text, 'latin1'), 257];
      let bits = '';
      for (const code of codes) bits += code.toString(2).padStart(9, '0');
      bits = bits.padEnd(Math.ceil(bits.length / 8) * 8, '0');
      return Buffer.from(Array.from({ length: bits.length / 8 }, (_, i) => parseInt(bits.slice(i * 8, i * 8 + 8), 2))).toString('latin1');
    };
    const content = lzw('0 0 0 1 k 100 500 200 100 re f 0.2 0.8 0 0 k 100 300 200 100 re f');
    const source = serializePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 4 0 R >>',
      `<< /Length ${content.length} /Filter /LZWDecode >>\nstream\n${content}\nendstream`,
    ], '/Root 1 0 R');
    await putPdf(server, 'lzw-cmyk.pdf', source);
    for (const [profile, part] of [['pdfa2b', 2], ['pdfa3b', 3]] as const) {
      const { out, report } = await convertOk('lzw-cmyk.pdf', { profile, savePath: `lzw-cmyk-${profile}.pdf` });
      assert.equal(report.pipeline, 'mupdf', JSON.stringify(report.attempts));
      assert.ok(report.changes.some((c: string) => /LZW-compressed streams rewritten .*: 1$/.test(c)), JSON.stringify(report.changes));
      assert.ok(report.changes.some((c: string) => /DefaultCMYK/.test(c)), JSON.stringify(report.changes));
      checkOutput(out, part);
      assert.doesNotMatch(out.toString('latin1'), /LZWDecode/);
      assert.ok(differingShare(renderPage(source, 1, 50), renderPage(out, 1, 50)) < 0.001, 'the page looks the same');
    }
  });

  test('annotations become PDF/A-1b and -2b: appearances drawn where missing, kept and printable', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    for (const [file, profile, part] of [['pdf-lib/annotations/with_annots.pdf', 'pdfa1b', 1], ['pdfjs/annotations/annotation-ink-without-appearance.pdf', 'pdfa2b', 2], ['pypdf/annotations/commented.pdf', 'pdfa2b', 2], ['pypdf/annotations/example.pdf', 'pdfa2b', 2]] as const) {
      const source = corpusFile(file);
      const doc = `annots-${path.basename(file)}`;
      await putPdf(server, doc, source);
      const before = (await call(server, 'GET', `/documents/${doc}/annotations`)).json().annotations as { subtype: string }[];
      const { out, report } = await convertOk(doc, { profile });
      checkOutput(out, part);
      if (report.pipeline === 'mupdf') sameWords(source, out);
      else {
        // Ghostscript re-encodes simple fonts without a ToUnicode map, and poppler then reads some glyphs (the fi
        // ligature, bullets) as other characters (docs/pdfa.md, limits; plain gs pdfwrite does the same): the words
        // are compared as a sequence, the rest must be the same.
        const similarity = sequenceSimilarity(words(pdftotext(source)), words(pdftotext(out)));
        assert.ok(similarity >= 0.98, `${file}: word sequence similarity ${similarity}`);
      }
      const after = (await call(server, 'GET', `/documents/${doc}/annotations`)).json().annotations as { subtype: string }[];
      // Ghostscript draws form fields into the page (docs/pdfa.md, limits): their widgets go. File attachments go below
      // PDF/A-3 (embeddedFiles 0). The other annotations stay.
      const kinds = (list: { subtype: string }[]) => list.map((a) => a.subtype).filter((t) => (report.pipeline === 'mupdf' || t !== 'Widget') && t !== 'FileAttachment').sort();
      assert.deepEqual(kinds(after), kinds(before), `${file}: the same annotations`);
    }
  });

  test('a highlight in PDF/A-1b still shows its words: its blending is left to viewers, not made an opaque box', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    const source = corpusFile('pdfjs/annotations/annotation-highlight.pdf');
    await putPdf(server, 'highlight.pdf', source);
    const { out, report } = await convertOk('highlight.pdf', { profile: 'pdfa1b' });
    checkOutput(out, 1);
    sameWords(source, out);
    assert.match(report.changes.join('\n'), /highlight appearances left to viewers/);
    assert.ok(differingShare(renderPage(source, 1, 50), renderPage(out, 1, 50)) < 0.002, 'the highlighted words are still seen');
    expectPdfboxValid('highlight.pdf', out);
  });

  test('PDF/A-1b of pages with Highlight annotations keeps their text (Ghostscript drew them as images, which the text check refused)', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    // Their Highlight annotations made Ghostscript draw the page, text and all, as one image in PDF/A-1 (measured): 422 with
    // the rule `text` before -dNOTRANSPARENCY. Now the words are there, and the text check (which still guards the path) passes.
    for (const file of ['pypdf/annotations/example.pdf', 'pypdf/annotations/commented.pdf']) {
      const source = corpusFile(file);
      const doc = `rasterised-${path.basename(file)}`;
      await putPdf(server, doc, source);
      const { out } = await convertOk(doc, { profile: 'pdfa1b' });
      checkOutput(out, 1);
      expectPdfboxValid(`${file}, pdfa1b`, out);
      // Words of letters and digits: example.pdf's flag emoji come out of Ghostscript's re-encoded font as other characters
      // (docs/pdfa.md, limits: text extraction after Ghostscript).
      const after = new Set(words(pdftotext(out)));
      for (const word of words(pdftotext(source)).filter((w) => /^[\p{L}\p{N}]+$/u.test(w))) assert.ok(after.has(word), `${file}: "${word}" is still in the text`);
    }
  });

  test('attachments: PDF/A-3b keeps them, -2b deletes them by default and refuses them with embeddedFiles 1', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    const source = corpusFile('pdfjs/attachments/attachment.pdf');
    const listed = (pdf: Buffer) => withTempFile(pdf, (file) => execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' }));
    assert.match(listed(source), /^1 embedded files/m);
    await putPdf(server, 'attached.pdf', source);
    const refused = await expectUnchanged(server, 'attached.pdf', () => convert('attached.pdf', { profile: 'pdfa2b', embeddedFiles: 1 }), 422, 'PDFA_CONVERSION_FAILED');
    assert.equal(refused.json().report.rules[0].clause, '6.8');
    await expectUnchanged(server, 'attached.pdf', () => convert('attached.pdf', { profile: 'pdfa1b', embeddedFiles: 1 }), 422, 'PDFA_CONVERSION_FAILED');
    const { out: three } = await convertOk('attached.pdf', { profile: 'pdfa3b', savePath: 'attached-3b.pdf' });
    checkOutput(three, 3);
    assert.match(listed(three), /^1 embedded files/m);
    assert.match(three.toString('latin1'), /\/AFRelationship/);
    const { out: two } = await convertOk('attached.pdf', { profile: 'pdfa2b', savePath: 'attached-2b.pdf' });
    checkOutput(two, 2);
    assert.match(listed(two), /^0 embedded files/m);
  });

  test('unsupported annotations (Sound, Screen, RichMedia): 422 with unsupportedAnnots 1, deleted by default', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    const source = corpusFile('pdfjs/annotations/multimedia_annotations.pdf');
    await putPdf(server, 'multimedia.pdf', source);
    const refused = await expectUnchanged(server, 'multimedia.pdf', () => convert('multimedia.pdf', { profile: 'pdfa2b', unsupportedAnnots: 1 }), 422, 'PDFA_CONVERSION_FAILED');
    const rule = refused.json().report.rules[0];
    assert.equal(rule.clause, '6.3.1');
    assert.ok(rule.failedChecks >= 1);
    assert.match(JSON.stringify(rule.locations), /Sound|Screen|RichMedia/);
    const xml = await call(server, 'POST', '/documents/multimedia.pdf', { body: { PDFAConvertAction: { profile: 'pdfa2b', unsupportedAnnots: 1 } }, headers: { ...WAIT, accept: 'application/xml' } });
    assert.equal(xml.status, 422);
    assert.match(xml.text, /<code>PDFA_CONVERSION_FAILED<\/code>/);
    assert.match(xml.text, /<clause>6\.3\.1<\/clause>/);
    // Run as a job (no Prefer): the job fails with the same code, and the problem's report.
    const accepted = await convert('multimedia.pdf', { profile: 'pdfa2b', unsupportedAnnots: 1 }, {});
    assert.equal(accepted.status, 202, accepted.text);
    const job = await jobEnded(server, accepted.json().id, { seconds: 120 });
    assert.equal(job.state, 'failed');
    assert.equal(job.error.code, 'PDFA_CONVERSION_FAILED');
    assert.equal(job.error.report.rules[0].clause, '6.3.1', 'the job keeps the problem\'s report');
    const { out, report } = await convertOk('multimedia.pdf', { profile: 'pdfa2b' });
    checkOutput(out, 2);
    assert.match(report.changes.join('\n'), /annotations deleted/);
    assert.doesNotMatch(out.toString('latin1'), /\/Subtype\s*\/(Sound|Screen|RichMedia|Movie)\b/);
  });

  test('an OCRed scan: invisible text stays invisible, words the same, JPEG image bytes unchanged', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    // A two-page JPEG scan given its invisible text layer by the service's own OCRAction first.
    await putPdf(server, 'scan.pdf', corpusFile('pdfjs/ocr/issue7229.pdf'));
    const ocr = await call(server, 'POST', '/documents/scan.pdf/pages', { body: { OCRAction: { language: 'rus', dpi: 200 } }, headers: { prefer: 'wait=300' } });
    assert.equal(ocr.status, 200, ocr.text);
    const source = await storedBytes(server, 'scan.pdf');
    assert.ok(words(pdftotext(source)).length > 50, 'the scan has its OCR words');
    const { out } = await convertOk('scan.pdf', { profile: 'pdfa2b' });
    checkOutput(out, 2);
    sameWords(source, out);
    for (const page of [1, 2]) {
      assert.ok(differingShare(renderPage(source, page, 50), renderPage(out, page, 50)) < 0.002, `page ${page} looks the same (the text layer is not drawn)`);
    }
    const jpegs = (pdf: Buffer) => imageStreams(pdf).filter((s) => s.filter === 'DCTDecode').map((s) => s.sha).sort();
    assert.equal(jpegs(source).length, 2);
    assert.deepEqual(jpegs(out), jpegs(source), 'the JPEGs are byte for byte the same');
  });

  test('a scan with an OCR layer of its own (JPEG 2000 and JBIG2) becomes PDF/A-2b with the same words', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    const source = corpusFile('pypdf/ocr/Seige_of_Vicksburg_Sample_OCR.pdf');
    await putPdf(server, 'vicksburg.pdf', source);
    const { out } = await convertOk('vicksburg.pdf', { profile: 'pdfa2b' });
    checkOutput(out, 2);
    sameWords(source, out);
    // Its images with JBIG2 soft masks are re-encoded by Ghostscript (losslessly: docs/pdfa.md, limits); never downsampled.
    assert.deepEqual(imageSizes(out), imageSizes(source));
  });

  test('appendReport and addAnnots write the document as it was with the report in it, claiming no PDF/A', async (t) => {
    if (!haveCorpus) return t.skip('no corpus');
    const source = corpusFile('pdfjs/annotations/multimedia_annotations.pdf');
    await putPdf(server, 'marked.pdf', source);
    const pagesOf = (pdf: Buffer) => Number(/Pages:\s+(\d+)/.exec(withTempFile(pdf, (file) => execFileSync('pdfinfo', [file], { encoding: 'utf8' })))![1]);
    const reply = await convert('marked.pdf', { profile: 'pdfa2b', unsupportedAnnots: 1, appendReport: true, addAnnots: true, savePath: 'marked-report.pdf' });
    assert.equal(reply.status, 201, reply.text);
    const report = reply.json().report;
    assert.equal(report.compliant, false);
    assert.ok(report.marked.pagesAdded >= 1 && report.marked.notesAdded >= 1);
    const out = await storedBytes(server, 'marked-report.pdf');
    assert.equal(pagesOf(out), pagesOf(source) + report.marked.pagesAdded);
    assert.doesNotMatch(out.toString('latin1'), /pdfaid:part/);
    assert.match(pdftotext(out), /does not meet pdfa2b/);
    assert.match(pdftotext(out), /6\.3\.1/);
    assert.equal(sha256(await storedBytes(server, 'marked.pdf')), sha256(source), 'the source is unchanged');
  });

  test('a job by default (202), and validation of the options', async () => {
    await putPdf(server, 'job.pdf', makePdf({ text: () => 'Converted in the background' }));
    const accepted = await convert('job.pdf', {}, {});
    assert.equal(accepted.status, 202, accepted.text);
    const job = await jobEnded(server, accepted.json().id, { seconds: 120 });
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    checkOutput(await storedBytes(server, 'job.pdf'), 2);
    const bad = await convert('job.pdf', { profile: 'pdfa1a' });
    assert.equal(bad.status, 400, bad.text);
  });

  test('PDFBox Preflight passes every PDF/A-1b output the tests above handed it (one JVM for all)', () => {
    assert.ok(pdfboxOutputs.length > 0, 'the tests handed PDFBox their outputs');
    const verdicts = pdfboxPreflightA1b(pdfboxOutputs.map((o) => o.bytes));
    const failed = pdfboxOutputs.flatMap((o, i) => (verdicts[i]!.valid ? [] : [`${o.label}: ${verdicts[i]!.errors}`]));
    console.log(`PDFBox Preflight: ${pdfboxOutputs.length - failed.length} of ${pdfboxOutputs.length} valid PDF/A-1b`);
    assert.deepEqual(failed, [], 'every PDF/A-1b output is a valid PDF/A-1b file for PDFBox Preflight');
  });
});

/** Every image's page, width, height and kind, as pdfimages lists them. */
function imageSizes(pdf: Buffer): string[] {
  const list = withTempFile(pdf, (file) => execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }));
  return list.split('\n').slice(2).filter(Boolean).map((line) => line.trim().split(/\s+/).slice(0, 6).join(' ')).filter((row) => !/^\d+ \d+ image 1 1/.test(row));
}

/** Image XObjects of a PDF (qpdf --json): filter and the sha-256 of the raw (still encoded) stream data. */
function imageStreams(pdf: Buffer): { filter: string; sha: string }[] {
  const json = JSON.parse(withTempFile(pdf, (file) => execFileSync('qpdf', ['--json=2', '--json-stream-data=inline', '--decode-level=none', file], { encoding: 'utf8', maxBuffer: 1 << 28 })));
  const out: { filter: string; sha: string }[] = [];
  for (const value of Object.values(json.qpdf[1]) as any[]) {
    const dict = value?.stream?.dict;
    if (!dict || dict['/Subtype'] !== '/Image') continue;
    const filter = Array.isArray(dict['/Filter']) ? dict['/Filter'].join(',') : String(dict['/Filter'] ?? '');
    let data = Buffer.from(value.stream.data ?? '', 'base64');
    // Ghostscript passes a JPEG through with two bytes of end of line after its end marker (FF D9), inside the stream's Length: the JPEG itself is compared.
    if (filter === '/DCTDecode') data = data.subarray(0, data.lastIndexOf(Buffer.from([0xff, 0xd9])) + 2);
    out.push({ filter: filter.replace(/\//g, ''), sha: sha256(data) });
  }
  return out;
}
