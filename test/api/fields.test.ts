import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, putPdf, sha256, storedBytes, type Reply, expectUnchanged } from '../helpers/http.js';
import { pdftotext, qpdfCheck, renderDifference, renderPage, serializePdf } from '../helpers/pdf.js';
import { decodePng, type Raster } from '../helpers/png.js';
import { appearanceOf, qpdfAnnotations, qpdfFields } from '../helpers/qpdf-json.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

const json = { accept: 'application/json' };
const getFields = (doc: string) => call(server, 'GET', `/documents/${doc}/fields`, { headers: json });
const setField = (doc: string, name: string, body: object | string, headers: Record<string, string> = {}) =>
  call(server, 'PUT', `/documents/${doc}/fields/${encodeURIComponent(name)}`, { body: typeof body === 'string' ? Buffer.from(body) : body, headers: { ...json, ...headers } });
/** The first page as MuPDF renders it, through the service's page image at 72 dpi. */
async function mupdfRender(doc: string): Promise<Raster> {
  const reply = await call(server, 'GET', `/documents/${doc}/pages/0/image?dpi=72&format=png`);
  assert.equal(reply.status, 200, reply.text.slice(0, 200));
  return decodePng(reply.bytes);
}

/** Share of pixels whose luminance differs by more than 48 of 255. */
function grayDifference(a: Raster, b: Raster): number {
  assert.equal(a.width, b.width);
  assert.equal(a.height, b.height);
  let differing = 0;
  for (let y = 0; y < a.height; y++) for (let x = 0; x < a.width; x++) if (Math.abs(a.gray(x, y) - b.gray(x, y)) > 48) differing++;
  return differing / (a.width * a.height);
}

const action = (doc: string, body: object) => call(server, 'POST', `/documents/${doc}`, { body, headers: json });

const unchanged = (doc: string, request: () => Promise<Reply>, status: number, code: string) => expectUnchanged(server, doc, request, status, code);

const QPDF_TYPE: Record<string, string> = { text: '/Tx', checkbox: '/Btn', radio: '/Btn', pushbutton: '/Btn', combo: '/Ch', list: '/Ch', signature: '/Sig' };

/**
 * A small form with defaults: a text field with /DV, a checkbox whose default
 * is on, a read-only text with a default, a combo whose default is no longer
 * an option, and a field tree with a loop, a kid without /T and a widget
 * whose /Parent is not in the tree. /NeedAppearances is set.
 */
function formWithDefaults(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R 6 0 R 7 0 R 8 0 R] /NeedAppearances true /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 11 0 R >> >> >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Annots [4 0 R 5 0 R 6 0 R 7 0 R 9 0 R 10 0 R] >>',
    '<< /Type /Annot /Subtype /Widget /FT /Tx /T (note) /V (changed) /DV (original) /Rect [20 340 220 360] /F 4 /DA (/Helv 12 Tf 0 g) /P 3 0 R >>',
    '<< /Type /Annot /Subtype /Widget /FT /Btn /T (ok) /V /Off /DV /Yes /AS /Off /Rect [20 300 34 314] /F 4 /P 3 0 R /MK << /CA (4) >> /DA (/ZaDb 0 Tf 0 g) >>',
    '<< /Type /Annot /Subtype /Widget /FT /Tx /T (code) /Ff 1 /V (B) /DV (A) /Rect [20 260 220 280] /F 4 /DA (/Helv 12 Tf 0 g) /P 3 0 R >>',
    '<< /Type /Annot /Subtype /Widget /FT /Ch /T (size) /Ff 131072 /Opt [(S) (M)] /V (M) /DV (XL) /Rect [20 220 220 240] /F 4 /DA (/Helv 12 Tf 0 g) /P 3 0 R >>',
    // A non-terminal field whose kids loop back to it, plus a kid without /T (its widget).
    '<< /T (group) /Kids [8 0 R 9 0 R] /FT /Tx /V (inner) >>',
    '<< /Type /Annot /Subtype /Widget /Parent 8 0 R /Rect [20 180 220 200] /F 4 /DA (/Helv 12 Tf 0 g) /P 3 0 R >>',
    // A widget whose parent is nowhere in the field tree: its parent is listed as a field (as qpdf does), never a crash.
    '<< /Type /Annot /Subtype /Widget /Parent 12 0 R /Rect [20 140 220 160] /F 4 /P 3 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /FT /Tx /T (orphan) >>',
  ];
  return serializePdf(objects, '/Root 1 0 R');
}

