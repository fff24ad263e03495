import { docx, paragraph, xmlEscape, zipOf } from '../test/helpers/office-fixtures.js';

/**
 * Small Office documents for the Office conversion benchmark, written as XML parts here (not by LibreOffice, the
 * program under test) and zipped by Python's zipfile: the same bytes on every run. Text comes from a fixed word list
 * walked by a linear congruential generator seeded per document.
 */
export const WORDS = (
  'report quarter revenue margin customer contract delivery schedule review budget invoice supplier service ' +
  'network capacity planning forecast region market product release team meeting action summary appendix'
).split(' ');

/** `count` words of WORDS picked by a linear congruential generator seeded by `seed`, as a sentence. */
export function words(seed: number, count: number): string {
  let state = seed >>> 0 || 1;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out.push(WORDS[state % WORDS.length]!);
  }
  const text = out.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

const PAGE_BREAK = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';

/** A .docx of `pages` pages (each a heading and eight paragraphs of about 60 words, well within one A4/Letter page, then a page break). */
export function benchDocx(seed: number, pages: number): Buffer {
  const body: string[] = [];
  for (let page = 0; page < pages; page++) {
    if (page > 0) body.push(PAGE_BREAK);
    body.push(paragraph(`Document ${seed}, page ${page + 1}`));
    for (let p = 0; p < 8; p++) body.push(paragraph(words(seed * 1000 + page * 10 + p, 60)));
  }
  return docx(body.join(''));
}

const SHEET_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const PML = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const DML = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'http://schemas.openxmlformats.org/package/2006/content-types';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const OFFICE_TYPE = 'application/vnd.openxmlformats-officedocument';

function rels(list: [id: string, type: string, target: string][]): string {
  return `${XML_HEAD}<Relationships xmlns="${PKG_RELS}">${list.map(([id, type, target]) => `<Relationship Id="${id}" Type="${R}/${type}" Target="${target}"/>`).join('')}</Relationships>`;
}

function contentTypes(overrides: [part: string, type: string][]): string {
  return (
    `${XML_HEAD}<Types xmlns="${CT}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/>${overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('')}</Types>`
  );
}

