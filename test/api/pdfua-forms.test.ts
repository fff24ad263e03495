/**
 * PDFUAConvertAction on documents with form fields, annotations and embedded files (issue 42; docs/accessibility.md,
 * "Form fields, annotations and embedded files"), through HTTP to the real server. The sources are written here byte
 * by byte: an application form (text field, check box, radio group, a link, a highlight without /Contents, a comment,
 * a file attachment annotation and an embedded file each missing /F or /UF, a field value drawn in a Helvetica without
 * its program), and a form whose only text is in its fields. Checked with veraPDF's PDF/UA-1 profile (a JVM of the
 * test's own), qpdf (the /TU, /StructParent, /Tabs and file specifications read back), pdfinfo -struct-text and
 * pdftotext.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { call, expectUnchanged, putPdf, storedBytes } from '../helpers/http.js';
import { pdfinfo, pdftotext, withTempFile } from '../helpers/pdf.js';
import { PdfObjects } from '../helpers/pdf-writer.js';
import { pdfTextFromJson, QpdfDocument } from '../helpers/qpdf-json.js';
import { serverForSuite } from '../helpers/server.js';
import { verapdfVerdicts } from '../helpers/verapdf.js';

const server = serverForSuite();

function convert(documentPath: string, params: Record<string, unknown>) {
  return call(server, 'POST', `/documents/${documentPath}`, { body: { PDFUAConvertAction: params }, headers: { prefer: 'wait=300' } });
}

const structText = (pdf: Buffer) => withTempFile(pdf, (file) => execFileSync('pdfinfo', ['-struct-text', file], { encoding: 'utf8' }));
const textOf = (value: unknown) => (typeof value === 'string' ? pdfTextFromJson(value) : undefined);

/** A field value's appearance: the text in Helvetica, named without its program (as most form tools write it). */
function valueAppearance(o: PdfObjects, font: number, width: number, value: string): number {
  return o.stream(`/Type /XObject /Subtype /Form /BBox [0 0 ${width} 20] /Resources << /Font << /Helv ${font} 0 R >> >>`, `/Tx BMC BT /Helv 12 Tf 2 6 Td (${value}) Tj ET EMC`);
}

/**
 * An application form: a heading, "Name:" left of a text field, a check box with its label on its right, "Contact
 * by:" left of a radio group of two buttons (widgets without names of their own), a line with a link, a line under a
 * highlight without /Contents, a comment with its text and popup, a file attachment annotation whose file
 * specification has /F only, and an embedded file (the EmbeddedFiles name tree) whose specification has /UF only.
 */
