import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Word and ODF fixtures built in code for the Office conversion tests: a ZIP
 * written by Python's zipfile (a writer independent of the service's reader),
 * parts given as text.
 */
export function zipOf(parts: Record<string, string>, stored: string[] = ['mimetype']): Buffer {
  const script = [
    'import io, json, sys, zipfile',
    'parts, stored = json.load(sys.stdin)',
    'out = io.BytesIO()',
    'with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:',
    '    for name, text in parts.items():',
    // ODF wants its mimetype entry first and stored.
    '        z.writestr(name, text, zipfile.ZIP_STORED if name in stored else zipfile.ZIP_DEFLATED)',
    'sys.stdout.buffer.write(out.getvalue())',
  ].join('\n');
  return execFileSync('python3', ['-c', script], { input: JSON.stringify([parts, stored]), maxBuffer: 256 * 1024 * 1024 });
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const IMAGE_REL = `${R}/image`;
export const OLE_REL = `${R}/oleObject`;
const MAIN_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';

export interface Relationship {
  id: string;
  type: string;
  target: string;
}

export function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A .docx whose body is `bodyXml` (WordprocessingML paragraphs); every relationship is external. */
export function docx(bodyXml: string, relationships: Relationship[] = []): Buffer {
  return zipOf({
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/word/document.xml" ContentType="${MAIN_TYPE}"/></Types>`,
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/_rels/document.xml.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      relationships.map((r) => `<Relationship Id="${r.id}" Type="${r.type}" Target="${xmlEscape(r.target)}" TargetMode="External"/>`).join('') +
      '</Relationships>',
    'word/document.xml':
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" xmlns:r="${R}" ` +
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
      'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">' +
      `<w:body>${bodyXml}</w:body></w:document>`,
  });
}

export function paragraph(text: string): string {
  return `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r></w:p>`;
}

/** A picture linked (not embedded) through relationship `rid`, as DrawingML and as VML. */
export function linkedPicture(rid: string, n: number): string {
  const size = 'cx="952500" cy="952500"';
  return (
    `<w:p><w:r><w:drawing><wp:inline><wp:extent ${size}/><wp:docPr id="${n}" name="Picture ${n}"/>` +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
    `<pic:nvPicPr><pic:cNvPr id="${n}" name="p${n}.png"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:link="${rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext ${size}/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>' +
    `<w:p><w:r><w:pict><v:shape id="vml${n}" style="width:75pt;height:75pt"><v:imagedata r:id="${rid}" o:title=""/></v:shape></w:pict></w:r></w:p>`
  );
}

/** A field with instruction `instr`, both as a complex field and as a simple one. */
export function field(instr: string): string {
  const run = (inner: string) => `<w:r>${inner}</w:r>`;
  return (
    '<w:p>' +
    run('<w:fldChar w:fldCharType="begin"/>') +
    run(`<w:instrText xml:space="preserve"> ${xmlEscape(instr)} </w:instrText>`) +
    run('<w:fldChar w:fldCharType="separate"/>') +
    run('<w:t>cached result</w:t>') +
    run('<w:fldChar w:fldCharType="end"/>') +
    '</w:p>' +
    `<w:p><w:fldSimple w:instr=" ${xmlEscape(instr)} "><w:r><w:t>cached simple result</w:t></w:r></w:fldSimple></w:p>`
  );
}

/** A linked (not embedded) OLE object whose source is relationship `oleRid`, shown by picture `picRid`. */
export function oleLink(oleRid: string, picRid: string, n: number): string {
  return (
    `<w:p><w:r><w:object><v:shape id="ole${n}" style="width:100pt;height:50pt"><v:imagedata r:id="${picRid}" o:title=""/></v:shape>` +
    `<o:OLEObject Type="Link" ProgID="AcroExch.Document.DC" ShapeID="ole${n}" DrawAspect="Content" r:id="${oleRid}" UpdateMode="Always">` +
    '<o:LinkType>EnhancedMetaFile</o:LinkType><o:LockedField>false</o:LockedField></o:OLEObject></w:object></w:r></w:p>'
  );
}

/** A flat ODF text document (.fodt) with `bodyXml` inside office:text. */
export function fodt(bodyXml: string): Buffer {
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>' +
      '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
      'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">' +
      `<office:body><office:text>${bodyXml}</office:text></office:body></office:document>`,
  );
}

/** An ODF image linked from `href`. */
export function fodtImage(href: string, n: number): string {
  return (
    `<text:p><draw:frame draw:name="img${n}" svg:width="2cm" svg:height="2cm" text:anchor-type="as-char">` +
    `<draw:image xlink:href="${xmlEscape(href)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`
  );
}

/** An ODF section whose content is linked from `href` (read as plain text). */
export function fodtSection(href: string, n: number): string {
  return `<text:section text:name="linked${n}"><text:section-source xlink:href="${xmlEscape(href)}" text:filter-name="Text"/><text:p>cached section</text:p></text:section>`;
}

// ---- One small document per Office format (test/tools/office-formats.test.ts) ----

const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

function contentTypesXml(overrides: Record<string, string>): string {
  return (
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    Object.entries(overrides).map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('') +
    '</Types>'
  );
}

function relsXml(rels: Array<[id: string, type: string, target: string]>): string {
  return `${XML_HEAD}<Relationships xmlns="${PKG_RELS}">${rels.map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`).join('')}</Relationships>`;
}

/** A .docx (or, with `macroEnabled`, a .docm: the same parts under the macro-enabled main type) with one page per entry of `pages`. */
export function wordDocument(pages: string[], macroEnabled = false): Buffer {
  const body = pages.map((text, i) => paragraph(text) + (i < pages.length - 1 ? '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' : '')).join('');
  const bytes = docx(body);
  return macroEnabled ? replaceInZip(bytes, '[Content_Types].xml', [MAIN_TYPE, 'application/vnd.ms-word.document.macroEnabled.main+xml']) : bytes;
}

/** An .xlsx (or .xlsm) with one sheet per entry of `sheets`, each holding its text in A1 and a number in B1 (inline strings: no shared-strings part). */
export function workbook(sheets: string[], macroEnabled = false): Buffer {
  const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const parts: Record<string, string> = {
    '[Content_Types].xml': contentTypesXml({
      '/xl/workbook.xml': macroEnabled ? 'application/vnd.ms-excel.sheet.macroEnabled.main+xml' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      ...Object.fromEntries(sheets.map((_, i) => [`/xl/worksheets/sheet${i + 1}.xml`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml'])),
    }),
    '_rels/.rels': relsXml([['rId1', `${R}/officeDocument`, 'xl/workbook.xml']]),
    'xl/_rels/workbook.xml.rels': relsXml(sheets.map((_, i) => [`rId${i + 1}`, `${R}/worksheet`, `worksheets/sheet${i + 1}.xml`])),
    'xl/workbook.xml':
      `${XML_HEAD}<workbook xmlns="${S}" xmlns:r="${R}"><sheets>` +
      sheets.map((_, i) => `<sheet name="Sheet${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
      '</sheets></workbook>',
  };
  sheets.forEach((text, i) => {
    parts[`xl/worksheets/sheet${i + 1}.xml`] =
      `${XML_HEAD}<worksheet xmlns="${S}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${xmlEscape(text)}</t></is></c><c r="B1"><v>${42 + i}</v></c></row></sheetData></worksheet>`;
  });
  return zipOf(parts);
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"';