/**
 * Widgets outside the /AcroForm tree: a merged field-widget on the page only,
 * a widget whose parent field is in no /Fields, and a widget of a field in
 * the tree that its /Kids do not list. And a single-select list box.
 */
function formWithStrayWidgets(): Buffer {
  const da = '/DA (/Helv 12 Tf 0 g)';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R 9 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 8 0 R >> >> >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Annots [4 0 R 5 0 R 6 0 R 7 0 R 10 0 R 12 0 R] >>',
    `<< /Type /Annot /Subtype /Widget /FT /Tx /T (listed) /V (in the tree) /Rect [20 340 220 360] /F 4 ${da} /P 3 0 R >>`,
    `<< /Type /Annot /Subtype /Widget /FT /Ch /T (size) /Opt [(S) (M) (L)] /V (M) /Rect [20 260 120 320] /F 4 ${da} /P 3 0 R >>`,
    // On the page, in no /Fields: a merged field and widget.
    `<< /Type /Annot /Subtype /Widget /FT /Tx /T (stray) /V (not in the tree) /Rect [20 220 220 240] /F 4 ${da} /P 3 0 R >>`,
    // On the page, its parent field in no /Fields.
    `<< /Type /Annot /Subtype /Widget /Parent 11 0 R /Rect [20 180 220 200] /F 4 ${da} /P 3 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    // A field in the tree whose /Kids do not list its widget 12.
    '<< /T (address) /Kids [] >>',
    `<< /Type /Annot /Subtype /Widget /FT /Tx /T (city) /V (Oslo) /Rect [20 100 220 120] /F 4 ${da} /P 3 0 R >>`,
    '<< /FT /Tx /T (parentless) /V (parent not in the tree) /Kids [7 0 R] >>',
    `<< /Type /Annot /Subtype /Widget /FT /Tx /T (street) /Parent 9 0 R /V (Main St) /Rect [20 140 220 160] /F 4 ${da} /P 3 0 R >>`,
  ];
  return serializePdf(objects, '/Root 1 0 R');
}

describe('listing fields', () => {
  test('every terminal field with name, type, value, options, flags, tooltip and widgets; names, types and values agree with qpdf', async () => {
    const pdf = makeFormPdf();
    await putPdf(server, 'fields/form.pdf', pdf);
    const reply = await getFields('fields/form.pdf');
    assert.equal(reply.status, 200, reply.text);
    const model = reply.json();
    assert.equal(model.hasXfa, false);
    const byName = new Map<string, any>(model.fields.map((f: any) => [f.name, f]));
    assert.deepEqual([...byName.keys()], ['comment', 'agree', 'color', 'country', 'town', 'toppings', 'id', 'person.name', 'person.email', 'ref', 'submit', 'sig']);
    const qpdf = qpdfFields(pdf);
    for (const q of qpdf) {
      const ours = byName.get(q.fullname);
      assert.ok(ours, `qpdf's field ${q.fullname} is listed`);
      assert.equal(QPDF_TYPE[ours.type], q.fieldtype, `${q.fullname}: type`);
      assert.equal(ours.widgets.length, q.pages.length, `${q.fullname}: widgets`);
      if (ours.type === 'text' || ours.type === 'combo') assert.equal(ours.value, q.value ?? '', `${q.fullname}: value`);
      if (ours.type === 'checkbox' || ours.type === 'radio') assert.equal(ours.value, q.value ?? 'Off', `${q.fullname}: value`);
      if (ours.type === 'list') assert.deepEqual(ours.value, q.value, `${q.fullname}: value`);
    }
    assert.equal(qpdf.length, byName.size);
    assert.deepEqual(byName.get('country').options, [{ exportValue: 'DE', displayText: 'DE' }, { exportValue: 'FR', displayText: 'FR' }, { exportValue: 'us', displayText: 'United States' }]);
    assert.deepEqual(byName.get('color').options.map((o: any) => o.exportValue), ['Red', 'Green', 'Blue']);
    assert.equal(byName.get('color').value, 'Green');
    assert.equal(byName.get('town').editable, true);
    assert.equal(byName.get('toppings').multiSelect, true);
    assert.equal(byName.get('id').readOnly, true);
    assert.deepEqual(byName.get('ref').widgets.map((w: any) => w.rectangle), [{ x: 72, y: 340, width: 100, height: 20 }, { x: 300, y: 340, width: 100, height: 20 }]);
    assert.equal(byName.get('sig').signed, false);
    assert.equal(byName.get('submit').value, undefined);

    const xml = await call(server, 'GET', '/documents/fields/form.pdf/fields', { headers: { accept: 'application/xml' } });
    assert.match(xml.text, /<Fields>[\s\S]*?<field>\s*<name>comment<\/name>/);
    // The listing is cached by version: If-None-Match gives 304.
    const etag = reply.headers.get('etag')!;
    assert.equal((await call(server, 'GET', '/documents/fields/form.pdf/fields', { headers: { ...json, 'if-none-match': etag } })).status, 304);
  });

  test('widgets outside the /AcroForm tree are listed as qpdf lists them, and can be set and exported; a single-select list box\'s value is an array', async () => {
    const pdf = formWithStrayWidgets();
    await putPdf(server, 'fields/stray.pdf', pdf);
    const model = (await getFields('fields/stray.pdf')).json();
    const byName = new Map<string, any>(model.fields.map((f: any) => [f.name, f]));
    const qpdf = qpdfFields(pdf);
    assert.deepEqual([...byName.keys()].sort(), qpdf.map((q) => q.fullname).sort());
    for (const q of qpdf) {
      const ours = byName.get(q.fullname);
      assert.equal(QPDF_TYPE[ours.type], q.fieldtype, `${q.fullname}: type`);
      assert.deepEqual(ours.widgets.map((w: any) => w.pageIndex + 1), q.pages, `${q.fullname}: pages`);
    }
    assert.equal(byName.get('stray').value, 'not in the tree');
    assert.equal(byName.get('parentless').value, 'parent not in the tree');
    assert.equal(byName.get('address.street').value, 'Main St');
    assert.deepEqual(byName.get('size').value, ['M'], 'a list box value is an array, single-select too');
    assert.equal(byName.get('size').multiSelect, false);
    const xml = await call(server, 'GET', '/documents/fields/stray.pdf/fields', { headers: { accept: 'application/xml' } });
    assert.match(xml.text, /<name>size<\/name>[\s\S]*?<value>\s*<value>M<\/value>\s*<\/value>/);

    const set = await setField('fields/stray.pdf', 'stray', { value: 'set by PUT' });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.json().value, 'set by PUT');
    const list = await setField('fields/stray.pdf', 'size', { value: 'L' });
    assert.deepEqual(list.json().value, ['L']);
    assert.deepEqual((await setField('fields/stray.pdf', 'size', { value: ['S'] })).json().value, ['S']);
    const imported = await call(server, 'POST', '/documents/fields/stray.pdf/fields/content', {
      body: Buffer.from('<?xml version="1.0"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="parentless"><value>via XFDF</value></field></fields></xfdf>'),
      headers: { 'content-type': 'application/vnd.adobe.xfdf' },
    });
    assert.deepEqual(imported.json().set, ['parentless']);
    const values = Object.fromEntries(qpdfFields(await storedBytes(server, 'fields/stray.pdf')).map((f) => [f.fullname, f.value]));
    assert.equal(values['stray'], 'set by PUT');
    assert.equal(values['parentless'], 'via XFDF');
    assert.equal(values['size'], 'S');

    const xfdf = (await call(server, 'GET', '/documents/fields/stray.pdf/fields/content')).text;
    assert.match(xfdf, /<field name="stray">\n<value>set by PUT<\/value>/);
    assert.match(xfdf, /<field name="size">\n<value>S<\/value>\n<\/field>/);
    const fdf = (await call(server, 'GET', '/documents/fields/stray.pdf/fields/content', { headers: { accept: 'application/vnd.fdf' } })).bytes.toString('latin1');
    assert.match(fdf, /\/T \(size\) \/V \(S\)/, 'a single-select list is a string in FDF, as its /V is');
  });

  test('a text field whose value is a text stream (as long texts are) is listed with that text, and a reset empties it', async () => {
    const long = 'A long text kept in a stream. '.repeat(20).trim();
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 6 0 R >> >> >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Annots [4 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /FT /Tx /Ff 4096 /T (story) /V 5 0 R /Rect [20 20 380 380] /F 4 /DA (/Helv 12 Tf 0 g) /P 3 0 R >>',
      `<< /Length ${long.length} >>\nstream\n${long}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ];
    const doc = 'fields/stream-value.pdf';
    const pdf = serializePdf(objects, '/Root 1 0 R');
    await putPdf(server, doc, pdf);
    assert.equal((await getFields(doc)).json().fields[0].value, long);
    assert.equal(qpdfFields(pdf)[0]?.value, long, 'qpdf reads the same');
    const reset = await call(server, 'DELETE', `/documents/${doc}/fields`, { headers: json });
    assert.equal(reset.status, 200, reset.text);
    assert.equal(reset.json().fields[0].value, '');
    assert.equal(qpdfFields(await storedBytes(server, doc))[0]?.value ?? '', '');
  });

  test('defaults, a broken field tree (a loop, a kid without /T, a widget outside the tree) and XFA', async () => {
    await putPdf(server, 'fields/defaults.pdf', formWithDefaults());
    const model = (await getFields('fields/defaults.pdf')).json();
    const names = model.fields.map((f: any) => f.name);
    // The widget whose parent is in no /Fields is listed by its parent's name, as qpdf lists it (docs/forms.md).
    assert.deepEqual(names, ['note', 'ok', 'code', 'size', 'group', 'orphan']);
    assert.deepEqual([...names].sort(), qpdfFields(formWithDefaults()).map((f) => f.fullname).sort());
    assert.equal(model.fields[0].defaultValue, 'original');
    assert.equal(model.fields[1].defaultValue, 'Yes');

    const xfa = serializePdf(
      ['<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /XFA 5 0 R >> >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>', '<< /Type /Annot /Subtype /Widget /FT /Tx /T (x) /Rect [0 0 50 20] /P 3 0 R >>', '<< /Length 7 >>\nstream\n<xdp/>\nendstream'],
      '/Root 1 0 R',
    );
    await putPdf(server, 'fields/xfa.pdf', xfa);
    const withXfa = (await getFields('fields/xfa.pdf')).json();
    assert.equal(withXfa.hasXfa, true);
    assert.deepEqual(withXfa.fields.map((f: any) => f.name), ['x']);
  });
});

describe('setting one field', () => {
  test('text, checkbox, radio, combo and list values are set, shown by regenerated appearances, and read back by qpdf', async () => {
    const doc = 'fields/set.pdf';
    await putPdf(server, doc, makeFormPdf());
    const text = await setField(doc, 'comment', { value: 'Goodbye' });
    assert.equal(text.status, 200, text.text);
    assert.equal(text.json().value, 'Goodbye');
    assert.ok(text.headers.get('etag'));
    assert.equal((await setField(doc, 'agree', { value: 'Yes' })).json().value, 'Yes');
    assert.equal((await setField(doc, 'color', { value: 'Blue' })).json().value, 'Blue');
    assert.equal((await setField(doc, 'country', { value: 'us' })).json().value, 'us');
    assert.deepEqual((await setField(doc, 'toppings', { value: ['ham'] })).json().value, ['ham']);
    assert.equal((await setField(doc, 'person.name', { value: 'Zoë' })).json().value, 'Zoë');
    // XML body.
    const xml = await setField(doc, 'town', '<Field><value>Lyon</value></Field>', { 'content-type': 'application/xml' });
    assert.equal(xml.status, 200, xml.text);

    const bytes = await storedBytes(server, doc);
    assert.ok(qpdfCheck(bytes).ok);
    const values = Object.fromEntries(qpdfFields(bytes).map((f) => [f.fullname, f.value]));
    assert.equal(values['comment'], 'Goodbye');
    assert.equal(values['agree'], 'Yes');
    assert.equal(values['color'], 'Blue');
    assert.equal(values['country'], 'us');
    assert.equal(values['toppings'], 'ham');
    assert.equal(values['person.name'], 'Zoë');
    assert.equal(values['town'], 'Lyon');
    assert.match(appearanceOf(bytes, 'comment'), /Goodbye/, 'the appearance shows the new text');
    assert.doesNotMatch(appearanceOf(bytes, 'comment'), /Hello/);
    assert.match(appearanceOf(bytes, 'country'), /United States/, 'a combo box shows the display text of its export value');
  });

  test('bad values: 404 unknown field, 409 read-only, 400 listing the allowed values; nothing changes', async () => {
    const doc = 'fields/bad.pdf';
    await putPdf(server, doc, makeFormPdf());
    await unchanged(doc, () => setField(doc, 'nope', { value: 'x' }), 404, 'FIELD_NOT_FOUND');
    await unchanged(doc, () => setField(doc, 'id', { value: '43' }), 409, 'FIELD_READ_ONLY');
    const radio = await unchanged(doc, () => setField(doc, 'color', { value: 'Purple' }), 400, 'VALIDATION_FAILED');
    assert.deepEqual(radio.json().allowed, ['Red', 'Green', 'Blue', 'Off']);
    const combo = await unchanged(doc, () => setField(doc, 'country', { value: 'IT' }), 400, 'VALIDATION_FAILED');
    assert.deepEqual(combo.json().allowed, ['DE', 'FR', 'us']);
    await unchanged(doc, () => setField(doc, 'comment', { value: ['a', 'b'] }), 400, 'VALIDATION_FAILED');
    await unchanged(doc, () => setField(doc, 'comment', {}), 400, 'VALIDATION_FAILED');
    await unchanged(doc, () => setField(doc, 'comment', { value: 'x', extra: true }), 400, 'VALIDATION_FAILED');
    await unchanged(doc, () => setField(doc, 'submit', { value: 'x' }), 400, 'VALIDATION_FAILED');
    await unchanged(doc, () => setField(doc, 'comment', '<!DOCTYPE x [<!ENTITY e "v">]><Field><value>&e;</value></Field>', { 'content-type': 'application/xml' }), 400, 'MALFORMED_XML');
    // The value a read-only field already has is accepted, and nothing is written.
    const before = sha256(await storedBytes(server, doc));
    assert.equal((await setField(doc, 'id', { value: '42' })).status, 200);
    assert.equal(sha256(await storedBytes(server, doc)), before);
  });

  test('the value a field already has writes nothing: same bytes, same ETag, no new version (text, checkbox, radio, combo, list; PUT and XFDF import)', async () => {
    const doc = 'fields/same.pdf';
    await putPdf(server, doc, makeFormPdf());
    // The versions made, where the store keeps them (501 VERSIONS_NOT_KEPT otherwise: this file runs over WebDAV too, dms-suites).
    const versions = async () => {
      const reply = await call(server, 'GET', `/documents/${doc}/versions`, { headers: json });
      return reply.status === 501 ? undefined : (reply.json().total as number);
    };
    const before = sha256(await storedBytes(server, doc));
    const etag = (await call(server, 'HEAD', `/documents/${doc}`)).headers.get('etag');
    const kept = await versions();
    for (const [name, value] of [['comment', 'Hello'], ['agree', 'Off'], ['color', 'Green'], ['country', 'DE'], ['toppings', ['olives', 'cheese']], ['person.name', 'Bob']] as const) {
      const reply = await setField(doc, name, { value });
      assert.equal(reply.status, 200, `${name}: ${reply.text}`);
      assert.equal(reply.headers.get('etag'), etag, `${name}: the answer's ETag is the document's, unchanged`);
    }
    const imported = await call(server, 'POST', `/documents/${doc}/fields/content`, {
      body: Buffer.from('<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="comment"><value>Hello</value></field><field name="color"><value>Green</value></field></fields></xfdf>'),
      headers: { ...json, 'content-type': 'application/vnd.adobe.xfdf' },
    });
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual(imported.json().set, ['comment', 'color']);
    assert.equal(sha256(await storedBytes(server, doc)), before, 'the document was not written');
    assert.equal(await versions(), kept, 'no version was made');
    // A new value still writes, and makes one version.
    assert.equal((await setField(doc, 'comment', { value: 'Changed' })).status, 200);
    assert.notEqual(sha256(await storedBytes(server, doc)), before);
    if (kept !== undefined) assert.equal(await versions(), kept + 1);
  });

  test('a rich text field shows the new value: its old rich value (/RV), which MuPDF draws over /V, is removed', async () => {
    const rich = '<?xml version="1.0"?><body xmlns="http://www.w3.org/1999/xhtml"><p>Old <b>bold</b> text</p></body>';
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 5 0 R >> >> >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Annots [4 0 R] >>',
      `<< /Type /Annot /Subtype /Widget /FT /Tx /Ff 33554432 /T (rich) /V (Old bold text) /RV (${rich}) /DS (font: Helvetica 12pt) /Rect [20 340 320 360] /F 4 /DA (/Helv 12 Tf 0 g) /P 3 0 R >>`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ];
    const doc = 'fields/rich.pdf';
    await putPdf(server, doc, serializePdf(objects, '/Root 1 0 R'));
    assert.equal((await setField(doc, 'rich', { value: 'Plain new value' })).status, 200);
    const bytes = await storedBytes(server, doc);
    assert.equal(qpdfFields(bytes)[0]?.value, 'Plain new value');
    assert.equal((await action(doc, { FlattenFieldsAction: {} })).status, 200);
    const text = pdftotext(await storedBytes(server, doc));
    assert.match(text, /Plain new value/, 'the page shows the new value');
    assert.doesNotMatch(text, /Old/, 'and not the old rich one');
  });

  test('a document that sets NeedAppearances gets appearances for the values set', async () => {
    const doc = 'fields/need.pdf';
    await putPdf(server, doc, formWithDefaults());
    assert.equal((await setField(doc, 'note', { value: 'shown' })).status, 200);
    assert.match(appearanceOf(await storedBytes(server, doc), 'note'), /shown/);
  });
});

describe('a damaged file that MuPDF repairs only when it saves', () => {
  /**
   * A text field and a square annotation, and an object the catalog names
   * (/PieceInfo) that nothing reads before a save; its cross-reference entry
   * points at object 1. MuPDF repairs the table when it meets that object,
   * which rebuilds it from the file and drops the edits made until then: the
   * save used to write the document unchanged, and the request succeeded.
   */
  function lazilyRepaired(): Buffer {
    const square = 'q 1 0 0 rg 0 0 100 100 re f Q';
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 7 0 R >> >> >> /PieceInfo 8 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Annots [4 0 R 5 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (before) /Rect [20 340 220 360] /F 4 /DA (/Helv 12 Tf 0 g) /P 3 0 R >>',
      '<< /Type /Annot /Subtype /Square /NM (box) /Rect [50 50 150 150] /F 4 /AP << /N 6 0 R >> >>',
      `<< /Type /XObject /Subtype /Form /BBox [0 0 100 100] /Length ${square.length} >>\nstream\n${square}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Example << /Private (x) >> >>',
    ];
    const pdf = serializePdf(objects, '/Root 1 0 R').toString('latin1');
    const xref = pdf.lastIndexOf('\nxref\n') + 1;
    const entries = pdf.slice(xref).split('\n');
    // Line 3 is object 1's entry, line 10 object 8's.
    entries[10] = entries[3]!;
    return Buffer.from(pdf.slice(0, xref) + entries.join('\n'), 'latin1');
  }

  test('setting a field and flattening keep their changes', async () => {
    const doc = 'fields/lazy-repair.pdf';
    await putPdf(server, doc, lazilyRepaired());
    assert.equal((await setField(doc, 'name', { value: 'after' })).status, 200);
    const fields = (await getFields(doc)).json().fields;
    assert.equal(fields[0].value, 'after', 'the value is in the stored document');
    assert.equal(qpdfFields(await storedBytes(server, doc))[0]?.value, 'after');

    await putPdf(server, doc, lazilyRepaired());
    assert.equal((await action(doc, { FlattenAnnotationsAction: {} })).status, 200);
    assert.deepEqual(qpdfAnnotations(await storedBytes(server, doc)).map((a) => a.subtype), ['Widget'], 'the square was flattened');
  });
});

