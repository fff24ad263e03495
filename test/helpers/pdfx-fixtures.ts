/**
 * PDF/X fixtures written in raw PDF syntax (not with MuPDF, the engine under
 * test, so the rules are not checked against the library that reads them):
 * a compliant document per profile, and variants that each break exactly one
 * rule of src/engine/preflight/pdfx.ts (or, for the pass variants, exercise a
 * rule's allowed alternative). Content streams are uncompressed so a failing
 * test can be read with `less`; the embedded font is Flate-compressed.
 *
 * The compliant documents: two pages (the first with TrimBox and BleedBox,
 * the second with an ArtBox), CMYK and spot (Separation) colour, a CMYK
 * image, an inline grey image, an axial shading in DeviceCMYK, embedded
 * DejaVu Sans, an overprint graphics state, a printing annotation outside
 * the bleed and a non-printing one inside the trim, one GTS_PDFX output
 * intent with Ghostscript's CMYK output profile (Debian `ghostscript`,
 * /usr/share/color/icc/ghostscript/ps_cmyk.icc), the identification keys of
 * the part, and a trailer ID. The PDF/X-3 document adds ICC-based RGB colour
 * (sRGB.icc), which X-1a forbids; the PDF/X-4 document adds XMP metadata and
 * transparency (constant alpha), which X-3 forbids.
 */
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { encryptPdf } from './pdf.js';
import { PdfObjects } from './pdf-writer.js';
import { DEJAVU_SANS, parseTrueType } from './redaction-fixtures.js';

export type PdfxProfile = 'pdfx1a2001' | 'pdfx1a2003' | 'pdfx32002' | 'pdfx32003' | 'pdfx4';
export const PDFX_PROFILES: readonly PdfxProfile[] = ['pdfx1a2001', 'pdfx1a2003', 'pdfx32002', 'pdfx32003', 'pdfx4'];

export const CMYK_PROFILE = '/usr/share/color/icc/ghostscript/ps_cmyk.icc';
export const SRGB_PROFILE = '/usr/share/color/icc/sRGB.icc';

const HEADER_VERSION: Record<PdfxProfile, string> = { pdfx1a2001: '1.3', pdfx1a2003: '1.4', pdfx32002: '1.3', pdfx32003: '1.4', pdfx4: '1.6' };
const TOO_NEW: Record<PdfxProfile, string> = { pdfx1a2001: '1.4', pdfx1a2003: '1.5', pdfx32002: '1.4', pdfx32003: '1.5', pdfx4: '1.7' };
const GTS_VERSION: Record<PdfxProfile, string> = { pdfx1a2001: 'PDF/X-1:2001', pdfx1a2003: 'PDF/X-1:2003', pdfx32002: 'PDF/X-3:2002', pdfx32003: 'PDF/X-3:2003', pdfx4: 'PDF/X-4' };
const GTS_CONFORMANCE: Partial<Record<PdfxProfile, string>> = { pdfx1a2001: 'PDF/X-1a:2001', pdfx1a2003: 'PDF/X-1a:2003' };

const isX3 = (p: PdfxProfile) => p === 'pdfx32002' || p === 'pdfx32003';
const all = (): PdfxProfile[] => [...PDFX_PROFILES];

/**
 * The variants: what each changes, the rule (test number of the rule table)
 * it must fail, or 0 for a variant that must stay compliant, and the profiles
 * it is meaningful for.
 */
export interface Variant {
  name: string;
  /** The one failing rule's test number; 0: compliant. */
  fails: number;
  profiles: PdfxProfile[];
  /** The page (zero-based) the first failure must be located on, where it has one. */
  page?: number;
  /** The password to open the variant with. */
  password?: string;
}

