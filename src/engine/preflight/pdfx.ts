/**
 * PDF/X preflight (ISO 15930): no open PDF/X validator exists, so these are
 * our own rules over the object model, one table row per rule with its part
 * and clause (docs/pdfa.md "PDF/X preflight" lists them, what each checks and
 * what it does not). Objects are printed by MuPDF once and parsed in
 * JavaScript (syntax/parser.ts), which is cheaper than a wrapper per value.
 *
 * Everything is bounded: objects, pages' content bytes and operators, form
 * nesting; past a bound the document fails the `limits` rule rather than
 * being called compliant unchecked. A damaged object or stream is a failed
 * check, never a crashed worker.
 */
import { readFileSync } from 'node:fs';
import type * as mupdf from 'mupdf';
import { withPdf, type PdfInput } from '../core/document-task.js';
import { EngineError } from '../errors.js';
import { pdfDateToIso } from '../syntax/dates.js';
import { decodeTextString, parsePdfObject, PdfName, PdfRef, PdfString, type PdfDict, type PdfValue } from '../syntax/parser.js';
import { scanContent, type Operand } from './content.js';
import { isPdfxProfile, MAX_LOCATIONS, PDFX_PROFILES, PDFX_VALIDATOR_NAME, type FailedRule, type PdfxProfile, type PdfxReport, type RuleLocation } from './model.js';

/** What differs between the parts of ISO 15930 the service checks. */
interface Part {
  specification: string;
  /** Highest PDF version allowed, times ten (13 is PDF 1.3). */
  maxVersion: number;
  /** X-1a: only DeviceCMYK, DeviceGray, Separation and DeviceN colour. */
  cmykOnly: boolean;
  transparencyAllowed: boolean;
  /** GTS_PDFXVersion, and GTS_PDFXConformance where the part has one. */
  version: string;
  conformance?: string;
  /** X-4: identification and document information in XMP, and an embedded destination profile. */
  x4: boolean;
}

const PARTS: Record<PdfxProfile, Part> = {
  pdfx1a2001: { specification: 'ISO 15930-1:2001', maxVersion: 13, cmykOnly: true, transparencyAllowed: false, version: 'PDF/X-1:2001', conformance: 'PDF/X-1a:2001', x4: false },
  pdfx1a2003: { specification: 'ISO 15930-4:2003', maxVersion: 14, cmykOnly: true, transparencyAllowed: false, version: 'PDF/X-1:2003', conformance: 'PDF/X-1a:2003', x4: false },
  pdfx32002: { specification: 'ISO 15930-3:2002', maxVersion: 13, cmykOnly: false, transparencyAllowed: false, version: 'PDF/X-3:2002', x4: false },
  pdfx32003: { specification: 'ISO 15930-6:2003', maxVersion: 14, cmykOnly: false, transparencyAllowed: false, version: 'PDF/X-3:2003', x4: false },
  pdfx4: { specification: 'ISO 15930-7:2010', maxVersion: 16, cmykOnly: false, transparencyAllowed: true, version: 'PDF/X-4', x4: true },
};

type RuleId =
  | 'version'
  | 'encryption'
  | 'trailerId'
  | 'lzw'
  | 'pageBoxes'
  | 'boxNesting'
  | 'outputIntent'
  | 'outputCondition'
  | 'destinationProfile'
  | 'profileClass'
  | 'colourX1a'
  | 'deviceColour'
  | 'transparency'
  | 'transfer'
  | 'halftone'
  | 'fonts'
  | 'annotations'
  | 'actions'
  | 'pdfxVersion'
  | 'pdfxConformance'
  | 'xmpVersion'
  | 'title'
  | 'dates'
  | 'trapped'
  | 'limits'
  | 'outputIntentInfo'
  | 'postscript';

interface Rule {
  id: RuleId;
  testNumber: number;
  /** The clause (the same numbering in each part; docs/pdfa.md marks which are approximate). */
  clause: string;
  description: (part: Part) => string;
  applies?: (part: Part) => boolean;
}

