import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deflateSync, inflateSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { imageStampPdf, STAMP_COLOUR, STAMP_RECT } from '../helpers/appearance-pdf.js';
import { call, putPdf, sha256, storedBytes } from '../helpers/http.js';
import { encryptPdf, makePdf, qpdfCheck, renderPage } from '../helpers/pdf.js';
import { qpdfAnnotations } from '../helpers/qpdf-json.js';
import { serverForSuite } from '../helpers/server.js';

/** Acrobat's <appearance> (the annotation's /AP as base64 XML): export, import, and what is refused. */

const server = serverForSuite();

const XFDF = 'application/vnd.adobe.xfdf';
const exportXfdf = async (p: string) => {
  const reply = await call(server, 'GET', `/documents/${p}/annotations/content`);
  assert.equal(reply.status, 200, reply.text);
  return reply.text;
};
const importXfdf = (p: string, xfdf: string) => call(server, 'POST', `/documents/${p}/annotations/content`, { body: Buffer.from(xfdf), headers: { 'content-type': XFDF } });
const xfdfWith = (annots: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<xfdf xmlns="http://ns.adobe.com/xfdf/" xml:space="preserve"><annots>${annots}</annots></xfdf>`;

/** The decoded <appearance> of the annotation element named `name`. */
function appearanceOf(xfdf: string, name: string): string | undefined {
  const element = new RegExp(`<(\\w+) [^>]*name="${name}"[^>]*>([\\s\\S]*?)</\\1>`).exec(xfdf);
  const b64 = element && /<appearance>([^<]*)<\/appearance>/.exec(element[2]!)?.[1];
  return b64 ? Buffer.from(b64, 'base64').toString('utf8') : undefined;
}
/**
 * Appearance XML compared canonically: as a tree of plain values, streams by
 * their decoded bytes. The service saves documents compressed, so a stream
 * that came unfiltered comes back FlateDecode: the same appearance.
 */
type Node = Record<string, unknown> & { ':@'?: Record<string, string> };
const xmlParser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, processEntities: false });
function canonicalTree(xml: string): unknown {
  const value = (node: Node): unknown => {
    const tag = Object.keys(node).find((k) => k !== ':@')!;
    const attrs = node[':@'] ?? {};
    const children = ((node[tag] as Node[]) ?? []).filter((c) => !('#text' in c));
    if (tag === 'DICT') return Object.fromEntries(children.map((c) => [c[':@']!['KEY'], value(c)]));
    if (tag === 'ARRAY') return children.map(value);
    if (tag === 'STREAM') {
      const entries = Object.fromEntries(children.filter((c) => !('DATA' in c)).map((c) => [c[':@']!['KEY'], value(c)])) as Record<string, unknown>;
      const dataNode = children.find((c) => 'DATA' in c)!;
      const hex = ((dataNode['DATA'] as Node[])[0]?.['#text'] as string | undefined) ?? '';
      let data = Buffer.from(hex.replace(/\s+/g, ''), 'hex');
      if (JSON.stringify(entries['Filter']) === JSON.stringify(['NAME', 'FlateDecode'])) {
        data = inflateSync(data);
        delete entries['Filter'];
      }
      delete entries['Length'];
      return { ...entries, data: data.toString('hex') };
    }
    return [tag, attrs['VAL']];
  };
  return value((xmlParser.parse(xml) as Node[])[0]!);
}

/** The colour poppler draws at a point of PDF user space on a Letter page (72 dpi: one pixel per point). */
function colourAt(bytes: Buffer, x: number, y: number): [number, number, number] {
  return renderPage(bytes).rgb(Math.round(x), Math.round(792 - y));
}
function assertColour(actual: [number, number, number], expected: [number, number, number], what: string): void {
  assert.ok(actual.every((c, i) => Math.abs(c - expected[i]!) <= 8), `${what}: expected rgb(${expected}) but poppler drew rgb(${actual})`);
}
const centre = (r: readonly number[]) => [(r[0]! + r[2]!) / 2, (r[1]! + r[3]!) / 2] as const;

describe('<appearance> export and round trip', () => {
  test('a stamp with an image appearance exports its /AP (N, R, D) as Acrobat does, streams as stored, without back references or cycles', async () => {
    const { pdf, image, smask, content } = imageStampPdf();
    await putPdf(server, 'appearance/export.pdf', pdf);
    const xfdf = await exportXfdf('appearance/export.pdf');
    assert.match(xfdf, /<stamp page="0" rect="100,500,250,550" name="image-stamp"[^>]*>\s*<appearance>[A-Za-z0-9+/=]+<\/appearance>\s*<\/stamp>/);
    const xml = appearanceOf(xfdf, 'image-stamp')!;
    assert.match(xml, /^<DICT KEY="AP">/);
    for (const key of ['N', 'R']) assert.match(xml, new RegExp(`<STREAM KEY="${key}">\\s*<ARRAY KEY="BBox">\\s*<FIXED VAL="0"/>\\s*<FIXED VAL="0"/>\\s*<FIXED VAL="150"/>\\s*<FIXED VAL="50"/>\\s*</ARRAY>`));
    assert.match(xml, /<DICT KEY="D">\s*<STREAM KEY="Pressed">/, 'a state dictionary is carried as a DICT of streams');
    // The image and its soft mask: still compressed, /Filter kept, bytes exactly as in the file.
    const hex = (b: Buffer) => b.toString('hex').toUpperCase();
    assert.match(xml, new RegExp(`<STREAM KEY="Im1">[\\s\\S]*<NAME KEY="Filter" VAL="FlateDecode"/>[\\s\\S]*<STREAM KEY="SMask">[\\s\\S]*<DATA MODE="RAW" ENCODING="HEX">${hex(smask)}</DATA>\\s*</STREAM>[\\s\\S]*<NAME KEY="Subtype" VAL="Image"/>[\\s\\S]*<DATA MODE="RAW" ENCODING="HEX">${hex(image)}</DATA>`));
    assert.ok(xml.includes(`<INT KEY="Length" VAL="${content.length}"/>`));
    assert.ok(xml.includes(`<DATA MODE="RAW" ENCODING="HEX">${hex(content)}</DATA>`));
    assert.ok(xml.includes('<STRING KEY="Private" VAL="caf\\351 \\\\ (x)"/>'), 'strings in the XFDF string convention');
    assert.ok(!/KEY="(Self|Annot|P|Parent)"/.test(xml), 'no reference back to the annotation, no cycle');
    // The Pressed form's content was stored unfiltered: its bytes are the text.
    assert.ok(xml.includes(`<DATA MODE="RAW" ENCODING="HEX">${Buffer.from('0.5 g 0 0 150 50 re f').toString('hex').toUpperCase()}</DATA>`));
  });

  test('delete all, import the XFDF: the stamp shows its image again (poppler), qpdf --check passes, a second export gives the same appearance', async () => {
    await putPdf(server, 'appearance/round.pdf', imageStampPdf().pdf);
    const [cx, cy] = centre(STAMP_RECT);
    assertColour(colourAt(await storedBytes(server, 'appearance/round.pdf'), cx, cy), STAMP_COLOUR, 'the fixture as uploaded');
    const first = await exportXfdf('appearance/round.pdf');
    assert.equal((await call(server, 'DELETE', '/documents/appearance/round.pdf/annotations')).status, 200);
    assertColour(colourAt(await storedBytes(server, 'appearance/round.pdf'), cx, cy), [255, 255, 255], 'after deleting every annotation');

    const imported = await importXfdf('appearance/round.pdf', first);
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual(imported.json().created, ['image-stamp']);
    assert.deepEqual(imported.json().warnings, []);
    const bytes = await storedBytes(server, 'appearance/round.pdf');
    const check = qpdfCheck(bytes);
    assert.ok(check.ok, check.output);
    // Had the engine drawn the stamp anew it would show "APPROVED" (its /Name), not the image.
    assertColour(colourAt(bytes, cx, cy), STAMP_COLOUR, 'the imported stamp');
    assertColour(colourAt(bytes, STAMP_RECT[0] + 3, STAMP_RECT[1] + 3), STAMP_COLOUR, 'the image fills the rectangle');
    const stamp = qpdfAnnotations(bytes).find((a) => a.name === 'image-stamp')!;
    assert.ok(stamp.dict['/AP'], 'qpdf sees the /AP');

    const second = await exportXfdf('appearance/round.pdf');
    assert.deepEqual(canonicalTree(appearanceOf(second, 'image-stamp')!), canonicalTree(appearanceOf(first, 'image-stamp')!));
    const outside = (xfdf: string) => xfdf.replace(/<ids[^>]*\/>/, '').replace(/<appearance>[^<]*<\/appearance>/, '');
    assert.equal(outside(second), outside(first), 'the rest of the XFDF is the same');
    // The image's streams were compressed already: carried byte for byte.
    const imageOf = (xml: string) => /<STREAM KEY="Im1">[\s\S]*?<\/STREAM>\s*<\/STREAM>/.exec(xml)?.[0];
    assert.equal(imageOf(appearanceOf(second, 'image-stamp')!), imageOf(appearanceOf(first, 'image-stamp')!));
    // Once more: now every stream is stored as it will stay, and the payload is the same text.
    assert.equal((await call(server, 'DELETE', '/documents/appearance/round.pdf/annotations')).status, 200);
    assert.equal((await importXfdf('appearance/round.pdf', second)).status, 200);
    const third = await exportXfdf('appearance/round.pdf');
    assert.equal(third.replace(/<ids[^>]*\/>/, ''), second.replace(/<ids[^>]*\/>/, ''));
  });

  test('an encrypted document exports the same appearance, its streams decrypted; importing into it keeps them readable', async () => {
    const { pdf } = imageStampPdf();
    await putPdf(server, 'appearance/plain.pdf', pdf);
    await putPdf(server, 'appearance/locked.pdf', encryptPdf(pdf, 'user-pw', 'owner-pw'));
    const owner = { 'x-service-documentpassword': 'owner-pw' };
    const plain = await exportXfdf('appearance/plain.pdf');
    const locked = await call(server, 'GET', '/documents/appearance/locked.pdf/annotations/content', { headers: owner });
    assert.equal(locked.status, 200, locked.text);
    // qpdf compresses the one unfiltered stream as it encrypts: compared by content.
    assert.deepEqual(canonicalTree(appearanceOf(locked.text, 'image-stamp')!), canonicalTree(appearanceOf(plain, 'image-stamp')!));
    assert.ok(appearanceOf(locked.text, 'image-stamp')!.includes(imageStampPdf().image.toString('hex').toUpperCase()), 'the image bytes, decrypted');
    assert.equal((await call(server, 'DELETE', '/documents/appearance/locked.pdf/annotations', { headers: owner })).status, 200);
    const imported = await call(server, 'POST', '/documents/appearance/locked.pdf/annotations/content', { body: Buffer.from(plain), headers: { ...owner, 'content-type': XFDF } });
    assert.equal(imported.status, 200, imported.text);
    const again = await call(server, 'GET', '/documents/appearance/locked.pdf/annotations/content', { headers: owner });
    assert.deepEqual(canonicalTree(appearanceOf(again.text, 'image-stamp')!), canonicalTree(appearanceOf(plain, 'image-stamp')!));
  });

  test('importing over an existing stamp of the same name replaces its appearance in place', async () => {
    await putPdf(server, 'appearance/update.pdf', imageStampPdf().pdf);
    const xfdf = await exportXfdf('appearance/update.pdf');
    const blue = acrobatStyle({ content: '0 0 1 rg 0 0 150 50 re f', mode: 'FILTERED' });
    const replaced = xfdf.replace(/<appearance>[^<]*<\/appearance>/, `<appearance>${blue}</appearance>`);
    const reply = await importXfdf('appearance/update.pdf', replaced);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().updated, ['image-stamp']);
    const [cx, cy] = centre(STAMP_RECT);
    assertColour(colourAt(await storedBytes(server, 'appearance/update.pdf'), cx, cy), [0, 0, 255], 'the new appearance');
  });
});

/**
 * An <appearance> payload written by hand the way Acrobat writes one:
 * upper-case elements, BBox as FIXED, a /Length that is wrong (it is ignored),
 * hex data broken over lines, an attribute name in lower case, and either an
 * image (FlateDecode, raw) or a content stream given FILTERED as text.
 */
function acrobatStyle(options: { colour?: [number, number, number]; content?: string; mode?: 'RAW' | 'FILTERED' }): string {
  const hexLines = (b: Buffer) => b.toString('hex').toUpperCase().replace(/(.{32})/g, '$1\n      ');
  const colour = options.colour ?? [0, 0, 0];
  const pixels = Buffer.alloc(2 * 2 * 3);
  for (let i = 0; i < 4; i++) pixels.set(colour, i * 3);
  const image = deflateSync(pixels);
  const content = options.content ?? 'q 150 0 0 50 0 0 cm /Im1 Do Q';
  const data =
    options.mode === 'FILTERED'
      ? `<DATA MODE="FILTERED" ENCODING="ASCII">${content}</DATA>`
      : `<DATA MODE="RAW" ENCODING="HEX">\n      ${hexLines(deflateSync(Buffer.from(content)))}\n    </DATA>`;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<DICT KEY="AP">
  <STREAM KEY="N">
    <ARRAY KEY="BBox"><FIXED VAL="0"/><FIXED VAL="0"/><FIXED VAL="150.0"/><FIXED VAL="50"/></ARRAY>
    ${options.mode === 'FILTERED' ? '' : '<NAME KEY="Filter" VAL="FlateDecode"/>'}
    <INT KEY="FormType" VAL="1"/>
    <INT KEY="Length" VAL="99999"/>
    <DICT KEY="Resources">
      <DICT KEY="XObject">
        <STREAM key="Im1">
          <INT KEY="BitsPerComponent" VAL="8"/>
          <NAME KEY="ColorSpace" VAL="DeviceRGB"/>
          <NAME KEY="Filter" VAL="FlateDecode"/>
          <INT KEY="Height" VAL="2"/>
          <INT KEY="Length" VAL="1"/>
          <NAME KEY="Subtype" VAL="Image"/>
          <NAME KEY="Type" VAL="XObject"/>
          <INT KEY="Width" VAL="2"/>
          <DATA MODE="RAW" ENCODING="HEX">${hexLines(image)}</DATA>
        </STREAM>
      </DICT>
    </DICT>
    <NAME KEY="Subtype" VAL="Form"/>
    <NAME KEY="Type" VAL="XObject"/>
    ${data}
  </STREAM>
</DICT>`;
  // Acrobat wraps base64 too.
  return Buffer.from(xml, 'utf8').toString('base64').replace(/(.{76})/g, '$1\n');
}