export const VARIANTS: readonly Variant[] = [
  { name: 'version-too-new', fails: 1, profiles: all() },
  { name: 'catalog-version-too-new', fails: 1, profiles: all() },
  { name: 'encrypted', fails: 2, profiles: all(), password: 'user' },
  { name: 'no-id', fails: 3, profiles: all() },
  { name: 'lzw-image', fails: 4, profiles: all() },
  { name: 'lzw-inline-image', fails: 4, profiles: all(), page: 0 },
  { name: 'no-trim-or-art-box', fails: 5, profiles: all(), page: 0 },
  { name: 'trim-outside-bleed', fails: 6, profiles: all(), page: 0 },
  { name: 'art-outside-media', fails: 6, profiles: all(), page: 1 },
  { name: 'no-output-intent', fails: 7, profiles: all() },
  { name: 'two-output-intents', fails: 7, profiles: all() },
  { name: 'no-output-condition', fails: 8, profiles: all() },
  { name: 'no-destination-profile', fails: 9, profiles: all() },
  { name: 'registry-name-only', fails: 0, profiles: PDFX_PROFILES.filter((p) => p !== 'pdfx4') },
  { name: 'registry-name-only', fails: 9, profiles: ['pdfx4'] },
  { name: 'input-class-profile', fails: 10, profiles: all() },
  { name: 'rgb-fill', fails: 11, profiles: ['pdfx1a2001', 'pdfx1a2003'], page: 0 },
  { name: 'rgb-image', fails: 11, profiles: ['pdfx1a2001', 'pdfx1a2003'], page: 0 },
  { name: 'rgb-inline-image', fails: 11, profiles: ['pdfx1a2001', 'pdfx1a2003'], page: 0 },
  { name: 'rgb-indexed-inline-image', fails: 11, profiles: ['pdfx1a2001', 'pdfx1a2003'], page: 0 },
  { name: 'rgb-type3-glyph', fails: 11, profiles: ['pdfx1a2001', 'pdfx1a2003'], page: 0 },
  { name: 'cmyk-type3-glyph', fails: 0, profiles: all() },
  { name: 'rgb-shading', fails: 11, profiles: ['pdfx1a2001', 'pdfx1a2003'], page: 0 },
  { name: 'lab-in-form', fails: 11, profiles: ['pdfx1a2001', 'pdfx1a2003'], page: 1 },
  { name: 'icc-colour', fails: 11, profiles: ['pdfx1a2001', 'pdfx1a2003'], page: 0 },
  { name: 'rgb-fill', fails: 12, profiles: ['pdfx32002', 'pdfx32003', 'pdfx4'], page: 0 },
  { name: 'rgb-image', fails: 12, profiles: ['pdfx32002', 'pdfx32003', 'pdfx4'], page: 0 },
  { name: 'rgb-fill-default-rgb', fails: 0, profiles: ['pdfx32002', 'pdfx32003', 'pdfx4'] },
  { name: 'alpha', fails: 13, profiles: ['pdfx1a2001', 'pdfx1a2003', 'pdfx32002', 'pdfx32003'], page: 0 },
  { name: 'alpha', fails: 0, profiles: ['pdfx4'] },
  { name: 'blend-mode', fails: 13, profiles: ['pdfx1a2001', 'pdfx1a2003', 'pdfx32002', 'pdfx32003'], page: 0 },
  { name: 'soft-mask-image', fails: 13, profiles: ['pdfx1a2001', 'pdfx1a2003', 'pdfx32002', 'pdfx32003'], page: 0 },
  { name: 'soft-mask-image', fails: 0, profiles: ['pdfx4'] },
  { name: 'transfer-function', fails: 14, profiles: all(), page: 0 },
  { name: 'transfer-identity', fails: 0, profiles: all() },
  { name: 'halftone-name', fails: 15, profiles: all(), page: 0 },
  { name: 'font-not-embedded', fails: 16, profiles: all(), page: 0 },
  { name: 'font-not-embedded-unused', fails: 0, profiles: all() },
  { name: 'printing-annotation-in-trim', fails: 17, profiles: all(), page: 0 },
  { name: 'printing-annotation-in-bleed', fails: 17, profiles: all(), page: 0 },
  { name: 'javascript-action', fails: 18, profiles: all() },
  { name: 'launch-action', fails: 18, profiles: all() },
  { name: 'document-javascript', fails: 18, profiles: all() },
  { name: 'wrong-gts-version', fails: 19, profiles: all() },
  { name: 'no-gts-conformance', fails: 20, profiles: ['pdfx1a2001', 'pdfx1a2003'] },
  { name: 'no-xmp-pdfx-version', fails: 21, profiles: ['pdfx4'] },
  { name: 'no-title', fails: 22, profiles: all() },
  { name: 'no-mod-date', fails: 23, profiles: all() },
  { name: 'bad-creation-date', fails: 23, profiles: all() },
  { name: 'trapped-unknown', fails: 24, profiles: all() },
  { name: 'forms-nested-too-deep', fails: 27, profiles: all(), page: 0 },
  { name: 'missing-resource', fails: 27, profiles: all(), page: 0 },
  { name: 'custom-condition-without-info', fails: 25, profiles: all() },
  { name: 'postscript-xobject', fails: 26, profiles: all(), page: 0 },
  { name: 'postscript-operator', fails: 26, profiles: all(), page: 0 },
];

