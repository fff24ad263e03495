import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { call, putPdf, storedBytes } from '../helpers/http.js';
import { pdftotext, qpdfCheck, withTempFile } from '../helpers/pdf.js';
import { serializePdf, type Part } from '../helpers/pdf-writer.js';
import { serverForSuite } from '../helpers/server.js';

/**
 * SanitizeAction on what issue 40's review found it missed (docs/sanitize.md): optional content on image and form
 * XObjects themselves (/OC on the XObject, not a marked-content section), membership dictionaries with a visibility
 * expression (/VE), and the JavaScript of RichMedia (activation scripts, their assets) and 3D annotations (a 3D
 * stream's /OnInstantiate). Checked by qpdf (its JSON and its decompressed streams), not by the engine under test.
 */
const server = serverForSuite();

const stream = (dict: string, data: string): Part[] => [`<< ${dict} /Length ${Buffer.byteLength(data, 'latin1')} >>\nstream\n`, data, '\nendstream'];

/**
 * One page. Layer 5 is OFF, layer 6 ON. Hidden, each with "Secret" in its text or data: a section marked with an OCMD
 * whose /VE ([/Or hidden [/Not shown]]) hides it although its /OCGs and /P alone would show it; an image XObject and a
 * form XObject whose own /OC is the hidden layer. Shown: a section whose /VE ([/Not hidden]) shows it, a form without
 * /OC. Scripts: a RichMedia annotation's activation script (an asset, script.js, beside the movie asset it keeps) and a
 * 3D annotation's stream with /OnInstantiate.
 */
function gapsFixture(): Buffer {
  const page = [
    'BT /F1 24 Tf 72 700 Td (Visible body text) Tj ET',
    '/OC /VeHidden BDC BT /F1 18 Tf 72 650 Td (Secret by expression) Tj ET EMC',
    '/OC /VeShown BDC BT /F1 18 Tf 72 600 Td (Shown by expression) Tj ET EMC',
    'q 100 0 0 100 72 300 cm /Im Do Q',
    '/Fh Do',
    '/Fv Do',
  ].join('\n');
  const objects: (string | Part[])[] = [
    /* 1 */ '<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [5 0 R 6 0 R] /D << /OFF [5 0 R] >> >> >>',
    /* 2 */ '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    /* 3 */ '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /Properties << /VeHidden 9 0 R /VeShown 10 0 R >> ' +
      '/XObject << /Im 11 0 R /Fh 12 0 R /Fv 13 0 R >> >> /Contents 7 0 R /Annots [14 0 R 15 0 R] >>',
    /* 4 */ '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    /* 5 */ '<< /Type /OCG /Name (Hidden layer) >>',
    /* 6 */ '<< /Type /OCG /Name (Shown layer) >>',
    /* 7 */ stream('', page),
    /* 8 */ '<< /Type /OCG /Name (Unused) >>',
    /* 9 */ '<< /Type /OCMD /OCGs [6 0 R] /P /AnyOn /VE [/Or 5 0 R [/Not 6 0 R]] >>',
    /* 10 */ '<< /Type /OCMD /OCGs [5 0 R] /VE [/Not 5 0 R] >>',
    /* 11 */ stream('/Type /XObject /Subtype /Image /Width 2 /Height 1 /ColorSpace /DeviceRGB /BitsPerComponent 8 /OC 5 0 R /SecretImage true', '\xff\x00\x00\xff\x00\x00'),
    /* 12 */ stream('/Type /XObject /Subtype /Form /BBox [0 0 612 792] /OC 5 0 R /Resources << /Font << /F1 4 0 R >> >>', 'BT /F1 18 Tf 72 500 Td (Secret form by OC) Tj ET'),
    /* 13 */ stream('/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >>', 'BT /F1 18 Tf 72 450 Td (Form visible text) Tj ET'),
    /* 14 */ '<< /Type /Annot /Subtype /RichMedia /Rect [300 100 400 200] /F 2 /RichMediaSettings << /Activation << /Type /RichMediaActivation /Scripts [16 0 R] >> >> ' +
      '/RichMediaContent << /Assets << /Names [(movie.swf) 17 0 R (script.js) 16 0 R] >> >> >>',
    /* 15 */ '<< /Type /Annot /Subtype /3D /Rect [300 250 400 350] /F 2 /3DD 20 0 R >>',
    /* 16 */ '<< /Type /Filespec /F (script.js) /UF (script.js) /EF << /F 18 0 R >> >>',
    /* 17 */ '<< /Type /Filespec /F (movie.swf) /UF (movie.swf) /EF << /F 19 0 R >> >>',
    /* 18 */ stream('/Type /EmbeddedFile', 'app.alert("Secret activation script");'),
    /* 19 */ stream('/Type /EmbeddedFile', 'FWS movie data'),
    /* 20 */ stream('/Type /3D /Subtype /U3D /OnInstantiate 21 0 R', 'U3D model data'),
    /* 21 */ stream('', 'host.alert("Secret 3D script");'),
  ];
  return serializePdf(objects, '/Root 1 0 R');
}