describe('<appearance> import', () => {
  test("a hand-written payload in Acrobat's style imports and renders, FlateDecode or FILTERED text; the engine draws nothing over it", async () => {
    await putPdf(server, 'appearance/acrobat.pdf', makePdf({ pages: 1 }));
    const magenta: [number, number, number] = [0xc8, 0x1e, 0x96];
    const xfdf = xfdfWith(`
      <stamp page="0" rect="300,300,450,350" name="acro-image" title="Acrobat" icon="Draft"><appearance>${acrobatStyle({ colour: magenta })}</appearance></stamp>
      <stamp page="0" rect="300,200,450,250" name="acro-text"><appearance>${acrobatStyle({ content: '0 0 1 rg 0 0 150 50 re f', mode: 'FILTERED' })}</appearance></stamp>
      <stamp page="0" rect="300,100,450,150" name="drawn" icon="Approved"/>`);
    const reply = await importXfdf('appearance/acrobat.pdf', xfdf);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.json().warnings, []);
    const bytes = await storedBytes(server, 'appearance/acrobat.pdf');
    const check = qpdfCheck(bytes);
    assert.ok(check.ok, check.output);
    assertColour(colourAt(bytes, 375, 325), magenta, 'the image stamp');
    assertColour(colourAt(bytes, 375, 225), [0, 0, 255], 'the FILTERED content stream');
    const ap = qpdfAnnotations(bytes).find((a) => a.name === 'drawn')?.dict['/AP'];
    assert.ok(ap, 'a stamp without <appearance> still gets one drawn');
    // Exported again: raw streams as stored; the FILTERED one now compressed by the save, its text the same.
    const exported = await exportXfdf('appearance/acrobat.pdf');
    const image = appearanceOf(exported, 'acro-image')!;
    assert.match(image, /<INT KEY="FormType" VAL="1"\/>/);
    assert.ok(!image.includes('99999'), '/Length is the number of bytes carried');
    assert.ok(appearanceOf(exported, 'acro-text'), 'the FILTERED one is exported too');
  });

  test('an appearance that decodes but is not one is left out with a warning and drawn; unknown elements inside are left out with a warning', async () => {
    await putPdf(server, 'appearance/odd.pdf', makePdf({ pages: 1 }));
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const xfdf = xfdfWith(`
      <stamp page="0" rect="10,10,60,60" name="no-dict" icon="Draft"><appearance>${b64('<STREAM KEY="N"/>')}</appearance></stamp>
      <stamp page="0" rect="10,100,60,150" name="no-n"><appearance>${b64('<DICT KEY="AP"><STREAM KEY="D"/></DICT>')}</appearance></stamp>
      <stamp page="0" rect="10,200,60,250" name="odd"><appearance>${b64('<dict key="AP"><stream key="N"><SCRIPT KEY="JS" VAL="x"/><array key="BBox"><fixed val="0"/><fixed val="0"/><fixed val="50"/><fixed val="50"/></array><data mode="filtered" encoding="base64">' + Buffer.from('1 0 0 rg 0 0 50 50 re f').toString('base64') + '</data></stream></dict>')}</appearance></stamp>`);
    const reply = await importXfdf('appearance/odd.pdf', xfdf);
    assert.equal(reply.status, 200, reply.text);
    const warnings = reply.json().warnings as string[];
    assert.equal(warnings.length, 3, JSON.stringify(warnings));
    assert.match(warnings[0]!, /name="no-dict".*DICT/);
    assert.match(warnings[1]!, /name="no-n".*\(N\)/);
    assert.match(warnings[2]!, /name="odd".*<SCRIPT> is not an appearance element/);
    const bytes = await storedBytes(server, 'appearance/odd.pdf');
    for (const name of ['no-dict', 'no-n']) assert.ok(qpdfAnnotations(bytes).find((a) => a.name === name)?.dict['/AP'], `${name} got a drawn appearance`);
    assertColour(colourAt(bytes, 35, 225), [255, 0, 0], 'the lower-case payload with base64 FILTERED data');
  });

  test('hostile or broken payloads are 400 MALFORMED_XFDF and the stored document stays byte for byte the same', async () => {
    await putPdf(server, 'appearance/hostile.pdf', imageStampPdf().pdf);
    const original = sha256(await storedBytes(server, 'appearance/hostile.pdf'));
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const laughs = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "${'a'.repeat(50)}">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]><DICT KEY="AP"><STREAM KEY="N"><DATA MODE="FILTERED" ENCODING="ASCII">&j;</DATA></STREAM></DICT>`;
    const cases: [string, string, RegExp][] = [
      ['not base64', '%%% this is not base64 %%%', /not base64/],
      ['external entity', b64('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><DICT KEY="AP"><STREAM KEY="N"><DATA MODE="FILTERED" ENCODING="ASCII">&x;</DATA></STREAM></DICT>'), /DOCTYPE/],
      ['billion laughs', b64(laughs), /DOCTYPE/],
      ['absurd nesting', b64(`<DICT KEY="AP">${'<ARRAY KEY="x">'.repeat(20000)}${'</ARRAY>'.repeat(20000)}<STREAM KEY="N"/></DICT>`), /nested deeper than 32/],
      ['nesting one past the limit', b64(`<DICT KEY="AP"><STREAM KEY="N"/>${'<DICT KEY="x">'.repeat(31)}<ARRAY KEY="y"/>${'</DICT>'.repeat(31)}</DICT>`), /nested deeper than 32/],
      ['a flood of values', b64(`<DICT KEY="AP"><STREAM KEY="N"/><ARRAY KEY="x">${'<NULL/>'.repeat(60000)}</ARRAY></DICT>`), /more than 50000 values/],
      ['not well-formed', b64('<DICT KEY="AP"><STREAM KEY="N"></DICT>'), /not well-formed/],
      ['DATA that is not hex', b64('<DICT KEY="AP"><STREAM KEY="N"><DATA MODE="RAW" ENCODING="HEX">0x12 GG</DATA></STREAM></DICT>'), /not hex/],
    ];
    for (const [what, payload, message] of cases) {
      const reply = await importXfdf('appearance/hostile.pdf', xfdfWith(`<square page="0" rect="0,0,10,10" name="fine"/><stamp page="0" rect="10,10,60,60" name="bad"><appearance>${payload}</appearance></stamp>`));
      assert.equal(reply.status, 400, `${what}: ${reply.text}`);
      assert.equal(reply.json().code, 'MALFORMED_XFDF', what);
      assert.match(reply.json().detail, message, what);
      assert.match(reply.text, /name=\\?"bad\\?"/, `${what}: the message names the element`);
      assert.ok(!reply.text.includes('root:'), what);
    }
    // Nesting within the limit is fine.
    const deepest = b64(`<DICT KEY="AP"><STREAM KEY="N"/>${'<DICT KEY="x">'.repeat(30)}<ARRAY KEY="y"/>${'</DICT>'.repeat(30)}</DICT>`);
    assert.equal(sha256(await storedBytes(server, 'appearance/hostile.pdf')), original, 'nothing was written');
    const fine = await importXfdf('appearance/hostile.pdf', xfdfWith(`<stamp page="0" rect="10,10,60,60" name="deep"><appearance>${deepest}</appearance></stamp>`));
    assert.equal(fine.status, 200, fine.text);
  });
});