/** The rule table, in report order. Test numbers are stable: a new rule gets a new number. */
const RULES: readonly Rule[] = [
  { id: 'version', testNumber: 1, clause: '6.1', description: (p) => `The PDF version (header and catalog /Version) is at most ${p.maxVersion / 10}` },
  { id: 'encryption', testNumber: 2, clause: '6.1', description: () => 'The document is not encrypted (no /Encrypt in the trailer)' },
  { id: 'trailerId', testNumber: 3, clause: '6.1', description: () => 'The trailer has an /ID array of two strings' },
  { id: 'lzw', testNumber: 4, clause: '6.1', description: () => 'No stream or inline image uses the LZWDecode filter' },
  { id: 'pageBoxes', testNumber: 5, clause: '6.1', description: () => 'Every page has a TrimBox or an ArtBox' },
  { id: 'boxNesting', testNumber: 6, clause: '6.1', description: () => 'Page boxes are nested: TrimBox and ArtBox within the BleedBox, all within the MediaBox' },
  { id: 'outputIntent', testNumber: 7, clause: '6.2.2', description: () => 'The catalog has exactly one output intent of subtype GTS_PDFX' },
  { id: 'outputCondition', testNumber: 8, clause: '6.2.2', description: () => 'The PDF/X output intent has an OutputConditionIdentifier' },
  {
    id: 'destinationProfile',
    testNumber: 9,
    clause: '6.2.2',
    description: (p) => (p.x4 ? 'The PDF/X output intent embeds its DestOutputProfile' : 'The PDF/X output intent has a DestOutputProfile or, for a registered condition, a RegistryName'),
  },
  {
    id: 'profileClass',
    testNumber: 10,
    clause: '6.2.2',
    description: (p) => `The destination profile is an ICC output (prtr) profile${p.cmykOnly ? ' of CMYK or grey data' : ''}`,
  },
  {
    id: 'colourX1a',
    testNumber: 11,
    clause: '6.2.3',
    description: () => 'Only DeviceCMYK, DeviceGray, Separation and DeviceN colour (also in images, inline images and shadings)',
    applies: (p) => p.cmykOnly,
  },
  {
    id: 'deviceColour',
    testNumber: 12,
    clause: '6.2.3',
    description: () => 'Device colour matches the output intent: DeviceRGB only with an RGB, DeviceCMYK only with a CMYK destination (unless a default colour space is set)',
    applies: (p) => !p.cmykOnly,
  },
  {
    id: 'transparency',
    testNumber: 13,
    clause: '6.2.5',
    description: () => 'No transparency: no soft masks, constant alpha (CA, ca) of 1, blend mode Normal or Compatible',
    applies: (p) => !p.transparencyAllowed,
  },
  { id: 'transfer', testNumber: 14, clause: '6.2.6', description: () => 'No transfer functions (TR; TR2 only /Default; no halftone TransferFunction)' },
  {
    id: 'halftone',
    testNumber: 15,
    clause: '6.2.6',
    description: (p) => (p.x4 ? 'Halftones have no HalftoneName' : 'Halftones are of type 1 or 5 and have no HalftoneName'),
  },
  { id: 'fonts', testNumber: 16, clause: '6.3', description: () => 'Every font used is embedded (FontFile, FontFile2 or FontFile3; Type 3 fonts are)' },
  {
    id: 'annotations',
    testNumber: 17,
    clause: '6.4',
    description: () => 'No printing annotation (other than TrapNet and PrinterMark) lies inside the BleedBox or TrimBox',
  },
  { id: 'actions', testNumber: 18, clause: '6.5', description: () => 'No JavaScript or Launch actions, and no document-level JavaScript' },
  {
    id: 'pdfxVersion',
    testNumber: 19,
    clause: '6.6',
    description: (p) => (p.x4 ? `The Info dictionary's GTS_PDFXVersion, where present, is ${p.version}` : `The Info dictionary's GTS_PDFXVersion is ${p.version}`),
  },
  {
    id: 'pdfxConformance',
    testNumber: 20,
    clause: '6.6',
    description: (p) => `The Info dictionary's GTS_PDFXConformance is ${p.conformance ?? ''}`,
    applies: (p) => p.conformance !== undefined,
  },
  {
    id: 'xmpVersion',
    testNumber: 21,
    clause: '6.6',
    description: (p) => `The catalog's XMP metadata has pdfxid:GTS_PDFXVersion ${p.version}`,
    applies: (p) => p.x4,
  },
  { id: 'title', testNumber: 22, clause: '6.6', description: (p) => (p.x4 ? 'The document has a title (dc:title or Info /Title)' : 'The Info dictionary has a Title') },
  {
    id: 'dates',
    testNumber: 23,
    clause: '6.6',
    description: (p) => (p.x4 ? 'Creation and modification dates are present (XMP or Info) and valid' : 'The Info dictionary has a valid CreationDate and ModDate'),
  },
  { id: 'trapped', testNumber: 24, clause: '6.6', description: (p) => (p.x4 ? 'Trapped is True or False (XMP pdf:Trapped or Info)' : 'The Info dictionary has Trapped True or False') },
  {
    id: 'outputIntentInfo',
    testNumber: 25,
    clause: '6.2.2',
    description: () => 'A PDF/X output intent whose condition is not registered (Custom, or no RegistryName) describes it in Info',
  },
  { id: 'postscript', testNumber: 26, clause: '6.2', description: () => 'No PostScript: no PostScript XObjects and no PS operator' },
  { id: 'limits', testNumber: 27, clause: '-', description: () => "The document could be read and checked within the checker's limits (what could not be checked is not called compliant)" },
];

/** Bounds of the walk (see the module comment). */
const MAX_OBJECTS = 1_000_000;
const MAX_PAGE_CONTENT_BYTES = 64 * 1024 * 1024;
const MAX_PAGE_OPERATORS = 2_000_000;
const MAX_FORM_DEPTH = 12;
const MAX_VALUE_DEPTH = 24;
const MAX_PARENT_DEPTH = 64;
const MAX_ANNOTATIONS_PER_PAGE = 10_000;

let packageVersion: string | undefined;
/** The service's version (package.json), named in every report. Compiled to dist/src/engine/preflight/, four levels below the root. */
function serviceVersion(): string {
  if (packageVersion === undefined) {
    try {
      const raw = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
      packageVersion = typeof raw.version === 'string' ? raw.version : 'unknown';
    } catch {
      packageVersion = 'unknown';
    }
  }
  return packageVersion;
}

/** The `preflightPdfx` task: the report of the document against one PDF/X profile. */
export function preflightPdfx(input: PdfInput & { profile: string }): PdfxReport {
  if (!isPdfxProfile(input.profile)) throw new EngineError('BAD_REQUEST', `Unknown PDF/X profile; valid: ${PDFX_PROFILES.join(', ')}`);
  const profile = input.profile;
  return withPdf(input, 'view', (doc) => new Checker(doc, PARTS[profile]).run(profile));
}

// ---------------------------------------------------------------------------------------------------------------
// Values

const dictOf = (v: PdfValue | undefined): PdfDict | undefined => (v instanceof Map ? v : undefined);
const nameOf = (v: PdfValue | Operand | undefined): string | undefined => (v instanceof PdfName ? v.name : undefined);
const textOf = (v: PdfValue | undefined): string | undefined => (v instanceof PdfString ? decodeTextString(v.bytes) : undefined);
const numOf = (v: PdfValue | Operand | undefined): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

type Box = [number, number, number, number];