let fontFile: { data: Buffer; length: number; widths: number[]; bbox: number[]; ascent: number; descent: number; capHeight: number } | undefined;
/** DejaVu Sans compressed once per process, with the widths of its ASCII glyphs (codes 32-126). */
function dejaVu(): NonNullable<typeof fontFile> {
  if (!fontFile) {
    const raw = readFileSync(DEJAVU_SANS);
    const info = parseTrueType(raw);
    const scale = (v: number) => Math.round((v * 1000) / info.unitsPerEm);
    const widths: number[] = [];
    for (let c = 32; c <= 126; c++) widths.push(scale(info.advance(info.glyphId(c))));
    fontFile = { data: deflateSync(raw), length: raw.length, widths, bbox: info.bbox.map(scale), ascent: scale(info.ascent), descent: scale(info.descent), capHeight: scale(info.capHeight) };
  }
  return fontFile;
}

/** LZW (ISO 32000-1 §7.4.4) of a short input: a clear-table code, every byte as a 9-bit literal, end of data. Valid while the table stays under 511 entries. */
function lzwEncode(data: Buffer): Buffer {
  if (data.length > 200) throw new Error('lzwEncode is for short inputs');
  const codes = [256, ...data, 257];
  let bits = 0;
  let acc = 0;
  const out: number[] = [];
  for (const code of codes) {
    acc = (acc << 9) | code;
    bits += 9;
    while (bits >= 8) {
      out.push((acc >> (bits - 8)) & 0xff);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff);
  return Buffer.from(out);
}

const ref = (n: number) => `${n} 0 R`;
const ID = '<6b1f0e2a9c3d4e5f60718293a4b5c6d7>';

/** The compliant document of `profile`, changed as `variant` says (a name from VARIANTS; '' for none). */
export function pdfxFixture(profile: PdfxProfile, variant = ''): Buffer {
  const v = variant;
  const b = new PdfObjects();
  const catalog = b.reserve();
  const pages = b.reserve();
  const page1 = b.reserve();
  const page2 = b.reserve();

  // Fonts: DejaVu Sans embedded as a simple TrueType font.
  const f = dejaVu();
  const file = b.stream(`/Filter /FlateDecode /Length1 ${f.length}`, f.data);
  const descriptor = b.add(
    `<< /Type /FontDescriptor /FontName /DejaVuSans /Flags 32 /FontBBox [${f.bbox.join(' ')}] /ItalicAngle 0 /Ascent ${f.ascent} /Descent ${f.descent} /CapHeight ${f.capHeight} /StemV 80 /FontFile2 ${ref(file)} >>`,
  );
  const font = b.add(`<< /Type /Font /Subtype /TrueType /BaseFont /DejaVuSans /FirstChar 32 /LastChar 126 /Widths [${f.widths.join(' ')}] /Encoding /WinAnsiEncoding /FontDescriptor ${ref(descriptor)} >>`);
  const helvetica = b.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  // A Type 3 font whose one glyph (a square) sets its own colour (d0): RGB in rgb-type3-glyph.
  const type3 = v === 'rgb-type3-glyph' || v === 'cmyk-type3-glyph';
  const glyph = type3 ? b.stream('', `1000 0 d0 ${v === 'rgb-type3-glyph' ? '1 0 0 rg' : '0 1 1 0 k'} 0 0 800 800 re f`) : 0;
  const type3Font = type3
    ? b.add(`<< /Type /Font /Subtype /Type3 /FontBBox [0 0 800 800] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /sq ${ref(glyph)} >> /Encoding << /Type /Encoding /Differences [65 /sq] >> /FirstChar 65 /LastChar 65 /Widths [1000] >>`)
    : 0;

  // Colour: a spot colour, and for X-3/X-4 an ICC-based RGB space.
  const tint = '<< /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [0 0.6 1 0] /N 1 >>';
  const spot = b.add(`[/Separation /Orange /DeviceCMYK ${tint}]`);
  const srgbProfile = b.stream('/N 3', readFileSync(SRGB_PROFILE));
  const iccRgb = b.add(`[/ICCBased ${ref(srgbProfile)}]`);
  const usesIcc = isX3(profile) || profile === 'pdfx4' || v === 'icc-colour';

  // A 2x2 CMYK image (an RGB one in rgb-image), LZW-compressed in lzw-image, with a soft mask in soft-mask-image.
  const rgbImage = v === 'rgb-image';
  const pixels = rgbImage ? Buffer.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]) : Buffer.from([0, 0, 0, 255, 255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0]);
  const smask = v === 'soft-mask-image' ? b.stream('/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8', Buffer.from([255, 128, 64, 255])) : 0;
  const image = b.stream(
    `/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /${rgbImage ? 'DeviceRGB' : 'DeviceCMYK'} /BitsPerComponent 8` +
      (smask ? ` /SMask ${ref(smask)}` : '') +
      (v === 'lzw-image' ? ' /Filter /LZWDecode /DecodeParms << /EarlyChange 1 >>' : ''),
    v === 'lzw-image' ? lzwEncode(pixels) : pixels,
  );

  // An axial shading (DeviceRGB in rgb-shading).
  const shading = b.add(
    v === 'rgb-shading'
      ? '<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [100 0 300 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 0 1] /N 1 >> >>'
      : '<< /ShadingType 2 /ColorSpace /DeviceCMYK /Coords [100 0 300 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [1 0 0 0] /N 1 >> >>',
  );

  // Graphics states: overprint (allowed everywhere), and the variants' transparency, transfer and halftones.
  const gsEntries = ['/Type /ExtGState /OP true /op true /OPM 1'];
  if (v === 'alpha' || profile === 'pdfx4') gsEntries.push('/ca 0.5');
  if (v === 'blend-mode') gsEntries.push('/BM /Multiply');
  if (v === 'transfer-function') gsEntries.push('/TR << /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 0.5 >>');
  if (v === 'transfer-identity') gsEntries.push('/TR /Identity /TR2 /Default');
  if (v === 'halftone-name') gsEntries.push('/HT << /Type /Halftone /HalftoneType 1 /Frequency 60 /Angle 45 /SpotFunction /Round /HalftoneName (Screen) >>');
  const gs = b.add(`<< ${gsEntries.join(' ')} >>`);

  // Page 2 draws a form (Lab colour inside it in lab-in-form); forms-nested-too-deep nests 13 forms on page 1.
  const formContent = v === 'lab-in-form' ? '/CSLab cs 50 0 0 sc 0 0 50 50 re f' : '0 0 0 0.5 k 0 0 50 50 re f';
  const formResources = v === 'lab-in-form' ? '/Resources << /ColorSpace << /CSLab [/Lab << /WhitePoint [0.9505 1 1.089] >>] >> >>' : '';
  const form = b.stream(`/Type /XObject /Subtype /Form /BBox [0 0 50 50] ${formResources}`, formContent);
  let deepest = 0;
  if (v === 'forms-nested-too-deep') {
    deepest = b.stream('/Type /XObject /Subtype /Form /BBox [0 0 10 10]', '0 0 0 1 k 0 0 10 10 re f');
    for (let i = 0; i < 13; i++) deepest = b.stream(`/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /Fx ${ref(deepest)} >> >>`, '/Fx Do');
  }

  // Page 1's content.
  const inlineCs = v === 'rgb-inline-image' ? '/RGB' : v === 'rgb-indexed-inline-image' ? '[/I /RGB 0 <ff0000>]' : '/G';
  const inlineData = v === 'rgb-inline-image' ? Buffer.from([255, 0, 0]).toString('latin1') : v === 'rgb-indexed-inline-image' ? '\x00' : '\x80';
  const inlineFilter = v === 'lzw-inline-image' ? ' /F /LZW' : '';
  const inlineBytes = v === 'lzw-inline-image' ? lzwEncode(Buffer.from(inlineData, 'latin1')).toString('latin1') : inlineData;
  const content1 = [
    'q /GS0 gs 0 0 0 1 k 72 600 200 100 re f Q',
    '/CSSpot cs 1 scn 300 600 100 100 re f',
    usesIcc ? '/CSRgb cs 0.2 0.4 0.6 sc 420 600 100 100 re f' : '',
    v === 'rgb-fill' || v === 'rgb-fill-default-rgb' ? '1 0 0 rg 72 500 50 50 re f' : '',
    'BT /F1 24 Tf 72 720 Td (PDF/X fixture) Tj ET',
    v === 'font-not-embedded' ? 'BT /F2 12 Tf 72 690 Td (Helvetica, not embedded) Tj ET' : '',
    'q 100 0 0 100 72 380 cm /Im0 Do Q',
    `q 10 0 0 10 200 380 cm BI /W 1 /H 1 /CS ${inlineCs} /BPC 8${inlineFilter} ID ${inlineBytes} EI Q`,
    'q 72 250 300 100 re W n /Sh0 sh Q',
    deepest ? 'q /Fdeep Do Q' : '',
    v === 'postscript-xobject' ? '/Ps0 Do' : '',
    v === 'postscript-operator' ? '(0 setgray) PS' : '',
    v === 'missing-resource' ? '/NoSuchForm Do' : '',
    type3 ? 'BT /F3 20 Tf 400 720 Td (A) Tj ET' : '',
  ]
    .filter((line) => line !== '')
    .join('\n');
  const colourSpaces = [`/CSSpot ${ref(spot)}`, `/CSRgb ${ref(iccRgb)}`];
  if (v === 'rgb-fill-default-rgb') colourSpaces.push(`/DefaultRGB ${ref(iccRgb)}`);
  const fonts = [`/F1 ${ref(font)}`];
  if (v === 'font-not-embedded' || v === 'font-not-embedded-unused') fonts.push(`/F2 ${ref(helvetica)}`);
  if (type3) fonts.push(`/F3 ${ref(type3Font)}`);
  const xobjects = [`/Im0 ${ref(image)}`, `/Fm0 ${ref(form)}`];
  if (deepest) xobjects.push(`/Fdeep ${ref(deepest)}`);
  if (v === 'postscript-xobject') xobjects.push(`/Ps0 ${ref(b.stream('/Type /XObject /Subtype /PS', '0 setgray'))}`);
  const resources = `<< /Font << ${fonts.join(' ')} >> /ColorSpace << ${colourSpaces.join(' ')} >> /ExtGState << /GS0 ${ref(gs)} >> /XObject << ${xobjects.join(' ')} >> /Shading << /Sh0 ${ref(shading)} >> >>`;
  const contents1 = b.stream('', content1);
  const contents2 = b.stream('', 'q 1 0 0 1 100 100 cm /Fm0 Do Q\nBT /F1 12 Tf 72 720 Td (Second page) Tj ET');

  // Annotations: a printing Square outside the bleed (with a CMYK appearance), a hidden-from-print Text inside the trim.
  const ap = b.stream('/Type /XObject /Subtype /Form /BBox [0 0 6 6]', '0 1 0 0 k 0 0 6 6 re f');
  const squareRect = v === 'printing-annotation-in-trim' ? '[100 100 106 106]' : v === 'printing-annotation-in-bleed' ? '[12 100 16 106]' : '[1 1 7 7]';
  const square = b.add(`<< /Type /Annot /Subtype /Square /Rect ${squareRect} /F 4 /C [0 1 0 0] /AP << /N ${ref(ap)} >> >>`);
  const note = b.add('<< /Type /Annot /Subtype /Text /Rect [200 200 220 220] /F 0 /Contents (A note that does not print) >>');
  const annots = [ref(square), ref(note)];
  if (v === 'launch-action') annots.push(ref(b.add('<< /Type /Annot /Subtype /Link /Rect [300 300 320 320] /F 0 /A << /S /Launch /F (calc.exe) >> >>')));

  // Page boxes.
  const trimBox = v === 'trim-outside-bleed' ? '[5 18 594 774]' : '[18 18 594 774]';
  const box1 = v === 'no-trim-or-art-box' ? '/BleedBox [9 9 603 783]' : `/BleedBox [9 9 603 783] /TrimBox ${trimBox}`;
  const artBox = v === 'art-outside-media' ? '[0 0 700 700]' : '[36 36 576 756]';
  b.set(page1, `<< /Type /Page /Parent ${ref(pages)} ${box1} /Resources ${resources} /Contents ${ref(contents1)} /Annots [${annots.join(' ')}] >>`);
  b.set(page2, `<< /Type /Page /Parent ${ref(pages)} /ArtBox ${artBox} /Resources ${resources} /Contents ${ref(contents2)} >>`);
  b.set(pages, `<< /Type /Pages /Kids [${ref(page1)} ${ref(page2)}] /Count 2 /MediaBox [0 0 612 792] >>`);

  // Output intent(s).
  const cmykIcc = Buffer.from(readFileSync(CMYK_PROFILE));
  if (v === 'input-class-profile') cmykIcc.write('scnr', 12, 'latin1');
  const destProfile = b.stream('/N 4', cmykIcc);
  const intentEntries = ['/Type /OutputIntent /S /GTS_PDFX', '/OutputCondition (Ghostscript CMYK)'];
  if (v !== 'custom-condition-without-info') intentEntries.push('/Info (Ghostscript ps_cmyk.icc)');
  if (v !== 'no-output-condition') intentEntries.push(v === 'registry-name-only' ? '/OutputConditionIdentifier (FOGRA39)' : '/OutputConditionIdentifier (Custom)');
  if (v === 'registry-name-only') intentEntries.push('/RegistryName (http://www.color.org)');
  else if (v !== 'no-destination-profile') intentEntries.push(`/DestOutputProfile ${ref(destProfile)}`);
  const intent = b.add(`<< ${intentEntries.join(' ')} >>`);
  const intents = v === 'no-output-intent' ? [] : v === 'two-output-intents' ? [intent, intent] : [intent];

  // Identification and document information.
  const info: string[] = [];
  if (v !== 'no-title') info.push('/Title (PDF/X test document)');
  info.push(v === 'bad-creation-date' ? '/CreationDate (yesterday)' : "/CreationDate (D:20261125120000+01'00')");
  if (v !== 'no-mod-date') info.push("/ModDate (D:20261125130000+01'00')");
  info.push(v === 'trapped-unknown' ? '/Trapped /Unknown' : '/Trapped /False');
  const gtsVersion = v === 'wrong-gts-version' ? (profile === 'pdfx32003' ? 'PDF/X-3:2002' : 'PDF/X-3:2003') : GTS_VERSION[profile];
  if (profile !== 'pdfx4' || v === 'wrong-gts-version') info.push(`/GTS_PDFXVersion (${gtsVersion})`);
  const conformance = GTS_CONFORMANCE[profile];
  if (conformance && v !== 'no-gts-conformance') info.push(`/GTS_PDFXConformance (${conformance})`);
  info.push('/Producer (pdfservice tests)');
  const infoObj = b.add(`<< ${info.join(' ')} >>`);

  const catalogEntries = [`/Type /Catalog /Pages ${ref(pages)}`];
  if (intents.length) catalogEntries.push(`/OutputIntents [${intents.map(ref).join(' ')}]`);
  if (profile === 'pdfx4') catalogEntries.push(`/Metadata ${ref(b.stream('/Type /Metadata /Subtype /XML', xmp(v)))}`);
  if (v === 'catalog-version-too-new') catalogEntries.push(`/Version /${TOO_NEW[profile]}`);
  if (v === 'javascript-action') catalogEntries.push('/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>');
  if (v === 'document-javascript') {
    const js = b.add('<< /S /JavaScript /JS (var x = 1;) >>');
    catalogEntries.push(`/Names << /JavaScript << /Names [(init) ${ref(js)}] >> >>`);
  }
  b.set(catalog, `<< ${catalogEntries.join(' ')} >>`);

  const header = v === 'version-too-new' ? TOO_NEW[profile] : HEADER_VERSION[profile];
  const pdf = b.finish(`/Root ${ref(catalog)} /Info ${ref(infoObj)}${v === 'no-id' ? '' : ` /ID [${ID} ${ID}]`}`, header);
  // RC4 40-bit (the one method that PDF 1.3 has); qpdf keeps the header version for it.
  return v === 'encrypted' ? encryptPdf(pdf, 'user', 'owner', '40') : pdf;
}

/** The PDF/X-4 document's XMP packet. */
function xmp(variant: string): string {
  const pdfx = variant === 'no-xmp-pdfx-version' ? '' : '<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>';
  const title = variant === 'no-title' ? '' : '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">PDF/X test document</rdf:li></rdf:Alt></dc:title>';
  const modify = variant === 'no-mod-date' ? '' : '<xmp:ModifyDate>2026-11-25T13:00:00+01:00</xmp:ModifyDate>';
  const create = variant === 'bad-creation-date' ? '' : '<xmp:CreateDate>2026-11-25T12:00:00+01:00</xmp:CreateDate>';
  const trapped = variant === 'trapped-unknown' ? 'Unknown' : 'False';
  return [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">',
    pdfx,
    title,
    create,
    modify,
    `<pdf:Trapped>${trapped}</pdf:Trapped>`,
    '<pdf:Producer>pdfservice tests</pdf:Producer>',
    '</rdf:Description></rdf:RDF></x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