/** A one-sheet .xlsx: a header row and 40 rows of an item name, four numbers and a total formula (one or two printed pages). */
export function benchXlsx(seed: number): Buffer {
  const cell = (ref: string, value: string | number) =>
    typeof value === 'number' ? `<c r="${ref}"><v>${value}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${xmlEscape(value)}</t></is></c>`;
  const rows = [`<row r="1">${['Item', 'Q1', 'Q2', 'Q3', 'Q4', 'Total'].map((h, i) => cell(`${'ABCDEF'[i]}1`, h)).join('')}</row>`];
  for (let r = 2; r <= 41; r++) {
    const numbers = [1, 2, 3, 4].map((q) => ((seed * 7919 + r * 104729 + q * 1299709) % 9000) + 1000);
    rows.push(
      `<row r="${r}">${cell(`A${r}`, words(seed * 100 + r, 3))}${numbers.map((n, i) => cell(`${'BCDE'[i]}${r}`, n)).join('')}` +
        `<c r="F${r}"><f>SUM(B${r}:E${r})</f><v>${numbers.reduce((a, b) => a + b, 0)}</v></c></row>`,
    );
  }
  return zipOf({
    '[Content_Types].xml': contentTypes([
      ['/xl/workbook.xml', `${OFFICE_TYPE}.spreadsheetml.sheet.main+xml`],
      ['/xl/worksheets/sheet1.xml', `${OFFICE_TYPE}.spreadsheetml.worksheet+xml`],
    ]),
    '_rels/.rels': rels([['rId1', 'officeDocument', 'xl/workbook.xml']]),
    'xl/workbook.xml': `${XML_HEAD}<workbook xmlns="${SHEET_MAIN}" xmlns:r="${R}"><sheets><sheet name="Figures ${seed}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': rels([['rId1', 'worksheet', 'worksheets/sheet1.xml']]),
    'xl/worksheets/sheet1.xml': `${XML_HEAD}<worksheet xmlns="${SHEET_MAIN}"><sheetData>${rows.join('')}</sheetData></worksheet>`,
  });
}

const EMPTY_TREE = '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>';

/** The smallest theme PowerPoint's schema allows: twelve colours, two fonts, three of each style. */
function theme(): string {
  const colors = ['dk1', 'lt1', 'dk2', 'lt2', 'accent1', 'accent2', 'accent3', 'accent4', 'accent5', 'accent6', 'hlink', 'folHlink'];
  const values = ['000000', 'FFFFFF', '1F497D', 'EEECE1', '4F81BD', 'C0504D', '9BBB59', '8064A2', '4BACC6', 'F79646', '0000FF', '800080'];
  const solid = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>';
  const font = (name: string) => `<a:latin typeface="${name}"/><a:ea typeface=""/><a:cs typeface=""/>`;
  return (
    `${XML_HEAD}<a:theme xmlns:a="${DML}" name="Bench"><a:themeElements>` +
    `<a:clrScheme name="Bench">${colors.map((c, i) => `<a:${c}><a:srgbClr val="${values[i]}"/></a:${c}>`).join('')}</a:clrScheme>` +
    `<a:fontScheme name="Bench"><a:majorFont>${font('Liberation Sans')}</a:majorFont><a:minorFont>${font('Liberation Sans')}</a:minorFont></a:fontScheme>` +
    `<a:fmtScheme name="Bench"><a:fillStyleLst>${solid.repeat(3)}</a:fillStyleLst>` +
    `<a:lnStyleLst>${`<a:ln w="9525">${solid}</a:ln>`.repeat(3)}</a:lnStyleLst>` +
    `<a:effectStyleLst>${'<a:effectStyle><a:effectLst/></a:effectStyle>'.repeat(3)}</a:effectStyleLst>` +
    `<a:bgFillStyleLst>${solid.repeat(3)}</a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>`
  );
}

function textBox(id: number, y: number, height: number, size: number, paragraphs: string[]): string {
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Text ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr><a:xfrm><a:off x="457200" y="${y}"/><a:ext cx="8229600" cy="${height}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="square"/><a:lstStyle/>${paragraphs.map((t) => `<a:p><a:r><a:rPr lang="en-US" sz="${size}"/><a:t>${xmlEscape(t)}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp>`
  );
}

/** A .pptx of three 4:3 slides, each a title and five lines of text. */
export function benchPptx(seed: number): Buffer {
  const slides = [1, 2, 3];
  const parts: Record<string, string> = {
    '[Content_Types].xml': contentTypes([
      ['/ppt/presentation.xml', `${OFFICE_TYPE}.presentationml.presentation.main+xml`],
      ['/ppt/slideMasters/slideMaster1.xml', `${OFFICE_TYPE}.presentationml.slideMaster+xml`],
      ['/ppt/slideLayouts/slideLayout1.xml', `${OFFICE_TYPE}.presentationml.slideLayout+xml`],
      ['/ppt/theme/theme1.xml', `${OFFICE_TYPE}.theme+xml`],
      ...slides.map((n): [string, string] => [`/ppt/slides/slide${n}.xml`, `${OFFICE_TYPE}.presentationml.slide+xml`]),
    ]),
    '_rels/.rels': rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]),
    'ppt/presentation.xml':
      `${XML_HEAD}<p:presentation xmlns:a="${DML}" xmlns:r="${R}" xmlns:p="${PML}">` +
      '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>' +
      `<p:sldIdLst>${slides.map((n) => `<p:sldId id="${255 + n}" r:id="rId${n + 1}"/>`).join('')}</p:sldIdLst>` +
      '<p:sldSz cx="9144000" cy="6858000" type="screen4x3"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>',
    'ppt/_rels/presentation.xml.rels': rels([
      ['rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'],
      ...slides.map((n): [string, string, string] => [`rId${n + 1}`, 'slide', `slides/slide${n}.xml`]),
      ['rId9', 'theme', 'theme/theme1.xml'],
    ]),
    'ppt/slideMasters/slideMaster1.xml':
      `${XML_HEAD}<p:sldMaster xmlns:a="${DML}" xmlns:r="${R}" xmlns:p="${PML}"><p:cSld><p:spTree>${EMPTY_TREE}</p:spTree></p:cSld>` +
      '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
      '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>',
    'ppt/slideMasters/_rels/slideMaster1.xml.rels': rels([
      ['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml'],
      ['rId2', 'theme', '../theme/theme1.xml'],
    ]),
    'ppt/slideLayouts/slideLayout1.xml': `${XML_HEAD}<p:sldLayout xmlns:a="${DML}" xmlns:r="${R}" xmlns:p="${PML}" type="blank"><p:cSld name="Blank"><p:spTree>${EMPTY_TREE}</p:spTree></p:cSld></p:sldLayout>`,
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels': rels([['rId1', 'slideMaster', '../slideMasters/slideMaster1.xml']]),
    'ppt/theme/theme1.xml': theme(),
  };
  for (const n of slides) {
    const lines = [0, 1, 2, 3, 4].map((l) => words(seed * 100 + n * 10 + l, 8));
    parts[`ppt/slides/slide${n}.xml`] =
      `${XML_HEAD}<p:sld xmlns:a="${DML}" xmlns:r="${R}" xmlns:p="${PML}"><p:cSld><p:spTree>${EMPTY_TREE}` +
      `${textBox(2, 457200, 1143000, 3600, [`Presentation ${seed}, slide ${n}`])}${textBox(3, 1828800, 4572000, 2000, lines)}</p:spTree></p:cSld></p:sld>`;
    parts[`ppt/slides/_rels/slide${n}.xml.rels`] = rels([['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml']]);
  }
  return zipOf(parts);
}

export interface BenchOfficeFile {
  name: string;
  format: 'docx' | 'xlsx' | 'pptx';
  bytes: Buffer;
  /** Pages the document is written to have (a DOCX's page breaks); undefined for spreadsheets and presentations. */
  pages?: number;
}

/** The throughput set: `docxCount` DOCX of 1, 2 and 3 pages in turn, then `otherCount` XLSX and PPTX alternately. */
export function benchOfficeSet(docxCount: number, otherCount: number): BenchOfficeFile[] {
  const files: BenchOfficeFile[] = [];
  for (let i = 0; i < docxCount; i++) files.push({ name: `doc-${i + 1}.docx`, format: 'docx', bytes: benchDocx(i + 1, (i % 3) + 1), pages: (i % 3) + 1 });
  for (let i = 0; i < otherCount; i++) {
    const format = i % 2 === 0 ? 'xlsx' : 'pptx';
    files.push({ name: `${format}-${i + 1}.${format}`, format, bytes: format === 'xlsx' ? benchXlsx(i + 1) : benchPptx(i + 1) });
  }
  return files;
}