function boxOf(v: PdfValue | undefined): Box | undefined {
  if (!Array.isArray(v) || v.length !== 4) return undefined;
  const n = v.map(numOf);
  if (n.some((x) => x === undefined)) return undefined;
  const [a, b, c, d] = n as [number, number, number, number];
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

const EPSILON = 0.01;
const within = (inner: Box, outer: Box): boolean =>
  inner[0] >= outer[0] - EPSILON && inner[1] >= outer[1] - EPSILON && inner[2] <= outer[2] + EPSILON && inner[3] <= outer[3] + EPSILON;
const overlaps = (a: Box, b: Box): boolean => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > EPSILON && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > EPSILON;
const boxText = (b: Box): string => `[${b.map((n) => Math.round(n * 100) / 100).join(' ')}]`;

/** Indirect objects parsed once (MuPDF prints them already decrypted). */
class Objects {
  private readonly cache = new Map<number, PdfValue | undefined>();
  constructor(private readonly doc: mupdf.PDFDocument) {}

  /** The parsed object `num`; undefined when it cannot be read. */
  get(num: number): PdfValue | undefined {
    if (this.cache.has(num)) return this.cache.get(num);
    const value = this.load(num);
    // Bounded: a document with more objects than this costs a parse per lookup beyond it, not memory.
    if (this.cache.size < 200_000) this.cache.set(num, value);
    return value;
  }

  load(num: number): PdfValue | undefined {
    try {
      return parsePdfObject(this.doc.newIndirect(num).resolve().toString(true));
    } catch {
      return undefined;
    }
  }

  /** A value with references followed (a short chain at most); null, which is how an object that cannot be loaded prints, is absent (as in §7.3.9). */
  resolve(v: PdfValue | undefined): PdfValue | undefined {
    for (let i = 0; i < 8 && v instanceof PdfRef; i++) v = this.get(v.num);
    return v instanceof PdfRef || v === null ? undefined : v;
  }

  isStream(v: PdfValue | undefined): boolean {
    if (!(v instanceof PdfRef)) return false;
    try {
      return this.doc.newIndirect(v.num).isStream();
    } catch {
      return false;
    }
  }

  /** A stream's decoded bytes; undefined when it cannot be decoded. */
  stream(num: number): Uint8Array | undefined {
    try {
      const buffer = this.doc.newIndirect(num).readStream();
      try {
        // A copy out of the WebAssembly heap, and the buffer freed now rather than by the finalizer.
        return buffer.asUint8Array().slice();
      } finally {
        buffer.destroy();
      }
    } catch {
      return undefined;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The checker

interface Tally {
  failed: number;
  locations: RuleLocation[];
}

/** Where content is being scanned: its page, resources, and what to say in a location. */
interface Scope {
  pageIndex: number;
  resources: PdfDict | undefined;
  context: string;
  depth: number;
}

/** Per page: content bytes and operators spent so far. */
interface Budget {
  bytes: number;
  operators: number;
  exceeded: boolean;
}

class Checker {
  private readonly objects: Objects;
  private readonly tallies = new Map<RuleId, Tally>();
  private readonly active: Set<RuleId>;
  private passed = 0;
  /** The output intent's colour (ICC data colour space): 'CMYK', 'RGB', 'GRAY'; undefined when unknown (a registry name). */
  private intentColour: string | undefined;
  /** Objects already checked (fonts, images, forms, graphics states, colour spaces, patterns, shadings), by number. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly doc: mupdf.PDFDocument,
    private readonly part: Part,
  ) {
    this.objects = new Objects(doc);
    this.active = new Set(RULES.filter((r) => r.applies?.(part) ?? true).map((r) => r.id));
  }

  run(profile: PdfxProfile): PdfxReport {
    // Every object first: MuPDF repairs a damaged file when it first meets a misplaced object, and a repair
    // can change the catalog and page tree; everything read after the walk sees the repaired document.
    this.checkObjects();
    const trailer = this.parseTrailer();
    const catalog = dictOf(this.objects.resolve(trailer?.get('Root')));
    this.checkFile(trailer);
    this.checkOutputIntent(catalog);
    this.checkIdentification(trailer, catalog);
    this.checkDocumentJavaScript(catalog);
    this.checkPages();
    const rules: FailedRule[] = [];
    let failedChecks = 0;
    for (const rule of RULES) {
      const tally = this.tallies.get(rule.id);
      if (!tally) continue;
      failedChecks += tally.failed;
      rules.push({
        specification: this.part.specification,
        clause: rule.clause,
        testNumber: rule.testNumber,
        description: rule.description(this.part),
        failedChecks: tally.failed,
        locations: tally.locations,
      });
    }
    return {
      profile,
      compliant: rules.length === 0,
      validator: { name: PDFX_VALIDATOR_NAME, version: serviceVersion() },
      passedChecks: this.passed,
      failedChecks,
      rules,
    };
  }

  private check(id: RuleId, ok: boolean, location: () => RuleLocation): void {
    if (!this.active.has(id)) return;
    if (ok) {
      this.passed++;
      return;
    }
    let tally = this.tallies.get(id);
    if (!tally) this.tallies.set(id, (tally = { failed: 0, locations: [] }));
    tally.failed++;
    if (tally.locations.length < MAX_LOCATIONS) tally.locations.push(location());
  }

  /** Whether `key` (a kind and an object number) is met for the first time. */
  private first(kind: string, v: PdfValue | undefined): boolean {
    if (!(v instanceof PdfRef)) return true;
    const key = `${kind}:${v.num}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  private parseTrailer(): PdfDict | undefined {
    try {
      return dictOf(parsePdfObject(this.doc.getTrailer().toString(true)));
    } catch {
      this.check('limits', false, () => ({ context: 'the trailer could not be read' }));
      return undefined;
    }
  }

  // ----- file structure ------------------------------------------------------------------------------------------

  private checkFile(trailer: PdfDict | undefined): void {
    const version = this.doc.getVersion();
    this.check('version', version <= this.part.maxVersion, () => ({ context: `PDF ${(version / 10).toFixed(1)} (header or catalog /Version)` }));
    const encrypt = trailer?.get('Encrypt');
    this.check('encryption', encrypt === undefined, () => ({ ...objectNumber(encrypt), context: 'trailer /Encrypt' }));
    const id = trailer?.get('ID');
    const idOk = Array.isArray(id) && id.length === 2 && id.every((s) => s instanceof PdfString);
    this.check('trailerId', idOk, () => ({ context: id === undefined ? 'the trailer has no /ID' : 'the trailer /ID is not an array of two strings' }));
  }

  // ----- output intent -------------------------------------------------------------------------------------------

  private checkOutputIntent(catalog: PdfDict | undefined): void {
    const list = this.objects.resolve(catalog?.get('OutputIntents'));
    const intents: { dict: PdfDict; ref: PdfValue | undefined }[] = [];
    if (Array.isArray(list)) {
      for (const item of list.slice(0, 1000)) {
        const dict = dictOf(this.objects.resolve(item));
        if (dict && nameOf(dict.get('S')) === 'GTS_PDFX') intents.push({ dict, ref: item });
      }
    }
    this.check('outputIntent', intents.length === 1, () => ({ context: `the catalog has ${intents.length} GTS_PDFX output intents` }));
    const intent = intents[0];
    if (!intent || intents.length !== 1) return;
    const where = (what: string) => ({ ...objectNumber(intent.ref), context: `GTS_PDFX output intent: ${what}` });
    const condition = textOf(this.objects.resolve(intent.dict.get('OutputConditionIdentifier')));
    this.check('outputCondition', condition !== undefined && condition.trim() !== '', () => where('no OutputConditionIdentifier'));
    const registered = hasText(textOf(this.objects.resolve(intent.dict.get('RegistryName')))) && condition !== 'Custom';
    this.check('outputIntentInfo', registered || hasText(textOf(this.objects.resolve(intent.dict.get('Info')))), () => where(`condition '${condition ?? ''}' is not registered and has no Info`));
    const profileRef = intent.dict.get('DestOutputProfile');
    const embedded = this.objects.isStream(profileRef);
    const hasRegistry = hasText(textOf(this.objects.resolve(intent.dict.get('RegistryName'))));
    this.check('destinationProfile', embedded || (!this.part.x4 && hasRegistry), () =>
      where(this.part.x4 ? 'no embedded DestOutputProfile' : 'neither a DestOutputProfile nor a RegistryName'),
    );
    if (!embedded || !(profileRef instanceof PdfRef)) return;
    const icc = this.objects.stream(profileRef.num);
    const deviceClass = icc && icc.length >= 20 ? String.fromCharCode(...icc.subarray(12, 16)) : undefined;
    const colour = icc && icc.length >= 20 ? String.fromCharCode(...icc.subarray(16, 20)).trim() : undefined;
    this.intentColour = colour;
    const colourOk = !this.part.cmykOnly || colour === 'CMYK' || colour === 'GRAY';
    this.check('profileClass', deviceClass === 'prtr' && colourOk, () => ({
      objectNumber: profileRef.num,
      context: icc ? `DestOutputProfile: class '${deviceClass ?? '?'}', data colour space '${colour ?? '?'}'` : 'DestOutputProfile could not be read',
    }));
  }

  // ----- identification and document information ----------------------------------------------------------------

  private checkIdentification(trailer: PdfDict | undefined, catalog: PdfDict | undefined): void {
    const infoRef = trailer?.get('Info');
    const info = dictOf(this.objects.resolve(infoRef));
    const at = (what: string) => ({ ...objectNumber(infoRef), context: what });
    const infoText = (key: string) => textOf(this.objects.resolve(info?.get(key)));
    const xmp = this.xmp(catalog);

    const version = infoText('GTS_PDFXVersion');
    if (this.part.x4) {
      this.check('pdfxVersion', version === undefined || version === this.part.version, () => at(`Info /GTS_PDFXVersion is '${version}'`));
      const xmpVersion = xmpProperty(xmp, 'pdfxid', 'GTS_PDFXVersion');
      this.check('xmpVersion', xmpVersion === this.part.version, () => ({
        context: xmp === undefined ? 'the catalog has no XMP metadata' : `XMP pdfxid:GTS_PDFXVersion is ${xmpVersion === undefined ? 'absent' : `'${xmpVersion}'`}`,
      }));
    } else {
      this.check('pdfxVersion', version === this.part.version, () => at(version === undefined ? 'Info has no /GTS_PDFXVersion' : `Info /GTS_PDFXVersion is '${version}'`));
    }
    const conformance = infoText('GTS_PDFXConformance');
    this.check('pdfxConformance', conformance === this.part.conformance, () =>
      at(conformance === undefined ? 'Info has no /GTS_PDFXConformance' : `Info /GTS_PDFXConformance is '${conformance}'`),
    );

    const title = infoText('Title') ?? (this.part.x4 ? xmpTitle(xmp) : undefined);
    this.check('title', title !== undefined && title.trim() !== '', () => at('no document title'));
    for (const [key, xmpKey] of [
      ['CreationDate', 'CreateDate'],
      ['ModDate', 'ModifyDate'],
    ] as const) {
      const raw = infoText(key);
      const ok = pdfDateToIso(raw) !== undefined || (this.part.x4 && raw === undefined && xmpProperty(xmp, 'xmp', xmpKey) !== undefined);
      this.check('dates', ok, () => at(raw === undefined ? `no ${key}` : `${key} '${raw}' is not a date`));
    }
    const trapped = info?.get('Trapped');
    const trappedName = nameOf(trapped);
    const xmpTrapped = this.part.x4 && trapped === undefined ? xmpProperty(xmp, 'pdf', 'Trapped') : undefined;
    const trappedOk = trappedName === 'True' || trappedName === 'False' || xmpTrapped === 'True' || xmpTrapped === 'False';
    this.check('trapped', trappedOk, () => at(trapped === undefined ? 'no Trapped' : `Trapped is ${trappedName !== undefined ? `/${trappedName}` : 'not a name'}`));
  }

  /** The catalog's XMP packet as text (bounded). */
  private xmp(catalog: PdfDict | undefined): string | undefined {
    const ref = catalog?.get('Metadata');
    if (!(ref instanceof PdfRef)) return undefined;
    const bytes = this.objects.stream(ref.num);
    if (!bytes) return undefined;
    return Buffer.from(bytes.subarray(0, 4 * 1024 * 1024)).toString('utf8');
  }

  // ----- every object: filters and actions -----------------------------------------------------------------------

  private checkObjects(): void {
    let count = 0;
    try {
      count = this.doc.countObjects();
    } catch {
      /* an unreadable table: nothing to walk */
    }
    const last = Math.min(count, MAX_OBJECTS);
    this.check('limits', count <= MAX_OBJECTS, () => ({ context: `${count} objects: only the first ${MAX_OBJECTS} were checked for filters and actions` }));
    for (let num = 1; num < last; num++) {
      const value = this.objects.load(num);
      if (value === undefined) continue;
      let isStream = false;
      try {
        isStream = this.doc.newIndirect(num).isStream();
      } catch {
        /* read as not a stream */
      }
      const dict = dictOf(value);
      if (isStream && dict) {
        const filters = filterNames(dict.get('Filter'));
        this.check('lzw', !filters.some((f) => f === 'LZWDecode' || f === 'LZW'), () => ({ objectNumber: num, context: 'stream with /LZWDecode' }));
      }
      this.findActions(value, num, 0);
    }
  }

  private checkDocumentJavaScript(catalog: PdfDict | undefined): void {
    const names = dictOf(this.objects.resolve(catalog?.get('Names')));
    const js = names?.get('JavaScript');
    this.check('actions', js === undefined, () => ({ ...objectNumber(js), context: 'catalog /Names has a /JavaScript name tree' }));
  }

  /** Every action dictionary inside `value` (direct values; indirect ones are met as their own objects). */
  private findActions(value: PdfValue, num: number, depth: number): void {
    if (depth > MAX_VALUE_DEPTH) return;
    if (Array.isArray(value)) {
      for (const item of value) if (item instanceof Map || Array.isArray(item)) this.findActions(item, num, depth + 1);
      return;
    }
    if (!(value instanceof Map)) return;
    const kind = nameOf(value.get('S'));
    if (kind !== undefined && (value.has('JS') || value.has('F') || value.has('Win') || nameOf(value.get('Type')) === 'Action' || kind === 'JavaScript' || kind === 'Launch')) {
      this.check('actions', kind !== 'JavaScript' && kind !== 'Launch', () => ({ objectNumber: num, context: `/${kind} action` }));
    }
    for (const item of value.values()) if (item instanceof Map || Array.isArray(item)) this.findActions(item, num, depth + 1);
  }

  // ----- pages ---------------------------------------------------------------------------------------------------

  private checkPages(): void {
    let pages = 0;
    try {
      pages = this.doc.countPages();
    } catch {
      this.check('limits', false, () => ({ context: 'the page tree could not be read' }));
    }
    this.check('limits', pages > 0, () => ({ context: 'the document has no pages that could be read' }));
    /** Content already scanned with the same resources (documents that share one stream among many pages). */
    const scanned = new Set<string>();
    for (let index = 0; index < pages; index++) {
      let num: number;
      try {
        num = this.doc.findPage(index).asIndirect();
      } catch {
        this.check('limits', false, () => ({ pageIndex: index, context: 'the page could not be read' }));
        continue;
      }
      const page = dictOf(this.objects.get(num));
      if (!page) {
        this.check('limits', false, () => ({ pageIndex: index, objectNumber: num, context: 'the page object could not be read' }));
        continue;
      }
      const budget: Budget = { bytes: 0, operators: 0, exceeded: false };
      const inherited = this.inherited(page, num);
      const boxes = this.checkBoxes(page, inherited.mediaBox, index, num);
      const scope: Scope = { pageIndex: index, resources: inherited.resources, context: `page ${index + 1}`, depth: 0 };
      const key = `${contentKey(page.get('Contents'))}@${inherited.resourcesKey}`;
      if (!scanned.has(key)) {
        scanned.add(key);
        this.scanContents(page.get('Contents'), scope, budget, num);
      }
      this.checkAnnotations(page, boxes, scope, budget);
      this.check('limits', !budget.exceeded, () => ({
        pageIndex: index,
        objectNumber: num,
        context: `the page's content passes the checker's limits (${MAX_PAGE_OPERATORS} operators, ${MAX_PAGE_CONTENT_BYTES} bytes, ${MAX_FORM_DEPTH} nested forms) or could not be decoded: not fully checked`,
      }));
    }
  }

  /** MediaBox and Resources, from the page or the nearest ancestor. */
  private inherited(page: PdfDict, pageNum: number): { mediaBox: Box | undefined; resources: PdfDict | undefined; resourcesKey: string } {
    let mediaBox: Box | undefined;
    let resources: PdfDict | undefined;
    let resourcesKey = '';
    let node: PdfDict | undefined = page;
    let nodeKey = 'page';
    for (let depth = 0; node && depth < MAX_PARENT_DEPTH && (!mediaBox || !resources); depth++) {
      mediaBox ??= boxOf(this.objects.resolve(node.get('MediaBox')));
      const res = node.get('Resources');
      if (!resources && res !== undefined) {
        resources = dictOf(this.objects.resolve(res));
        resourcesKey = res instanceof PdfRef ? `r${res.num}` : `in:${nodeKey}`;
      }
      const parent = node.get('Parent');
      nodeKey = parent instanceof PdfRef ? `n${parent.num}` : 'none';
      node = dictOf(this.objects.resolve(parent));
    }
    // Resources held directly in a page are that page's own: no two pages share them.
    if (resourcesKey === 'in:page') resourcesKey = `page:${pageNum}`;
    return { mediaBox, resources, resourcesKey };
  }

  private checkBoxes(page: PdfDict, mediaBox: Box | undefined, pageIndex: number, num: number): Box | undefined {
    const box = (key: string) => boxOf(this.objects.resolve(page.get(key)));
    const trim = box('TrimBox');
    const art = box('ArtBox');
    const bleed = box('BleedBox');
    this.check('pageBoxes', trim !== undefined || art !== undefined, () => ({ pageIndex, objectNumber: num, context: 'the page has neither a TrimBox nor an ArtBox' }));
    const problems: string[] = [];
    if (!mediaBox) problems.push('no valid MediaBox');
    else {
      if (bleed && !within(bleed, mediaBox)) problems.push(`BleedBox ${boxText(bleed)} outside MediaBox ${boxText(mediaBox)}`);
      const outer = bleed ?? mediaBox;
      const outerName = bleed ? 'BleedBox' : 'MediaBox';
      if (trim && !within(trim, outer)) problems.push(`TrimBox ${boxText(trim)} outside ${outerName} ${boxText(outer)}`);
      if (art && !within(art, outer)) problems.push(`ArtBox ${boxText(art)} outside ${outerName} ${boxText(outer)}`);
    }
    this.check('boxNesting', problems.length === 0, () => ({ pageIndex, objectNumber: num, context: problems.join('; ') }));
    // The area annotations must stay out of: the BleedBox and the TrimBox (or ArtBox).
    const finished = trim ?? art;
    if (bleed && finished) return [Math.min(bleed[0], finished[0]), Math.min(bleed[1], finished[1]), Math.max(bleed[2], finished[2]), Math.max(bleed[3], finished[3])];
    return bleed ?? finished;
  }

  private checkAnnotations(page: PdfDict, area: Box | undefined, scope: Scope, budget: Budget): void {
    const annots = this.objects.resolve(page.get('Annots'));
    if (!Array.isArray(annots)) return;
    for (const item of annots.slice(0, MAX_ANNOTATIONS_PER_PAGE)) {
      const annot = dictOf(this.objects.resolve(item));
      if (!annot) continue;
      const subtype = nameOf(annot.get('Subtype')) ?? '?';
      const flags = numOf(annot.get('F')) ?? 0;
      const prints = (flags & 4) !== 0 && (flags & 2) === 0;
      if (!prints) continue;
      if (subtype !== 'TrapNet' && subtype !== 'PrinterMark') {
        const rect = boxOf(this.objects.resolve(annot.get('Rect')));
        const inside = rect !== undefined && area !== undefined && overlaps(rect, area);
        this.check('annotations', !inside, () => ({ pageIndex: scope.pageIndex, ...objectNumber(item), context: `printing /${subtype} annotation at ${rect ? boxText(rect) : '?'} inside the trim or bleed area` }));
      }
      // What prints of an annotation is its normal appearance: its colours and fonts count like the page's.
      const ap = dictOf(this.objects.resolve(annot.get('AP')));
      const normal = ap?.get('N');
      const appearances = this.objects.isStream(normal) ? [normal] : [...(dictOf(this.objects.resolve(normal))?.values() ?? [])].slice(0, 32);
      for (const form of appearances) {
        this.form(form, { ...scope, context: `${scope.context}, /${subtype} annotation appearance` }, budget, scope.resources);
      }
    }
  }

  // ----- content -------------------------------------------------------------------------------------------------

  /** A page's /Contents (a stream or an array of streams), scanned as one. */
  private scanContents(contents: PdfValue | undefined, scope: Scope, budget: Budget, pageNum: number): void {
    const refs = Array.isArray(contents) ? contents : [contents];
    const parts: Uint8Array[] = [];
    for (const ref of refs.slice(0, 10_000)) {
      if (!(ref instanceof PdfRef)) continue;
      const bytes = this.read(ref.num, budget);
      if (!bytes) {
        this.check('limits', false, () => ({ pageIndex: scope.pageIndex, objectNumber: ref.num, context: 'a content stream could not be decoded' }));
        continue;
      }
      parts.push(bytes, SPACE);
    }
    if (parts.length) this.scan(Buffer.concat(parts), scope, budget, pageNum);
  }

  private read(num: number, budget: Budget): Uint8Array | undefined {
    if (budget.exceeded) return undefined;
    const bytes = this.objects.stream(num);
    if (!bytes) return undefined;
    budget.bytes += bytes.length;
    if (budget.bytes > MAX_PAGE_CONTENT_BYTES) {
      budget.exceeded = true;
      return undefined;
    }
    return bytes;
  }

  private scan(content: Uint8Array, scope: Scope, budget: Budget, objectNumber: number | undefined): void {
    const at = (what: string) => (): RuleLocation => ({ pageIndex: scope.pageIndex, ...(objectNumber !== undefined ? { objectNumber } : {}), context: `${scope.context}: ${what}` });
    const result = scanContent(content, MAX_PAGE_OPERATORS - budget.operators, (op, operands) => {
      switch (op) {
        case 'rg':
        case 'RG':
          this.deviceColour('DeviceRGB', scope, at(`${op} operator (DeviceRGB)`));
          break;
        case 'k':
        case 'K':
          this.deviceColour('DeviceCMYK', scope, at(`${op} operator (DeviceCMYK)`));
          break;
        case 'cs':
        case 'CS': {
          const name = nameOf(operands[operands.length - 1]);
          if (name !== undefined) this.colourSpace(new PdfName(name), scope, at(`${op} /${name}`), 0);
          break;
        }
        case 'scn':
        case 'SCN': {
          const name = nameOf(operands[operands.length - 1]);
          if (name !== undefined) this.pattern(this.resource(scope, 'Pattern', name), scope, `pattern /${name}`, budget);
          break;
        }
        case 'sh': {
          const name = nameOf(operands[0]);
          if (name !== undefined) this.shading(this.resource(scope, 'Shading', name), scope, at(`sh /${name}`));
          break;
        }
        case 'gs': {
          const name = nameOf(operands[0]);
          if (name !== undefined) this.extGState(this.resource(scope, 'ExtGState', name), scope, `ExtGState /${name}`);
          break;
        }
        case 'Tf': {
          const name = nameOf(operands[0]);
          if (name !== undefined) this.font(this.resource(scope, 'Font', name), scope, `font /${name}`, budget);
          break;
        }
        case 'Do': {
          const name = nameOf(operands[0]);
          if (name !== undefined) this.xobject(this.resource(scope, 'XObject', name), scope, `XObject /${name}`, budget);
          break;
        }
        case 'PS':
          this.check('postscript', false, at('PS operator'));
          break;
        case 'BI':
          this.inlineImage(operands[0] instanceof Map ? operands[0] : new Map(), scope, at('inline image'));
          break;
      }
      return !budget.exceeded;
    });
    budget.operators += result.operators;
    if (result.stopped) budget.exceeded = true;
  }

  /**
   * A named resource of the scope (the entry as written: a reference or a direct value). Content that names
   * a resource that is not there cannot be checked: it fails the limits rule.
   */
  private resource(scope: Scope, category: string, name: string): PdfValue | undefined {
    const value = dictOf(this.objects.resolve(scope.resources?.get(category)))?.get(name);
    if (value === undefined || (value instanceof PdfRef && this.objects.resolve(value) === undefined)) {
      this.check('limits', false, () => ({ pageIndex: scope.pageIndex, context: `${scope.context}: the ${category} resource /${name} does not exist, so what it draws was not checked` }));
      return undefined;
    }
    return value;
  }

  /** A form XObject (or annotation appearance): its own resources, else its parent's, scanned one level deeper. */
  private form(ref: PdfValue | undefined, scope: Scope, budget: Budget, parentResources: PdfDict | undefined): void {
    if (!(ref instanceof PdfRef) || !this.first('form', ref)) return;
    if (scope.depth + 1 > MAX_FORM_DEPTH) {
      budget.exceeded = true;
      return;
    }
    const dict = dictOf(this.objects.get(ref.num));
    const own = dict?.get('Resources');
    const resources = own !== undefined ? dictOf(this.objects.resolve(own)) : parentResources;
    const bytes = this.read(ref.num, budget);
    if (!bytes) {
      if (!budget.exceeded) this.check('limits', false, () => ({ pageIndex: scope.pageIndex, objectNumber: ref.num, context: 'a form stream could not be decoded' }));
      return;
    }
    this.scan(bytes, { ...scope, resources, depth: scope.depth + 1 }, budget, ref.num);
  }

  private xobject(ref: PdfValue | undefined, scope: Scope, what: string, budget: Budget): void {
    if (ref === undefined) return;
    const dict = dictOf(this.objects.resolve(ref));
    if (!dict) return;
    const subtype = nameOf(dict.get('Subtype'));
    const postscript = subtype === 'PS' || nameOf(dict.get('Subtype2')) === 'PS';
    if (postscript || subtype === 'Form') {
      this.check('postscript', !postscript, () => ({ pageIndex: scope.pageIndex, ...objectNumber(ref), context: `${scope.context}: ${what} is a PostScript XObject` }));
    }
    if (subtype === 'Form' && !postscript) {
      this.form(ref, { ...scope, context: `${scope.context}, form ${what}` }, budget, scope.resources);
      return;
    }
    if (subtype !== 'Image' || !this.first('image', ref)) return;
    const at = (detail: string) => (): RuleLocation => ({ pageIndex: scope.pageIndex, ...objectNumber(ref), context: `${scope.context}: image ${what}${detail}` });
    if (dict.get('ImageMask') !== true) {
      const cs = dict.get('ColorSpace');
      if (cs !== undefined) this.colourSpace(cs, scope, at(''), 0);
    }
    const smask = dict.get('SMask');
    this.check('transparency', smask === undefined || nameOf(smask) === 'None', at(' has an /SMask'));
    const inData = numOf(dict.get('SMaskInData')) ?? 0;
    this.check('transparency', inData === 0, at(' has /SMaskInData'));
  }

  private inlineImage(dict: Map<string, Operand>, scope: Scope, at: () => RuleLocation): void {
    const filters = filterNames(toValue(dict.get('F') ?? dict.get('Filter')));
    this.check('lzw', !filters.some((f) => f === 'LZWDecode' || f === 'LZW'), at);
    const mask = dict.get('IM') ?? dict.get('ImageMask');
    if (mask === true) return;
    const cs = dict.get('CS') ?? dict.get('ColorSpace');
    if (cs === undefined) return;
    const abbreviation: Record<string, string> = { G: 'DeviceGray', RGB: 'DeviceRGB', CMYK: 'DeviceCMYK', I: 'Indexed' };
    if (cs instanceof PdfName) {
      this.colourSpace(new PdfName(abbreviation[cs.name] ?? cs.name), scope, at, 0);
    } else if (Array.isArray(cs)) {
      const family = nameOf(cs[0]);
      const value = toValue(cs) as PdfValue[];
      if (family !== undefined && abbreviation[family]) value[0] = new PdfName(abbreviation[family]!);
      // An inline Indexed space may name its base by abbreviation too.
      const base = nameOf(value[1]);
      if (base !== undefined && abbreviation[base]) value[1] = new PdfName(abbreviation[base]!);
      this.colourSpace(value, scope, at, 0);
    }
  }

  private deviceColour(family: 'DeviceRGB' | 'DeviceCMYK' | 'DeviceGray', scope: Scope, at: () => RuleLocation): void {
    this.check('colourX1a', family !== 'DeviceRGB', at);
    if (family === 'DeviceGray') {
      this.check('deviceColour', true, at);
      return;
    }
    const defaults = dictOf(this.objects.resolve(scope.resources?.get('ColorSpace')));
    if (defaults?.has(family === 'DeviceRGB' ? 'DefaultRGB' : 'DefaultCMYK')) {
      this.check('deviceColour', true, at);
      return;
    }
    // A registered condition without an embedded profile is a CMYK printing condition.
    const intent = this.intentColour ?? 'CMYK';
    this.check('deviceColour', family === 'DeviceRGB' ? intent === 'RGB' : intent === 'CMYK', () => {
      const loc = at();
      return { ...loc, context: `${loc.context} with a ${intent} output intent` };
    });
  }

  /** A colour space as written (a name, resource name or array), checked against the colour rules. */
  private colourSpace(cs: PdfValue | undefined, scope: Scope, at: () => RuleLocation, depth: number): void {
    if (depth > 4 || cs === undefined) return;
    if (cs instanceof PdfRef) {
      if (!this.first('colourspace', cs)) return;
      this.colourSpace(this.objects.resolve(cs), scope, at, depth + 1);
      return;
    }
    if (cs instanceof PdfName) {
      const n = cs.name;
      if (n === 'DeviceRGB' || n === 'DeviceCMYK' || n === 'DeviceGray') return this.deviceColour(n, scope, at);
      if (n === 'Pattern') return;
      if (depth === 0) this.colourSpace(this.resource(scope, 'ColorSpace', n), scope, at, depth + 1);
      return;
    }
    if (!Array.isArray(cs)) return;
    const family = nameOf(cs[0]);
    switch (family) {
      case 'Indexed':
      case 'I':
        this.colourSpace(cs[1], scope, at, depth + 1);
        return;
      case 'Pattern':
        if (cs[1] !== undefined) this.colourSpace(cs[1], scope, at, depth + 1);
        return;
      case 'Separation':
      case 'DeviceN':
        // Spot colour is allowed in every part; its alternate is only used where the colorant is missing.
        this.check('colourX1a', true, at);
        return;
      case 'DeviceRGB':
      case 'DeviceCMYK':
      case 'DeviceGray':
        this.deviceColour(family, scope, at);
        return;
      default:
        // CalRGB, CalGray, Lab, ICCBased: device-independent colour, which X-1a excludes and X-3/X-4 allow.
        this.check('colourX1a', false, () => {
          const loc = at();
          return { ...loc, context: `${loc.context} (/${family ?? '?'} colour space)` };
        });
    }
  }

  private shading(ref: PdfValue | undefined, scope: Scope, at: () => RuleLocation): void {
    if (ref === undefined || !this.first('shading', ref)) return;
    const dict = dictOf(this.objects.resolve(ref));
    if (dict) this.colourSpace(dict.get('ColorSpace'), scope, at, 1);
  }

  private pattern(ref: PdfValue | undefined, scope: Scope, what: string, budget: Budget): void {
    if (ref === undefined) return;
    const dict = dictOf(this.objects.resolve(ref));
    if (!dict) return;
    const at = (): RuleLocation => ({ pageIndex: scope.pageIndex, ...objectNumber(ref), context: `${scope.context}: ${what}` });
    if (numOf(dict.get('PatternType')) === 2) {
      if (!this.first('pattern', ref)) return;
      this.shading(dict.get('Shading'), scope, at);
      const gs = dict.get('ExtGState');
      if (gs !== undefined) this.extGState(gs, scope, `${what} ExtGState`);
      return;
    }
    this.form(ref, { ...scope, context: `${scope.context}, ${what}` }, budget, scope.resources);
  }

  private extGState(ref: PdfValue | undefined, scope: Scope, what: string): void {
    if (ref === undefined || !this.first('gs', ref)) return;
    const gs = dictOf(this.objects.resolve(ref));
    if (!gs) return;
    const at = (detail: string) => (): RuleLocation => ({ pageIndex: scope.pageIndex, ...objectNumber(ref), context: `${scope.context}: ${what} ${detail}` });
    const smask = gs.get('SMask');
    this.check('transparency', smask === undefined || nameOf(smask) === 'None', at('has a soft mask (/SMask)'));
    for (const key of ['CA', 'ca']) {
      const alpha = numOf(this.objects.resolve(gs.get(key)));
      this.check('transparency', alpha === undefined || alpha >= 1, at(`has /${key} ${alpha}`));
    }
    const bm = this.objects.resolve(gs.get('BM'));
    const modes = Array.isArray(bm) ? bm.map(nameOf) : [nameOf(bm)];
    const blend = bm === undefined || modes.every((m) => m === undefined || m === 'Normal' || m === 'Compatible');
    this.check('transparency', blend, at(`has blend mode ${modes.map((m) => `/${m ?? '?'}`).join(' ')}`));
    const tr = gs.get('TR');
    this.check('transfer', tr === undefined || nameOf(tr) === 'Identity', at('has a transfer function (/TR)'));
    const tr2 = gs.get('TR2');
    this.check('transfer', tr2 === undefined || nameOf(tr2) === 'Default' || nameOf(tr2) === 'Identity', at('has a transfer function (/TR2)'));
    const ht = gs.get('HT');
    if (ht !== undefined && nameOf(ht) !== 'Default') this.halftone(ht, at, 0);
  }

  private halftone(ref: PdfValue, at: (detail: string) => () => RuleLocation, depth: number): void {
    if (depth > 2) return;
    const dict = dictOf(this.objects.resolve(ref));
    if (!dict) return;
    const type = numOf(dict.get('HalftoneType'));
    const typeOk = this.part.x4 || type === 1 || type === 5;
    this.check('halftone', typeOk && !dict.has('HalftoneName'), at(dict.has('HalftoneName') ? 'has a halftone with /HalftoneName' : `has a halftone of type ${type ?? '?'}`));
    const tf = dict.get('TransferFunction');
    this.check('transfer', tf === undefined || nameOf(tf) === 'Identity', at('has a halftone /TransferFunction'));
    if (type === 5) {
      for (const [key, value] of [...dict].slice(0, 40)) {
        if (key !== 'Type' && key !== 'HalftoneType' && key !== 'HalftoneName') this.halftone(value, at, depth + 1);
      }
    }
  }

  /** A Type 3 font's glyph procedures, scanned with the font's resources (or the page's, where it has none). */
  private type3Glyphs(font: PdfDict, scope: Scope, what: string, budget: Budget): void {
    if (scope.depth + 1 > MAX_FORM_DEPTH) {
      budget.exceeded = true;
      return;
    }
    const procs = dictOf(this.objects.resolve(font.get('CharProcs')));
    const own = font.get('Resources');
    const resources = own !== undefined ? dictOf(this.objects.resolve(own)) : scope.resources;
    for (const [glyph, proc] of [...(procs ?? new Map<string, PdfValue>())].slice(0, 256)) {
      if (!(proc instanceof PdfRef)) continue;
      const bytes = this.read(proc.num, budget);
      if (!bytes) {
        if (!budget.exceeded) this.check('limits', false, () => ({ pageIndex: scope.pageIndex, objectNumber: proc.num, context: `${scope.context}: glyph /${glyph} of ${what} could not be decoded` }));
        continue;
      }
      this.scan(bytes, { ...scope, resources, depth: scope.depth + 1, context: `${scope.context}, glyph /${glyph} of Type 3 ${what}` }, budget, proc.num);
    }
  }

  private font(ref: PdfValue | undefined, scope: Scope, what: string, budget: Budget): void {
    if (ref === undefined || !this.first('font', ref)) return;
    const font = dictOf(this.objects.resolve(ref));
    if (!font) return;
    const subtype = nameOf(font.get('Subtype'));
    const base = nameOf(font.get('BaseFont')) ?? '?';
    if (subtype === 'Type3') {
      // Its glyphs are content in the file: embedded by nature, and checked like any other content.
      this.check('fonts', true, () => ({ context: '' }));
      this.type3Glyphs(font, scope, what, budget);
      return;
    }
    let descriptorHolder: PdfDict | undefined = font;
    if (subtype === 'Type0') {
      const descendants = this.objects.resolve(font.get('DescendantFonts'));
      descriptorHolder = Array.isArray(descendants) ? dictOf(this.objects.resolve(descendants[0])) : undefined;
    }
    const descriptor = dictOf(this.objects.resolve(descriptorHolder?.get('FontDescriptor')));
    const embedded = descriptor !== undefined && ['FontFile', 'FontFile2', 'FontFile3'].some((key) => this.objects.isStream(descriptor.get(key)));
    this.check('fonts', embedded, () => ({ pageIndex: scope.pageIndex, ...objectNumber(ref), context: `${scope.context}: ${what} (${base}) is not embedded` }));
  }
}

const SPACE = new Uint8Array([0x0a]);

const hasText = (s: string | undefined): boolean => s !== undefined && s.trim() !== '';

function objectNumber(v: PdfValue | undefined): { objectNumber?: number } {
  return v instanceof PdfRef ? { objectNumber: v.num } : {};
}

function contentKey(contents: PdfValue | undefined): string {
  const refs = Array.isArray(contents) ? contents : [contents];
  return refs.map((r) => (r instanceof PdfRef ? r.num : 'x')).join(',');
}

function filterNames(filter: PdfValue | undefined): string[] {
  if (filter instanceof PdfName) return [filter.name];
  if (Array.isArray(filter)) return filter.map(nameOf).filter((n): n is string => n !== undefined);
  return [];
}

/** A content operand as a parsed value (names and numbers are the same classes; dictionaries become maps). */
function toValue(v: Operand | undefined): PdfValue | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.map((item) => toValue(item) ?? null);
  if (v instanceof Map) return new Map([...v].map(([k, item]) => [k, toValue(item) ?? null]));
  if (v instanceof PdfName || typeof v === 'number' || typeof v === 'boolean' || v === null) return v;
  return null;
}

/** A simple property of an XMP packet, as an element or an attribute, under its conventional prefix. */
function xmpProperty(xmp: string | undefined, prefix: string, key: string): string | undefined {
  if (xmp === undefined) return undefined;
  const element = new RegExp(`<${prefix}:${key}(?:\\s[^>]*)?>([^<]*)</${prefix}:${key}>`).exec(xmp);
  if (element) return decodeXml(element[1]!.trim());
  const attribute = new RegExp(`\\s${prefix}:${key}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(xmp);
  return attribute ? decodeXml((attribute[1] ?? attribute[2] ?? '').trim()) : undefined;
}

function xmpTitle(xmp: string | undefined): string | undefined {
  const m = xmp === undefined ? null : /<dc:title\b[^>]*>[\s\S]*?<rdf:li\b[^>]*>([^<]*)<\/rdf:li>/.exec(xmp);
  return m ? decodeXml(m[1]!) : undefined;
}

function decodeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!);
}
