import { execFileSync } from 'node:child_process';

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