/** qpdf --json's objects (stream dictionaries as values), and the file with every stream decompressed (qdf). */
function byQpdf(pdf: Buffer): { objects: Record<string, unknown>; plain: string } {
  return withTempFile(pdf, (file) => {
    const json = spawnSync('qpdf', ['--json=2', '--json-key=qpdf', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.ok(json.status === 0 || json.status === 3, json.stderr);
    const entries = (JSON.parse(json.stdout) as { qpdf: [unknown, Record<string, { value?: unknown; stream?: { dict: unknown } }>] }).qpdf[1];
    const objects = Object.fromEntries(Object.entries(entries).map(([k, e]) => [k, e.stream ? e.stream.dict : e.value]));
    const plain = (spawnSync('qpdf', ['--qdf', '--object-streams=disable', file, '-'], { maxBuffer: 1 << 26 }).stdout as Buffer).toString('latin1');
    return { objects, plain };
  });
}

/** Where (object and key path) any dictionary has `key`, or a value equal to `value`. */
function where(objects: Record<string, unknown>, test: (dict: Record<string, unknown>) => boolean): string[] {
  const found: string[] = [];
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${at}[${i}]`));
    if (!value || typeof value !== 'object') return;
    const dict = value as Record<string, unknown>;
    if (test(dict)) found.push(at);
    for (const [k, v] of Object.entries(dict)) walk(v, `${at}${k}`);
  };
  for (const [k, v] of Object.entries(objects)) walk(v, k);
  return found;
}

describe('SanitizeAction: the gaps of issue 40\'s review', () => {
  test('hidden optional content on image and form XObjects and by visibility expressions goes; JavaScript of RichMedia and 3D annotations goes; qpdf finds none of it', async () => {
    const source = gapsFixture();
    assert.equal((await putPdf(server, 'gaps/doc.pdf', source)).status, 201);
    const before = byQpdf(source);
    // The fixture holds what is to go (so the checks below can fail).
    assert.match(before.plain, /Secret by expression[\s\S]*Secret form by OC/);
    assert.equal(where(before.objects, (d) => '/Scripts' in d || '/OnInstantiate' in d).length, 2);

    // Embedded files kept: the scripts' assets must go as JavaScript, not as files.
    const reply = await call(server, 'POST', '/documents/gaps/doc.pdf', { body: { SanitizeAction: { hiddenContent: true, embeddedFiles: false, outsideLinks: false, formActions: false } } });
    assert.equal(reply.status, 200, reply.text);
    const { removed, verified } = reply.json().report;
    assert.equal(verified, true);
    // Scripts: RichMedia's activation script and the 3D stream's. Hidden: the /VE section, the image's and the form's invocations and resource entries.
    assert.deepEqual([removed.javascript, removed.hiddenContent, removed.embeddedFiles], [2, 5, 0]);

    const pdf = await storedBytes(server, 'gaps/doc.pdf');
    assert.ok(qpdfCheck(pdf).ok, qpdfCheck(pdf).output);
    const after = byQpdf(pdf);
    assert.doesNotMatch(after.plain, /Secret/, 'no hidden text, image, script or script file left in any stream');
    assert.deepEqual(where(after.objects, (d) => '/Scripts' in d || '/OnInstantiate' in d), []);
    assert.deepEqual(where(after.objects, (d) => d['/OC'] === '5 0 R' || '/SecretImage' in d), [], 'no XObject of the hidden layer');
    assert.deepEqual(where(after.objects, (d) => d['/UF'] === 'u:script.js'), [], 'the script asset is gone');
    assert.equal(where(after.objects, (d) => d['/UF'] === 'u:movie.swf').length, 1, 'the movie asset stays (embeddedFiles off)');
    assert.match(after.plain, /FWS movie data/);
    const text = pdftotext(pdf);
    for (const line of ['Visible body text', 'Shown by expression', 'Form visible text']) assert.match(text, new RegExp(line));
    assert.doesNotMatch(text, /Secret/);
  });

  test('switches off: hiddenContent false and javascript false keep all of it', async () => {
    assert.equal((await putPdf(server, 'gaps/kept.pdf', gapsFixture())).status, 201);
    const reply = await call(server, 'POST', '/documents/gaps/kept.pdf', { body: { SanitizeAction: { javascript: false, embeddedFiles: false, outsideLinks: false, formActions: false } } });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual([reply.json().report.removed.javascript, reply.json().report.removed.hiddenContent], [0, 0]);
    const after = byQpdf(await storedBytes(server, 'gaps/kept.pdf'));
    assert.equal(where(after.objects, (d) => '/Scripts' in d || '/OnInstantiate' in d).length, 2);
    assert.match(after.plain, /Secret by expression[\s\S]*Secret form by OC/);
  });
});