function applicationForm(): Buffer {
  const o = new PdfObjects();
  const catalog = o.reserve();
  const pages = o.reserve();
  const page = o.reserve();
  const font = o.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const content = o.stream(
    '',
    'BT /F1 20 Tf 72 740 Td (Application form) Tj ET\n' +
      'BT /F1 12 Tf 72 700 Td (Name:) Tj ET\n' +
      'BT /F1 12 Tf 96 662 Td (Subscribe to the newsletter) Tj ET\n' +
      'BT /F1 12 Tf 72 624 Td (Contact by:) Tj ET BT /F1 12 Tf 176 624 Td (Email) Tj ET BT /F1 12 Tf 246 624 Td (Phone) Tj ET\n' +
      'BT /F1 12 Tf 72 580 Td (Read the rules on our website before you apply.) Tj ET\n' +
      'BT /F1 12 Tf 72 550 Td (Please fill in every field.) Tj ET\n' +
      '0.5 g 130 694 200 20 re S',
  );
  const name = o.add(`<< /Type /Annot /Subtype /Widget /FT /Tx /T (applicant) /V (Ada Lovelace) /Rect [130 694 330 714] /F 4 /P ${page} 0 R /DA (/Helv 12 Tf 0 g) /AP << /N ${valueAppearance(o, font, 200, 'Ada Lovelace')} 0 R >> >>`);
  const on = o.stream('/Type /XObject /Subtype /Form /BBox [0 0 14 14]', '0 g 3 3 8 8 re f');
  const off = o.stream('/Type /XObject /Subtype /Form /BBox [0 0 14 14]', '0 g 0.5 0.5 13 13 re S');
  const check = o.add(`<< /Type /Annot /Subtype /Widget /FT /Btn /T (newsletter) /V /Off /AS /Off /Rect [76 658 90 672] /F 4 /P ${page} 0 R /AP << /N << /Yes ${on} 0 R /Off ${off} 0 R >> >> >>`);
  const group = o.reserve();
  const email = o.add(`<< /Type /Annot /Subtype /Widget /Parent ${group} 0 R /AS /Off /Rect [160 620 174 634] /F 4 /P ${page} 0 R /AP << /N << /Email ${on} 0 R /Off ${off} 0 R >> >> >>`);
  const phone = o.add(`<< /Type /Annot /Subtype /Widget /Parent ${group} 0 R /AS /Off /Rect [230 620 244 634] /F 4 /P ${page} 0 R /AP << /N << /Phone ${on} 0 R /Off ${off} 0 R >> >> >>`);
  o.set(group, `<< /FT /Btn /Ff ${1 << 15} /T (contact) /V /Off /Kids [${email} 0 R ${phone} 0 R] >>`);
  const link = o.add('<< /Type /Annot /Subtype /Link /Rect [169 576 232 592] /Border [0 0 0] /A << /S /URI /URI (https://example.com/rules) >> >>');
  const highlight = o.add('<< /Type /Annot /Subtype /Highlight /Rect [70 546 210 564] /QuadPoints [70 564 210 564 70 546 210 546] /C [1 1 0] /F 4 >>');
  const popup = o.reserve();
  const comment = o.add(`<< /Type /Annot /Subtype /Text /Rect [400 545 420 565] /Contents (Check the spelling of the name.) /T (Reviewer) /F 4 /Popup ${popup} 0 R >>`);
  o.set(popup, `<< /Type /Annot /Subtype /Popup /Rect [420 480 560 560] /Parent ${comment} 0 R /Open false /F 4 >>`);
  const attached = o.stream('/Type /EmbeddedFile', 'Rules of the club');
  const attachment = o.add(`<< /Type /Annot /Subtype /FileAttachment /Rect [400 500 414 520] /F 4 /Name /Paperclip /FS << /Type /Filespec /F (rules.txt) /EF << /F ${attached} 0 R >> >> >>`);
  const embedded = o.stream('/Type /EmbeddedFile', 'name,email');
  const spec = o.add(`<< /Type /Filespec /UF (members.csv) /EF << /F ${embedded} 0 R >> >>`);
  const annots = [name, check, email, phone, link, highlight, comment, popup, attachment];
  o.set(page, `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R /Annots [${annots.map((a) => `${a} 0 R`).join(' ')}] >>`);
  o.set(pages, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
  o.set(
    catalog,
    `<< /Type /Catalog /Pages ${pages} 0 R /AcroForm << /Fields [${name} 0 R ${check} 0 R ${group} 0 R] /DA (/Helv 12 Tf 0 g) /DR << /Font << /Helv ${font} 0 R >> >> >> ` +
      `/Names << /EmbeddedFiles << /Names [(members.csv) ${spec} 0 R] >> >> >>`,
  );
  return o.finish(`/Root ${catalog} 0 R`);
}

/** A form whose page draws only boxes: its text (labels and values alike) is in its fields' appearances. */
function fieldsOnly(title?: string): Buffer {
  const o = new PdfObjects();
  const catalog = o.reserve();
  const pages = o.reserve();
  const page = o.reserve();
  const font = o.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const content = o.stream('', '0.5 g 72 694 200 20 re S 72 654 200 20 re S');
  const first = o.add(`<< /Type /Annot /Subtype /Widget /FT /Tx /T (member) /V (Grace Hopper) /Rect [72 694 272 714] /F 4 /P ${page} 0 R /AP << /N ${valueAppearance(o, font, 200, 'Grace Hopper')} 0 R >> >>`);
  const second = o.add(`<< /Type /Annot /Subtype /Widget /FT /Tx /T (city) /TU (City of residence) /V (Arlington) /Rect [72 654 272 674] /F 4 /P ${page} 0 R /AP << /N ${valueAppearance(o, font, 200, 'Arlington')} 0 R >> >>`);
  o.set(page, `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Annots [${first} 0 R ${second} 0 R] >>`);
  o.set(pages, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
  o.set(catalog, `<< /Type /Catalog /Pages ${pages} 0 R /AcroForm << /Fields [${first} 0 R ${second} 0 R] /DA (/Helv 12 Tf 0 g) >> >>`);
  const info = title === undefined ? '' : ` /Info ${o.add(`<< /Title (${title}) >>`)} 0 R`;
  return o.finish(`/Root ${catalog} 0 R${info}`);
}

const outputs: Record<string, Buffer> = {};

test('form fields, links, comments and embedded files: tagged, described and named; PDF/UA-1 passes', async () => {
  const source = applicationForm();
  assert.equal((await putPdf(server, 'uaforms/application.pdf', source)).status, 201);
  const reply = await convert('uaforms/application.pdf', { lang: 'en-GB' });
  assert.equal(reply.status, 200, reply.text);
  const r = reply.json().report;
  assert.equal(r.compliant, true, JSON.stringify(r.rules));
  assert.equal(r.pdfuaIdentified, true);
  // Four widgets, each its Form element; the link a Link; the highlight, the comment, its popup and the attachment
  // Annot elements.
  assert.equal(r.elements.Form, 4);
  assert.equal(r.elements.Link, 1);
  assert.equal(r.elements.Annot, 4);
  assert.equal(r.fieldsDescribed, 3);
  assert.equal(r.annotationsDescribed, 3);
  assert.equal(r.embeddedFilesNamed, 2);
  assert.equal(r.fontsEmbedded, 1);

  const out = await storedBytes(server, 'uaforms/application.pdf');
  outputs.application = out;
  assert.equal(pdftotext(out), pdftotext(source));

  // qpdf reads the tooltips from the page's labels, the keys into the parent tree, /Tabs and the file names.
  const q = new QpdfDocument(out);
  const pageDict = q.resolve(q.pages[0]) as Record<string, unknown>;
  assert.equal(pageDict['/Tabs'], '/S');
  const annots = (q.get(pageDict, '/Annots') as string[]).map((a) => q.resolve(a) as Record<string, unknown>);
  const bySubtype = (s: string) => annots.filter((a) => a['/Subtype'] === s);
  const [nameField, checkBox, emailButton] = bySubtype('/Widget');
  assert.equal(textOf(nameField!['/TU']), 'Name');
  assert.equal(textOf(checkBox!['/TU']), 'Subscribe to the newsletter');
  const group = q.get(emailButton!, '/Parent') as Record<string, unknown>;
  assert.equal(textOf(group['/TU']), 'Contact by');
  assert.equal(emailButton!['/TU'], undefined, 'the tooltip is the field\'s, not its widget\'s');
  // Every annotation has its /StructParent, each key its own.
  const keys = annots.map((a) => a['/StructParent']);
  assert.equal(keys.length, 9);
  assert.ok(keys.every((k) => typeof k === 'number'));
  assert.equal(new Set(keys).size, 9);
  assert.equal(textOf(bySubtype('/Link')[0]!['/Contents']), 'our website');
  const attachmentSpec = q.get(bySubtype('/FileAttachment')[0]!, '/FS') as Record<string, unknown>;
  assert.deepEqual([textOf(attachmentSpec['/F']), textOf(attachmentSpec['/UF'])], ['rules.txt', 'rules.txt']);
  const tree = q.get(q.get(q.catalog(), '/Names') as Record<string, unknown>, '/EmbeddedFiles') as Record<string, unknown>;
  const spec = q.resolve((tree['/Names'] as unknown[])[1]) as Record<string, unknown>;
  assert.deepEqual([textOf(spec['/F']), textOf(spec['/UF'])], ['members.csv', 'members.csv']);

  // The structure as poppler reads it: the Form, Link and Annot elements, the highlight's /Alt naming the text under it.
  const structure = structText(out);
  for (const expected of ['H1', '"Application form"', 'Form', 'Link', 'Annot']) assert.ok(structure.includes(expected), `${expected} in the structure:\n${structure}`);
  const objects = withTempFile(out, (file) => execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, '-'])).toString('latin1');
  assert.match(objects, /\/Alt \(Highlight annotation: Please fill in every field.\)/);
  assert.match(objects, /\/Alt \(Popup annotation showing the note of the text annotation\)/);
  assert.match(objects, /\/Alt \(File attachment annotation: rules.txt\)/);
});