export type OdfKind = 'text' | 'spreadsheet' | 'presentation';

/** The office:body content of an ODF document of `kind`: a page-broken text, one table per sheet, or one slide per entry (with speaker notes). */
function odfBody(kind: OdfKind, items: string[]): string {
  if (kind === 'text') return `<office:text>${items.map((t, i) => `<text:p${i > 0 ? ' text:style-name="Break"' : ''}>${xmlEscape(t)}</text:p>`).join('')}</office:text>`;
  if (kind === 'spreadsheet') {
    return `<office:spreadsheet>${items
      .map((t, i) => `<table:table table:name="Sheet${i + 1}"><table:table-row><table:table-cell office:value-type="string"><text:p>${xmlEscape(t)}</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="${42 + i}"><text:p>${42 + i}</text:p></table:table-cell></table:table-row></table:table>`)
      .join('')}</office:spreadsheet>`;
  }
  return `<office:presentation>${items
    .map(
      (t, i) =>
        `<draw:page draw:name="Slide${i + 1}" draw:master-page-name="Default"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>${xmlEscape(t)}</text:p></draw:text-box></draw:frame>` +
        `<presentation:notes><draw:frame presentation:class="notes" svg:x="2cm" svg:y="14cm" svg:width="17cm" svg:height="10cm"><draw:text-box><text:p>Speaker notes ${i + 1}</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>`,
    )
    .join('')}</office:presentation>`;
}