describe('resetting fields (DELETE .../fields)', () => {
  test('every field goes back to its default, read-only ones too; a default the field cannot take empties it, with a warning', async () => {
    const doc = 'fields/reset.pdf';
    await putPdf(server, doc, formWithDefaults());
    const reply = await call(server, 'DELETE', `/documents/${doc}/fields`, { headers: json });
    assert.equal(reply.status, 200, reply.text);
    const values = Object.fromEntries(reply.json().fields.map((f: any) => [f.name, f.value]));
    assert.deepEqual(values, { note: 'original', ok: 'Yes', code: 'A', size: '', group: '', orphan: '' });
    assert.equal(reply.json().warnings.length, 1);
    assert.match(reply.json().warnings[0], /size/);
    const bytes = await storedBytes(server, doc);
    assert.ok(qpdfCheck(bytes).ok);
    const q = Object.fromEntries(qpdfFields(bytes).map((f) => [f.fullname, f.value]));
    assert.equal(q['note'], 'original');
    assert.equal(q['ok'], 'Yes');
    assert.equal(q['code'], 'A');
    assert.match(appearanceOf(bytes, 'note'), /original/);
  });
});

describe('flattening', () => {
  test('FlattenFieldsAction: the page looks the same (pdftoppm), no field is left, the AcroForm is gone', async () => {
    const doc = 'fields/flatten.pdf';
    const pdf = makeFormPdf();
    await putPdf(server, doc, pdf);
    // Values set first, so the appearances are MuPDF's own on both sides of the comparison.
    assert.equal((await setField(doc, 'comment', { value: 'Flat text' })).status, 200);
    assert.equal((await setField(doc, 'toppings', { value: ['ham', 'olives'] })).status, 200);
    const before = await storedBytes(server, doc);
    const mupdfBefore = await mupdfRender(doc);
    const reply = await action(doc, { FlattenFieldsAction: { paintButtons: true } });
    assert.equal(reply.status, 200, reply.text);
    const after = await storedBytes(server, doc);
    assert.ok(qpdfCheck(after).ok, qpdfCheck(after).output);
    assert.deepEqual((await getFields(doc)).json().fields, []);
    assert.deepEqual(qpdfFields(after), []);
    assert.equal(qpdfAnnotations(after).filter((a) => a.subtype === 'Widget').length, 0);
    const diff = renderDifference(before, after);
    assert.ok(diff < 0.002, `renders differ in ${(diff * 100).toFixed(3)}% of pixels`);
    // And as MuPDF renders it (the service's own page image).
    const mupdfDiff = grayDifference(mupdfBefore, await mupdfRender(doc));
    assert.ok(mupdfDiff < 0.002, `MuPDF renders differ in ${(mupdfDiff * 100).toFixed(3)}% of pixels`);
  });

  test('FlattenFieldsAction: a check box whose appearance MuPDF draws shows its check in poppler (ZapfDingbats without WinAnsiEncoding)', async () => {
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /NeedAppearances true >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /FT /Btn /T (tick) /V /Yes /AS /Yes /Rect [50 50 110 110] /F 4 /P 3 0 R /MK << /CA (4) >> /DA (/ZaDb 0 Tf 0 g) >>',
    ];
    const doc = 'fields/tick.pdf';
    await putPdf(server, doc, serializePdf(objects, '/Root 1 0 R'));
    assert.equal((await action(doc, { FlattenFieldsAction: {} })).status, 200);
    const page = renderPage(await storedBytes(server, doc), 1, 72);
    let dark = 0;
    for (let y = 95; y < 145; y++) for (let x = 55; x < 105; x++) if (page.rgb(x, y).every((c) => c < 128)) dark++;
    assert.ok(dark > 100, `the check is drawn (${dark} dark pixels in the box)`);
  });

  test('FlattenFieldsAction drops push buttons unless paintButtons, and non-printing fields unless paintNonPrintableFields', async () => {
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R] >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R 5 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (go) /Rect [10 10 90 50] /F 4 /P 3 0 R /AP << /N 6 0 R >> >>',
      '<< /Type /Annot /Subtype /Widget /FT /Tx /T (hint) /V (x) /Rect [10 100 190 190] /F 0 /P 3 0 R /AP << /N 6 0 R >> >>',
      '<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Length 29 >>\nstream\n0 0 1 rg 0 0 10 10 re f\nendstream',
    ];
    const pdf = serializePdf(objects, '/Root 1 0 R');
    const blueAt = (bytes: Buffer, x: number, y: number) => {
      const r = renderPage(bytes, 1, 72);
      const [red, green, blue] = r.rgb(x, r.height - y);
      return blue > 200 && red < 60 && green < 60;
    };
    await putPdf(server, 'fields/buttons.pdf', pdf);
    assert.equal((await action('fields/buttons.pdf', { FlattenFieldsAction: {} })).status, 200);
    let out = await storedBytes(server, 'fields/buttons.pdf');
    assert.equal(blueAt(out, 50, 30), false, 'the push button is dropped by default');
    assert.equal(blueAt(out, 100, 150), false, 'the non-printing field is dropped by default');
    await putPdf(server, 'fields/buttons.pdf', pdf);
    assert.equal((await action('fields/buttons.pdf', { FlattenFieldsAction: { paintButtons: true, paintNonPrintableFields: true } })).status, 200);
    out = await storedBytes(server, 'fields/buttons.pdf');
    assert.equal(blueAt(out, 50, 30), true, 'paintButtons paints it');
    assert.equal(blueAt(out, 100, 150), true, 'paintNonPrintableFields paints it');
    await putPdf(server, 'fields/buttons.pdf', pdf);
    assert.equal((await action('fields/buttons.pdf', { FlattenFieldsAction: { paintButtons: true, paintOnlyImageButtons: true } })).status, 200);
    assert.equal(blueAt(await storedBytes(server, 'fields/buttons.pdf'), 50, 30), false, 'a button without an image is not painted with paintOnlyImageButtons');
  });

  test('FlattenAnnotationsAction: the page looks the same (pdftoppm), only links remain, popups and hidden ones go', async () => {
    const doc = 'fields/annots.pdf';
    const square = 'q 1 0 0 RG 0 0 1 rg 4 w 2 2 146 96 re B Q';
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R 5 0 R 6 0 R 7 0 R 8 0 R 9 0 R] >>',
      '<< /Type /Annot /Subtype /Square /NM (box) /Rect [50 600 200 700] /F 4 /C [1 0 0] /IC [0 0 1] /AP << /N 10 0 R >> >>',
      '<< /Type /Annot /Subtype /Square /NM (hidden) /Rect [50 300 200 400] /F 6 /AP << /N 10 0 R >> >>',
      '<< /Type /Annot /Subtype /Square /NM (screen-only) /Rect [250 300 400 400] /F 0 /AP << /N 10 0 R >> >>',
      '<< /Type /Annot /Subtype /Text /NM (note) /Rect [300 600 320 620] /F 4 /Contents (A note) /Popup 8 0 R /AP << /N 11 0 R >> >>',
      '<< /Type /Annot /Subtype /Popup /NM (note-popup) /Rect [330 500 500 600] /Parent 7 0 R /Open false >>',
      '<< /Type /Annot /Subtype /Link /NM (link) /Rect [300 150 400 200] /Border [0 0 0] /A << /S /URI /URI (https://example.com/) >> >>',
      `<< /Type /XObject /Subtype /Form /BBox [0 0 150 100] /Length ${square.length} >>\nstream\n${square}\nendstream`,
      '<< /Type /XObject /Subtype /Form /BBox [0 0 20 20] /Length 30 >>\nstream\n1 1 0 rg 0 0 20 20 re f 0 0 0 RG\nendstream',
    ];
    const pdf = serializePdf(objects, '/Root 1 0 R');
    await putPdf(server, doc, pdf);
    const mupdfBefore = await mupdfRender(doc);
    const reply = await action(doc, { FlattenAnnotationsAction: { paintNonPrintableAnnots: true } });
    assert.equal(reply.status, 200, reply.text);
    const after = await storedBytes(server, doc);
    assert.ok(qpdfCheck(after).ok, qpdfCheck(after).output);
    const left = (await call(server, 'GET', `/documents/${doc}/annotations`, { headers: json })).json().annotations;
    assert.deepEqual(left.map((a: any) => a.name), ['link'], 'only the link is left; the popup went with its note');
    // What a viewer showed before it shows after (poppler draws the appearances before, the page content after).
    const mupdfDiff = grayDifference(mupdfBefore, await mupdfRender(doc));
    assert.ok(mupdfDiff < 0.002, `MuPDF renders differ in ${(mupdfDiff * 100).toFixed(3)}% of pixels`);
    const diff = renderDifference(pdf, after);
    assert.ok(diff < 0.002, `renders differ in ${(diff * 100).toFixed(3)}% of pixels`);
    // The hidden square was not shown before and is not painted now.
    const r = renderPage(after, 1, 72);
    const [red, green, blue] = r.rgb(125, r.height - 350);
    assert.ok(red > 200 && green > 200 && blue > 200, 'the hidden annotation is not painted');

    // Without paintNonPrintableAnnots, the screen-only square is dropped.
    await putPdf(server, doc, pdf);
    assert.equal((await action(doc, { FlattenAnnotationsAction: { keepLinks: false } })).status, 200);
    const dropped = renderPage(await storedBytes(server, doc), 1, 72);
    const [r3, g3, b3] = dropped.rgb(325, dropped.height - 350);
    assert.ok(r3 > 200 && g3 > 200 && b3 > 200, 'the non-printing annotation is dropped');
    assert.deepEqual((await call(server, 'GET', `/documents/${doc}/annotations`, { headers: json })).json().annotations, [], 'keepLinks false removes the link too');
  });

});