test('a form whose only text is in its fields: tagged (no 422 NO_TEXT), titled from its metadata or its name', async () => {
  const titled = fieldsOnly('Membership form');
  assert.equal((await putPdf(server, 'uaforms/membership.pdf', titled)).status, 201);
  const reply = await convert('uaforms/membership.pdf', { lang: 'en-US' });
  assert.equal(reply.status, 200, reply.text);
  const r = reply.json().report;
  assert.equal(r.tagged, 'added');
  assert.equal(r.compliant, true, JSON.stringify(r.rules));
  assert.deepEqual(r.elements, { Document: 1, Form: 2 });
  assert.equal(r.fieldsDescribed, 1);
  assert.equal(r.title, 'Membership form');
  const out = await storedBytes(server, 'uaforms/membership.pdf');
  outputs.membership = out;
  // No label on the page: the field's tooltip is its name; the other kept its own.
  const q = new QpdfDocument(out);
  const widgets = (q.get(q.resolve(q.pages[0]) as Record<string, unknown>, '/Annots') as string[]).map((a) => q.resolve(a) as Record<string, unknown>);
  assert.deepEqual(widgets.map((w) => textOf(w['/TU'])), ['member', 'City of residence']);

  // Without a title of its own: the stored document's name.
  assert.equal((await putPdf(server, 'uaforms/untitled-form.pdf', fieldsOnly())).status, 201);
  const named = await convert('uaforms/untitled-form.pdf', { lang: 'en-US' });
  assert.equal(named.status, 200, named.text);
  assert.equal(named.json().report.title, 'untitled-form');
  outputs.untitled = await storedBytes(server, 'uaforms/untitled-form.pdf');
  assert.equal(pdfinfo(outputs.untitled)['Title'], 'untitled-form');

  // Without text and without fields it is still a scan: 422 NO_TEXT, the document unchanged.
  const o = new PdfObjects();
  const [catalog, pages] = [o.reserve(), o.reserve()];
  const page = o.add(`<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 200 200] /Contents ${o.stream('', '0 g 10 10 50 50 re f')} 0 R >>`);
  o.setPageTree(catalog, pages, [page]);
  assert.equal((await putPdf(server, 'uaforms/boxes.pdf', o.finish(`/Root ${catalog} 0 R`))).status, 201);
  await expectUnchanged(server, 'uaforms/boxes.pdf', () => convert('uaforms/boxes.pdf', { lang: 'en' }), 422, 'NO_TEXT');
});

test('veraPDF in a JVM of its own agrees: every output passes PDF/UA-1', () => {
  const names = Object.keys(outputs);
  assert.deepEqual(names, ['application', 'membership', 'untitled']);
  const verdicts = verapdfVerdicts(names.map((n) => ({ bytes: outputs[n]!, flavour: 'ua1' })));
  verdicts.forEach((v, i) => assert.equal(v.compliant, true, `${names[i]}: ${JSON.stringify(v.rules)}`));
});