const ODF_STYLES =
  '<office:automatic-styles><style:style style:name="Break" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style></office:automatic-styles>';
const ODF_MASTER = '<office:master-styles><style:master-page style:name="Default"/></office:master-styles>';
const MIMETYPES: Record<OdfKind, string> = {
  text: 'application/vnd.oasis.opendocument.text',
  spreadsheet: 'application/vnd.oasis.opendocument.spreadsheet',
  presentation: 'application/vnd.oasis.opendocument.presentation',
};

/** An ODF package (.odt, .ods, .odp). `encrypted` only lists encryption data in the manifest (for detection: the parts stay plain). */
export function odfPackage(kind: OdfKind, items: string[], encrypted = false): Buffer {
  const encryption = encrypted
    ? '<manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAA"><manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAA"/><manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="100000" manifest:salt="AAAA"/></manifest:encryption-data>'
    : '';
  return zipOf({
    mimetype: MIMETYPES[kind],
    'META-INF/manifest.xml':
      '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">' +
      `<manifest:file-entry manifest:full-path="/" manifest:media-type="${MIMETYPES[kind]}"/>` +
      `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">${encryption}</manifest:file-entry>` +
      '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    'content.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS} office:version="1.3">${ODF_STYLES}<office:body>${odfBody(kind, items)}</office:body></office:document-content>`,
    'styles.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ODF_NS} office:version="1.3">${ODF_MASTER}</office:document-styles>`,
  });
}

/** A flat ODF file (.fodt, .fods, .fodp): the same content in one XML document. */
export function flatOdf(kind: OdfKind, items: string[]): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><office:document ${ODF_NS} office:version="1.3" office:mimetype="${MIMETYPES[kind]}">` +
      `${ODF_STYLES}${ODF_MASTER}<office:body>${odfBody(kind, items)}</office:body></office:document>`,
  );
}

/** An RTF document with one page per entry of `pages`. */
export function rtfDocument(pages: string[]): Buffer {
  const escape = (t: string) => t.replace(/[\\{}]/g, (c) => `\\${c}`);
  return Buffer.from(`{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Liberation Serif;}}\\f0\\fs24 ${pages.map((p) => `${escape(p)}\\par`).join('\\page ')}}`);
}

/** The parts of a ZIP package with `name`'s text changed by replacing `from` with `to` (python zipfile, as zipOf writes). */
export function replaceInZip(zip: Buffer, name: string, [from, to]: [string, string]): Buffer {
  const script = [
    'import io, sys, zipfile',
    'name, old, new = sys.argv[1:4]',
    'src = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))',
    'out = io.BytesIO()',
    'with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:',
    '    for info in src.infolist():',
    '        data = src.read(info.filename)',
    '        if info.filename == name:',
    '            assert old.encode() in data, "not found"',
    '            data = data.replace(old.encode(), new.encode())',
    '        z.writestr(info.filename, data, zipfile.ZIP_STORED if info.filename == "mimetype" else zipfile.ZIP_DEFLATED)',
    'sys.stdout.buffer.write(out.getvalue())',
  ].join('\n');
  return execFileSync('python3', ['-c', script, name, from, to], { input: zip, maxBuffer: 256 * 1024 * 1024 });
}

/**
 * An OLE2 compound file (512-byte sectors) holding `streams` at its top level, each padded to at least 4096 bytes so
 * that all live in regular sectors. Enough for the service's detection (encrypted Office files); not for LibreOffice.
 */
export function compoundFileOf(streams: Array<[name: string, data: Buffer]>): Buffer {
  const SECTOR = 512;
  const FREE = 0xffffffff;
  const END = 0xfffffffe;
  const FATSECT = 0xfffffffd;
  const padded = streams.map(([name, data]) => [name, Buffer.concat([data, Buffer.alloc(Math.max(0, 4096 - data.length))])] as const);
  const dirSectors = Math.ceil((padded.length + 1) / 4);
  const streamSectors = padded.map(([, data]) => Math.ceil(data.length / SECTOR));
  const total = 1 + dirSectors + streamSectors.reduce((a, b) => a + b, 0);
  if (total > 128) throw new Error('compoundFileOf: one FAT sector only');
  const fat = Buffer.alloc(SECTOR, 0xff);
  fat.writeUInt32LE(FATSECT, 0);
  for (let i = 0; i < dirSectors; i++) fat.writeUInt32LE(i === dirSectors - 1 ? END : 2 + i, (1 + i) * 4);
  const starts: number[] = [];
  let next = 1 + dirSectors;
  for (const count of streamSectors) {
    starts.push(next);
    for (let i = 0; i < count; i++) fat.writeUInt32LE(i === count - 1 ? END : next + i + 1, (next + i) * 4);
    next += count;
  }
  const header = Buffer.alloc(SECTOR);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c); // one FAT sector
  header.writeUInt32LE(1, 0x30); // the directory starts at sector 1
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(END, 0x3c); // no mini FAT
  header.writeUInt32LE(END, 0x44); // no DIFAT sectors
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : FREE, 0x4c + i * 4);
  const dir = Buffer.alloc(dirSectors * SECTOR);
  const entry = (index: number, name: string, type: number, child: number, right: number, start: number, size: number) => {
    const at = index * 128;
    dir.write(name, at, 'utf16le');
    dir.writeUInt16LE((name.length + 1) * 2, at + 0x40);
    dir[at + 0x42] = type;
    dir[at + 0x43] = 1; // black
    dir.writeUInt32LE(FREE, at + 0x44);
    dir.writeUInt32LE(right, at + 0x48);
    dir.writeUInt32LE(child, at + 0x4c);
    dir.writeUInt32LE(start, at + 0x74);
    dir.writeUInt32LE(size, at + 0x78);
  };
  entry(0, 'Root Entry', 5, padded.length ? 1 : FREE, FREE, END, 0);
  padded.forEach(([name, data], i) => entry(i + 1, name, 2, FREE, i + 1 < padded.length ? i + 2 : FREE, starts[i]!, data.length));
  const body = Buffer.concat(padded.map(([, data]) => Buffer.concat([data, Buffer.alloc(Math.ceil(data.length / SECTOR) * SECTOR - data.length)])));
  return Buffer.concat([header, fat, dir, body]);
}

/**
 * `pkg` (an OOXML ZIP) encrypted as Office 2010 and later encrypt it (MS-OFFCRYPTO agile encryption: AES-256-CBC,
 * SHA-512, 100,000 spins), under `password`: an OLE2 file with EncryptionInfo and EncryptedPackage streams. Office's
 * default password "VelvetSweatshop" makes the file of a workbook or document that is only protected.
 */
export function agileEncrypted(pkg: Buffer, password: string): Buffer {
  const H = (...parts: Buffer[]) => parts.reduce((h, part) => h.update(part), createHash('sha512')).digest();
  const aes = (key: Buffer, iv: Buffer, data: Buffer) => {
    const cipher = createCipheriv('aes-256-cbc', key, iv.subarray(0, 16));
    cipher.setAutoPadding(false);
    return Buffer.concat([cipher.update(Buffer.concat([data, Buffer.alloc((16 - (data.length % 16)) % 16)])), cipher.final()]);
  };
  const keySalt = randomBytes(16);
  const passwordSalt = randomBytes(16);
  const secret = randomBytes(32);
  let hash = H(passwordSalt, Buffer.from(password, 'utf16le'));
  const iterator = Buffer.alloc(4);
  for (let i = 0; i < 100_000; i++) {
    iterator.writeUInt32LE(i);
    hash = H(iterator, hash);
  }
  const derived = (block: string) => H(hash, Buffer.from(block, 'hex')).subarray(0, 32);
  const verifier = randomBytes(16);
  const segments: Buffer[] = [];
  // At least one whole segment, so that compoundFileOf adds no padding that is not whole cipher blocks.
  const plain = Buffer.concat([pkg, Buffer.alloc(Math.max(0, 4096 - pkg.length))]);
  for (let at = 0, n = 0; at < plain.length; at += 4096, n++) {
    const number = Buffer.alloc(4);
    number.writeUInt32LE(n);
    segments.push(aes(secret, H(keySalt, number), plain.subarray(at, at + 4096)));
  }
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(pkg.length));
  const common = 'saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512"';
  const xml =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password">' +
    `<keyData ${common} saltValue="${keySalt.toString('base64')}"/>` +
    `<dataIntegrity encryptedHmacKey="${randomBytes(64).toString('base64')}" encryptedHmacValue="${randomBytes(64).toString('base64')}"/>` +
    '<keyEncryptors><keyEncryptor uri="http://schemas.microsoft.com/office/2006/keyEncryptor/password">' +
    `<p:encryptedKey spinCount="100000" ${common} saltValue="${passwordSalt.toString('base64')}" ` +
    `encryptedVerifierHashInput="${aes(derived('fea7d2763b4b9e79'), passwordSalt, verifier).toString('base64')}" ` +
    `encryptedVerifierHashValue="${aes(derived('d7aa0f6d3061344e'), passwordSalt, H(verifier)).toString('base64')}" ` +
    `encryptedKeyValue="${aes(derived('146e0be7abacd0d6'), passwordSalt, secret).toString('base64')}"/>` +
    '</keyEncryptor></keyEncryptors></encryption>';
  // Padded with spaces (allowed after the root element) so that compoundFileOf keeps it in regular sectors as it is.
  const info = Buffer.concat([Buffer.from('0400040040000000', 'hex'), Buffer.from(xml.padEnd(4096, ' '), 'utf8')]);
  return compoundFileOf([['EncryptionInfo', info], ['EncryptedPackage', Buffer.concat([size, ...segments])]]);
}

/**
 * An accessible flat ODF text (issue 42): headings, paragraphs and an embedded PNG with alternate text (svg:desc,
 * which LibreOffice writes as Word's picture description), the language en-GB, and `title` as its dc:title.
 */
export function accessibleFodt(png: Buffer, title?: string): Buffer {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><office:document ${ns} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">` +
      (title !== undefined ? `<office:meta><dc:title>${xmlEscape(title)}</dc:title></office:meta>` : '') +
      '<office:styles><style:default-style style:family="paragraph"><style:text-properties fo:language="en" fo:country="GB"/></style:default-style></office:styles>' +
      '<office:body><office:text>' +
      '<text:h text:outline-level="1">Quarterly report</text:h><text:p>Sales rose in every region this quarter.</text:p>' +
      '<text:h text:outline-level="2">Chart</text:h>' +
      '<text:p><draw:frame draw:name="chart" svg:width="2cm" svg:height="2cm" text:anchor-type="as-char"><draw:image>' +
      `<office:binary-data>${png.toString('base64')}</office:binary-data></draw:image>` +
      '<svg:title>Sales chart</svg:title><svg:desc>A red square standing for the sales chart</svg:desc></draw:frame></text:p>' +
      '<text:p>The end of the report.</text:p></office:text></office:body></office:document>',
  );
}

/** Flat ODF files saved as .docx by a LibreOffice run of its own (its own profile), as a user's Word files; in order. */
export function docxByLibreOffice(fodts: readonly Buffer[]): Buffer[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-docx-'));
  try {
    const inputs = fodts.map((bytes, i) => {
      const file = path.join(dir, `doc${i}.fodt`);
      writeFileSync(file, bytes);
      return file;
    });
    execFileSync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', 'docx', '--outdir', dir, ...inputs], { stdio: 'ignore', timeout: 120_000 });
    return inputs.map((file) => readFileSync(file.replace(/\.fodt$/, '.docx')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
