import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { call, putPdf, storedBytes, type CallOptions, type Reply } from '../test/helpers/http.js';
import { differingShare, pixelsDiffer, qpdfCheck, renderDifference, renderPage, withTempFile, type Render } from '../test/helpers/pdf.js';
import { countBySubtype, QpdfDocument, qpdfAnnotations, qpdfFields, type QpdfField } from '../test/helpers/qpdf-json.js';
import { serverForSuite } from '../test/helpers/server.js';
import { corpusDir, readManifest, type CorpusEntry } from './manifest.js';

/**
 * The fields resource and flattening (issue 8) on real-world files, checked
 * with independent tools: qpdf (fields, values, structure, --check) and
 * poppler (renders and text before and after flattening).
 *
 * Every corpus PDF with the `forms` or `flatten` feature that opens without a
 * password: GET .../fields agrees with qpdf's AcroForm reading (names, type
 * families, widget pages, values, defaults); every writable text field is set
 * (PUT) and read back by the service and by qpdf, and shows once flattened;
 * DELETE .../fields resets every field to its default; FlattenFieldsAction
 * leaves no field and no widget, keeps every text value on the page, and the
 * pages look as before (compareRenders). Every PDF with the `annotations`
 * feature: FlattenAnnotationsAction leaves only links and widgets and the
 * pages look as before. Every write passes qpdf --check (with warnings only
 * where the source has them), and no request answers a 5xx.
 *
 * Render comparisons are fair only where poppler drew, before flattening,
 * the same appearance streams that MuPDF paints into the page: not where an
 * annotation has no appearance or the form sets NeedAppearances (poppler then
 * draws its own, MuPDF generates another; see Painted). Those pages get a
 * per-annotation ink check instead of a pixel tolerance, and their text
 * values are checked in the page text.
 */
const dir = corpusDir();
if (!dir) {
  console.log('# corpus fields suite skipped: no corpus at PDFSERVICE_CORPUS or ../shared/corpus');
  test.skip('corpus fields suite (no corpus found)');
} else {
  const pdfs = readManifest(dir).filter((e) => e.file.toLowerCase().endsWith('.pdf') && !e.publicKey);
  const forms = pdfs.filter((e) => e.features.includes('forms') || e.features.includes('flatten'));
  const annotated = pdfs.filter((e) => e.features.includes('annotations'));
  const server = serverForSuite();

  const json = { accept: 'application/json' };
  /**
   * Share of a page's pixels (72 dpi, pixelsDiffer) that may differ between
   * the original and the flattened page where the comparison is fair (see
   * compareRenders). Flattening paints the same appearance streams with the
   * same placement, so poppler draws the same pixels: measured on this
   * corpus, every page is identical but one, annotation-highlight.pdf, at
   * 0.048% (its highlight is blended with Multiply over the text, which
   * poppler rounds differently once it is page content). 0.1% is twice that;
   * a lost field of 100 x 20 points is 0.4% of a Letter page. Smaller losses
   * (a check box is 0.03%) are caught by the ink check per annotation.
   */
  const FIELDS_TOLERANCE = 0.001;
  const ANNOTATIONS_TOLERANCE = 0.001;
  /** Every request of the suite: no answer may be a 5xx, whatever the file. */
  async function request(method: string, url: string, options: CallOptions = {}): Promise<Reply> {
    const reply = await call(server, method, url, { ...options, headers: { ...json, ...options.headers } });
    assert.ok(reply.status < 500, `${method} ${url}: ${reply.status} ${reply.text.slice(0, 300)}`);
    return reply;
  }
  const target = (section: string, file: string) => `corpus-${section}/${file.split('/').map(encodeURIComponent).join('/')}`;

  /**
   * Uploads a corpus file; undefined when the file is refused (4xx, only for
   * files the manifest calls malformed) or needs a password to open.
   */
  async function upload(section: string, entry: CorpusEntry): Promise<{ doc: string; bytes: Buffer; pages: number } | undefined> {
    const doc = target(section, entry.file);
    const bytes = readFileSync(entry.absolute);
    const put = await putPdf(server, doc, bytes);
    assert.ok(put.status < 500, `upload: ${put.status} ${put.text.slice(0, 300)}`);
    if (put.status !== 201) {
      assert.ok(entry.features.includes('malformed'), `upload refused: ${put.status} ${put.text.slice(0, 300)}`);
      return undefined;
    }
    const probe = await request('GET', `/documents/${doc}/fields`);
    if (probe.status === 403 && probe.json().code === 'DOCUMENT_PASSWORD_REQUIRED') return undefined;
    return { doc, bytes, pages: put.json().pageCount as number };
  }

  /**
   * qpdf --check of an output: clean, or, when qpdf already warned about the
   * source (damaged streams, linearization hints that no longer apply), with
   * warnings but no errors.
   */
  function assertQpdfClean(bytes: Buffer, source: Buffer, what: string): void {
    const check = qpdfCheck(bytes);
    if (check.ok) return;
    const sourceClean = qpdfCheck(source).ok;
    assert.ok(!sourceClean && /operation succeeded with warnings/.test(check.output) && !/^qpdf: .*(error|ERROR)/m.test(check.output), `${what}: qpdf --check: ${check.output.slice(0, 600)}`);
  }

  type Field = {
    name: string;
    type: string;
    value?: string | string[];
    defaultValue?: string | string[];
    options?: { exportValue: string; displayText: string }[];
    readOnly: boolean;
    password?: boolean;
    comb?: boolean;
    maxLength?: number;
    widgets: { pageIndex: number }[];
  };
  const getFields = async (doc: string): Promise<{ fields: Field[]; hasXfa: boolean }> => {
    const reply = await request('GET', `/documents/${doc}/fields`);
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    return reply.json();
  };

  const QPDF_TYPE: Record<string, string> = { text: '/Tx', checkbox: '/Btn', radio: '/Btn', pushbutton: '/Btn', combo: '/Ch', list: '/Ch', signature: '/Sig' };

  /**
   * A field's value as qpdf would state it. qpdf reports a button's /V, the
   * appearance state name; where the field has /Opt the states are indexes
   * ("0", "1") and the service reports the export value the state stands for
   * (its options list map one to the other: displayText is the state).
   */
  function asQpdfValue(f: Field): unknown {
    if (f.type === 'checkbox' || f.type === 'radio') {
      if (f.value === 'Off') return 'Off';
      return f.options?.find((o) => o.exportValue === f.value)?.displayText ?? f.value;
    }
    // A list box's value is a list for a multiple-selection list, otherwise one export value (or [] when none).
    if (f.type === 'list') return Array.isArray(f.value) ? f.value : f.value === '' || f.value === undefined ? [] : [f.value];
    return f.value;
  }

  /** qpdf's value in the service's terms: no /V is the empty value ("Off" for buttons, [] for lists); a list's single string is a one-item list. */
  function qpdfValue(q: QpdfField, type: string): unknown {
    const v = q.value;
    if (type === 'checkbox' || type === 'radio') return v === null || v === undefined || v === '' ? 'Off' : v;
    if (type === 'list') return v === null || v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v];
    if (type === 'combo' && Array.isArray(v)) return v[0] ?? '';
    return v === null || v === undefined ? '' : v;
  }

  /** A field's value when it has none. */
  const emptyOf = (type: string): string | string[] => (type === 'list' ? [] : type === 'checkbox' || type === 'radio' ? 'Off' : '');

  /** Fields with a value: everything but push buttons and signatures. */
  const holdsData = (f: Field) => f.type !== 'pushbutton' && f.type !== 'signature';

  /** Compares the listing with qpdf's, field by field; `what` names the state (after a write, a reset). */
  function assertAgreesWithQpdf(fields: Field[], bytes: Buffer, what: string): void {
    const qpdf = new Map(qpdfFields(bytes).map((q) => [q.fullname, q]));
    // qpdf lists the fields it reaches from the pages' widget annotations; a terminal field whose widgets
    // are on no page (or that has none) is in the field tree, where the service finds it, but not in qpdf's
    // list. Those, and only those, are missing from qpdf's list.
    const onPage = fields.filter((f) => f.widgets.some((w) => w.pageIndex >= 0));
    assert.deepEqual(onPage.map((f) => f.name).sort(), [...qpdf.keys()].sort(), `${what}: the fields with widgets on pages are qpdf's fields`);
    for (const f of onPage) {
      const q = qpdf.get(f.name)!;
      assert.equal(QPDF_TYPE[f.type], q.fieldtype, `${what}: ${f.name}: type ${f.type}`);
      assert.deepEqual(f.widgets.filter((w) => w.pageIndex >= 0).map((w) => w.pageIndex + 1).sort((a, b) => a - b), [...q.pages].sort((a, b) => a - b), `${what}: ${f.name}: widget pages`);
      if (!holdsData(f)) continue;
      assert.deepEqual(asQpdfValue(f), qpdfValue(q, f.type), `${what}: ${f.name}: value`);
      assert.deepEqual(asQpdfValue({ ...f, value: f.defaultValue ?? emptyOf(f.type) }), qpdfValue({ ...q, value: q.defaultValue }, f.type), `${what}: ${f.name}: default value`);
    }
  }

  /** A value that fits the field: `Corpus <n>`, or as much of it as its maximum length allows (the number kept, so values stay distinct). */
  function textFor(n: number, maxLength: number | undefined): string {
    const full = `Corpus ${n}`;
    if (!maxLength || maxLength <= 0 || full.length <= maxLength) return full;
    return String(n).padStart(maxLength, 'C').slice(-maxLength);
  }

  /** Annotation flags (ISO 32000-1, table 165). */
  const HIDDEN = 1 << 1;
  const NO_VIEW = 1 << 5;

  type Dict = Record<string, unknown>;
  const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

  /** One annotation that the flattening paints, as qpdf reads the original. */
  interface Painted {
    /** 1-based. */
    page: number;
    subtype: string;
    rect: [number, number, number, number];
    /**
     * Whether poppler draws the annotation's own appearance before flattening,
     * which is what MuPDF paints: it has /AP /N, and poppler does not make its
     * own instead. Poppler makes its own for every field of a form that sets
     * NeedAppearances, and for a Highlight whose appearance has no ExtGState in
     * its resources (AnnotTextMarkup::shouldCreateApperance, copying Adobe
     * Reader; corpus: verapdf 6-3-2-t01-fail-i.pdf, whose appearance is a space
     * invader that poppler replaces with a black bar).
     */
    ownAppearance: boolean;
  }

  /** The visible annotations of the given subtypes, page by page (qpdf), and whether each is drawn from its own appearance. */
  function paintedAnnotations(bytes: Buffer, painted: (subtype: string) => boolean): Painted[] {
    const q = new QpdfDocument(bytes);
    const acroForm = q.get(q.catalog(), '/AcroForm');
    const needAppearances = isDict(acroForm) && q.get(acroForm, '/NeedAppearances') === true;
    const out: Painted[] = [];
    q.pages.forEach((ref, index) => {
      const annots = q.get(q.resolve(ref) as Dict, '/Annots');
      if (!Array.isArray(annots)) return;
      for (const entry of annots) {
        const a = q.resolve(entry);
        if (!isDict(a)) continue;
        const subtype = String(q.get(a, '/Subtype') ?? '').slice(1);
        const flags = Number(q.get(a, '/F') ?? 0);
        const rect = q.get(a, '/Rect');
        if (!painted(subtype) || flags & HIDDEN || flags & NO_VIEW || !Array.isArray(rect) || rect.length !== 4) continue;
        const ap = q.get(a, '/AP');
        const normal = isDict(ap) ? q.get(ap, '/N') : undefined;
        let ownAppearance = isDict(normal);
        if (subtype === 'Widget' && needAppearances) ownAppearance = false;
        if (subtype === 'Highlight' && ownAppearance) {
          const resources = isDict(normal) ? q.get(normal, '/Resources') : undefined;
          ownAppearance = isDict(resources) && isDict(q.get(resources, '/ExtGState'));
        }
        out.push({ page: index + 1, subtype, rect: rect.map((n) => Number(q.resolve(n))) as Painted['rect'], ownAppearance });
      }
    });
    return out;
  }

  /** Each page's crop box and rotation, as poppler (which renders it) reads them. */
  function pageBoxes(bytes: Buffer, pages: number): { box: [number, number, number, number]; rotate: number }[] {
    const info = withTempFile(bytes, (file) => execFileSync('pdfinfo', ['-f', '1', '-l', String(pages), '-box', file], { encoding: 'utf8' }));
    const out: { box: [number, number, number, number]; rotate: number }[] = [];
    for (const m of info.matchAll(/^Page\s+(\d+) rot:\s+(\d+)/gm)) out[Number(m[1]) - 1] = { box: [0, 0, 0, 0], rotate: Number(m[2]) % 360 };
    for (const m of info.matchAll(/^Page\s+(\d+) CropBox:\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)/gm)) out[Number(m[1]) - 1]!.box = [Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
    return out;
  }

  /** A PDF rectangle as the pixel box it covers in a 72 dpi render of its page (crop box origin, page rotation). */
  function pixelBox(rect: Painted['rect'], page: { box: [number, number, number, number]; rotate: number }): { left: number; top: number; right: number; bottom: number } {
    const [x0, y0, x1, y1] = page.box;
    const xa = Math.min(rect[0], rect[2]);
    const xb = Math.max(rect[0], rect[2]);
    const ya = Math.min(rect[1], rect[3]);
    const yb = Math.max(rect[1], rect[3]);
    switch (page.rotate) {
      case 90:
        return { left: ya - y0, right: yb - y0, top: xa - x0, bottom: xb - x0 };
      case 180:
        return { left: x1 - xb, right: x1 - xa, top: ya - y0, bottom: yb - y0 };
      case 270:
        return { left: y1 - yb, right: y1 - ya, top: x1 - xb, bottom: x1 - xa };
      default:
        return { left: xa - x0, right: xb - x0, top: y1 - yb, bottom: y1 - ya };
    }
  }

  /**
   * The ink inside an annotation's box: pixels that differ (pixelsDiffer)
   * from the page drawn without its annotations (pdftoppm
   * -hide-annotations). The box is inset by 3 pixels, which leaves out a
   * widget's border and bevel: what remains is its value (text, a check, a
   * dot) or the annotation's drawing, whoever drew it and in whatever font or
   * colour.
   */
  function inkIn(render: Render, bare: Render, box: { left: number; top: number; right: number; bottom: number }): number {
    const left = Math.max(0, Math.ceil(box.left) + 3);
    const top = Math.max(0, Math.ceil(box.top) + 3);
    const right = Math.min(render.width, Math.floor(box.right) - 3);
    const bottom = Math.min(render.height, Math.floor(box.bottom) - 3);
    let ink = 0;
    for (let y = top; y < bottom; y++) for (let x = left; x < right; x++) if (pixelsDiffer(render.rgb(x, y), bare.rgb(x, y))) ink++;
    return ink;
  }

  /**
   * The flattened pages against the original, rendered by poppler at 72 dpi:
   * - Where the comparison is fair (every painted annotation on the page is
   *   drawn from its own appearance before, see Painted), the renders differ
   *   in less than `tolerance` of the page's pixels.
   * - Everywhere, each painted annotation that showed ink before (its value,
   *   its check, its drawing) still shows at least a fifth as much after:
   *   where poppler drew its own appearance before and MuPDF generated one
   *   for the flattening, the two differ in font, size and placement (no
   *   pixel tolerance tells that from a loss), but a value that went missing
   *   leaves its box empty.
   * Answers the pages left out of the pixel comparison.
   */
  function compareRenders(original: Buffer, flat: Buffer, items: Painted[], pages: number, tolerance: number): number[] {
    const boxes = pageBoxes(original, pages);
    const unfair = new Set(items.filter((i) => !i.ownAppearance).map((i) => i.page));
    for (let page = 1; page <= pages; page++) {
      const onPage = items.filter((i) => i.page === page);
      if (onPage.length === 0 && !unfair.has(page)) {
        // Nothing painted here: the page must not change at all.
        const diff = renderDifference(original, flat, page);
        assert.ok(diff < tolerance, `page ${page} (no annotation painted): renders differ in ${(diff * 100).toFixed(3)}% of pixels`);
        continue;
      }
      const before = renderPage(original, page, 72);
      const after = renderPage(flat, page, 72);
      const bare = renderPage(original, page, 72, { hideAnnotations: true });
      if (!unfair.has(page)) {
        const diff = differingShare(before, after);
        assert.ok(diff < tolerance, `page ${page}: renders differ in ${(diff * 100).toFixed(3)}% of pixels`);
      }
      for (const item of onPage) {
        const box = pixelBox(item.rect, boxes[page - 1]!);
        const was = inkIn(before, bare, box);
        const is = inkIn(after, bare, box);
        if (was >= 4) assert.ok(is >= Math.max(2, 0.2 * was), `page ${page}: the ${item.subtype} at [${item.rect.join(' ')}] showed ${was} pixels of ink before and ${is} after`);
      }
    }
    return [...unfair].sort((a, b) => a - b);
  }

  /** The page text in content order (pdftotext -raw: a field's lines stay together, rotated or not), without white space. */
  function rawText(bytes: Buffer): string {
    return withTempFile(bytes, (file) => execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 })).replace(/\s+/g, '');
  }

  /**
   * Terminal fields with a format action (/AA /F, inherited): a viewer shows
   * the value as the script formats it, and so does the appearance the file
   * carries (pdf-lib/forms/sample_form.pdf: the value 1234567890 shows as
   * "(123) 456-7890"). Read with qpdf.
   */
  function formattedFields(bytes: Buffer): Set<string> {
    const json = withTempFile(bytes, (file) => {
      const run = spawnSync('qpdf', ['--json', '--json-key=acroform', '--json-key=qpdf', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
      return run.stdout;
    });
    const parsed = JSON.parse(json) as { acroform: { fields: { fullname: string; object: string }[] }; qpdf: [unknown, Record<string, { value?: unknown }>] };
    const objects = parsed.qpdf[1];
    const out = new Set<string>();
    for (const f of parsed.acroform.fields) {
      let ref: unknown = f.object;
      for (let depth = 0; typeof ref === 'string' && depth < 32; depth++) {
        const node = objects[`obj:${ref}`]?.value;
        if (!isDict(node)) break;
        const aa = typeof node['/AA'] === 'string' ? objects[`obj:${node['/AA']}`]?.value : node['/AA'];
        if (isDict(aa) && aa['/F'] !== undefined) {
          out.add(f.fullname);
          break;
        }
        ref = node['/Parent'];
      }
    }
    return out;
  }

  /**
   * Characters no font the flattening can use draws: the forms that have them
   * name a font without them (qpdf/forms/*.pdf: "salad πʬ" in a non-embedded
   * LiberationSans with WinAnsiEncoding), and MuPDF's fallback fonts have no
   * IPA extensions (U+0250-U+02AF) either; poppler shows neither character
   * before flattening. They are not looked for in the flattened text.
   */
  const UNDRAWABLE = /[\u0250-\u02AF]/gu;

  describe(`form corpus PDFs: fields agree with qpdf; text fields are set; reset; flatten (${forms.length} files)`, () => {
    for (const entry of forms) {
      test(`list: ${entry.file}`, async () => {
        const up = await upload('list', entry);
        if (!up) return;
        const model = await getFields(up.doc);
        assertAgreesWithQpdf(model.fields, up.bytes, 'as uploaded');
        // hasXfa: the AcroForm has an /XFA entry (qpdf). pdfjs/forms/xfa_issue14315.pdf is XFA-only: its AcroForm has
        // no /Fields, so qpdf and the service both list no field, and the service says so with hasXfa.
        const q = new QpdfDocument(up.bytes);
        const acroForm = q.get(q.catalog(), '/AcroForm') as Record<string, unknown> | null;
        assert.equal(model.hasXfa, acroForm !== null && typeof acroForm === 'object' && q.get(acroForm, '/XFA') !== null && q.get(acroForm, '/XFA') !== undefined, 'hasXfa');
      });

      // Every text field that is not read-only is set, comb fields included (the value fits /MaxLen, as a comb field's
      // cells require). Password fields would be set too (the corpus has none): only their appearance, which shows
      // bullets, is not looked for in the page text.
      test(`set every writable text field, then reset: ${entry.file}`, async () => {
        const up = await upload('set', entry);
        if (!up) return;
        const { fields } = await getFields(up.doc);
        const written = new Map<string, string>();
        let bytes = up.bytes;
        let n = 0;
        for (const f of fields) {
          if (f.type !== 'text' || f.readOnly) continue;
          const value = textFor(++n, f.maxLength);
          const reply = await request('PUT', `/documents/${up.doc}/fields/${encodeURIComponent(f.name)}`, { body: { value } });
          assert.equal(reply.status, 200, `${f.name}: ${reply.text.slice(0, 300)}`);
          assert.equal(reply.json().value, value, `${f.name}: the answer`);
          written.set(f.name, value);
          bytes = await storedBytes(server, up.doc);
          assertQpdfClean(bytes, up.bytes, `after setting ${f.name}`);
          const q = qpdfFields(bytes).find((x) => x.fullname === f.name);
          assert.equal(q?.value, value, `${f.name}: qpdf reads the new value`);
        }
        // Every value set is still there at the end (a later write does not undo an earlier one), and nothing else changed.
        const afterWrites = await getFields(up.doc);
        for (const f of afterWrites.fields) {
          const before = fields.find((x) => x.name === f.name)!;
          assert.deepEqual(f.value, written.get(f.name) ?? before.value, `${f.name}: value after all writes`);
        }
        assertAgreesWithQpdf(afterWrites.fields, bytes, 'after the writes');
        // The appearances show the new values: flattened (into another document), the page text has each of them.
        if (written.size > 0) {
          const flatDoc = `${up.doc}.flat.pdf`;
          const flattened = await request('POST', `/documents/${up.doc}`, { body: { FlattenFieldsAction: { savePath: decodeURIComponent(flatDoc), paintNonPrintableFields: true } } });
          assert.equal(flattened.status, 201, flattened.text.slice(0, 300));
          const text = rawText(await storedBytes(server, flatDoc));
          const masked = new Set(fields.filter((f) => f.password).map((f) => f.name));
          for (const [name, value] of written) if (!masked.has(name)) assert.ok(text.includes(value.replace(/\s+/g, '')), `${name}: the flattened page shows ${JSON.stringify(value)}`);
        }

        // Reset: every field holds its default (/DV, or the empty value), per the service and per qpdf (assertAgreesWithQpdf
        // compares the value and the default of each field).
        const reset = await request('DELETE', `/documents/${up.doc}/fields`);
        assert.equal(reset.status, 200, reset.text.slice(0, 300));
        const warnings = reset.json().warnings as string[];
        const afterReset = await getFields(up.doc);
        assert.deepEqual(afterReset.fields, reset.json().fields, 'DELETE answers the fields as GET lists them');
        for (const f of afterReset.fields) {
          if (!holdsData(f)) continue;
          // A default the field cannot take (an option it no longer has) empties it, with a warning naming it.
          const refused = warnings.some((w) => w.includes(JSON.stringify(f.name)));
          const expected = f.defaultValue !== undefined && !refused ? f.defaultValue : emptyOf(f.type);
          assert.deepEqual(f.value, expected, `${f.name}: value after the reset`);
        }
        const resetBytes = await storedBytes(server, up.doc);
        assertQpdfClean(resetBytes, up.bytes, 'after the reset');
        assertAgreesWithQpdf(afterReset.fields, resetBytes, 'after the reset');
      });

      test(`flatten fields: ${entry.file}`, async () => {
        const up = await upload('flatten', entry);
        if (!up) return;
        const { fields } = await getFields(up.doc);

        // Default options: push buttons and non-printing fields are dropped, the rest painted; no field is left either way.
        const plain = await request('POST', `/documents/${up.doc}`, { body: { FlattenFieldsAction: {} } });
        assert.equal(plain.status, 200, plain.text.slice(0, 300));
        const plainBytes = await storedBytes(server, up.doc);
        assertQpdfClean(plainBytes, up.bytes, 'after FlattenFieldsAction {}');
        assert.deepEqual((await getFields(up.doc)).fields, []);
        assert.deepEqual(qpdfFields(plainBytes), []);

        // Everything a viewer shows is painted: the page must look as it did.
        assert.equal((await putPdf(server, up.doc, up.bytes)).status, 200);
        const all = await request('POST', `/documents/${up.doc}`, { body: { FlattenFieldsAction: { paintButtons: true, paintNonPrintableFields: true } } });
        assert.equal(all.status, 200, all.text.slice(0, 300));
        const flat = await storedBytes(server, up.doc);
        assertQpdfClean(flat, up.bytes, 'after FlattenFieldsAction');
        const listed = await getFields(up.doc);
        assert.deepEqual(listed, { fields: [], hasXfa: false }, 'no field and no XFA form left');
        assert.deepEqual(qpdfFields(flat), []);
        assert.equal(qpdfAnnotations(flat).filter((a) => a.subtype === 'Widget').length, 0, 'no widget left (qpdf)');

        // The values are page content now: every non-empty text value is in the page's text (poppler), whatever drew it.
        // A field with a format action shows its value formatted: only its letters and digits are looked for. A text
        // longer than its box is cut off by every viewer (AcroFormsBasicFields.pdf: LongRichTextField holds 5,584
        // characters and its box shows about 2,000): its first 64 characters are looked for.
        const text = rawText(flat);
        const formatted = formattedFields(up.bytes);
        const alnum = (t: string) => t.replace(/[^\p{L}\p{N}]/gu, '');
        for (const f of fields) {
          if (f.type !== 'text' || f.password || typeof f.value !== 'string') continue;
          const shown = [...f.value.replace(UNDRAWABLE, '').replace(/\s+/g, '')].slice(0, 64).join('');
          if (shown === '') continue;
          if (formatted.has(f.name)) assert.ok(alnum(text).includes(alnum(shown)), `${f.name}: its value ${JSON.stringify(f.value)}, formatted, is in the flattened page's text`);
          else assert.ok(text.includes(shown), `${f.name}: its value ${JSON.stringify(f.value)} is in the flattened page's text`);
        }

        const painted = paintedAnnotations(up.bytes, (s) => s === 'Widget');
        const unfair = compareRenders(up.bytes, flat, painted, up.pages, FIELDS_TOLERANCE);
        if (unfair.length > 0) console.log(`# ${entry.file}: flatten fields: pages ${unfair.join(',')} compared by ink only (appearances drawn by poppler before)`);
      });
    }
  });

  describe(`annotated corpus PDFs: FlattenAnnotationsAction (${annotated.length} files)`, () => {
    for (const entry of annotated) {
      test(entry.file, async () => {
        const up = await upload('annotations', entry);
        if (!up) return;
        const reply = await request('POST', `/documents/${up.doc}`, { body: { FlattenAnnotationsAction: { paintNonPrintableAnnots: true } } });
        assert.equal(reply.status, 200, reply.text.slice(0, 300));
        const flat = await storedBytes(server, up.doc);
        assertQpdfClean(flat, up.bytes, 'after FlattenAnnotationsAction');
        const left = await request('GET', `/documents/${up.doc}/annotations`);
        assert.equal(left.status, 200, left.text.slice(0, 300));
        const subtypes = new Set((left.json().annotations as { subtype: string }[]).map((a) => a.subtype));
        assert.deepEqual([...subtypes].filter((s) => s !== 'Link' && s !== 'Widget'), [], 'only links and widgets are left');
        const kept = (list: { subtype: string }[]) => countBySubtype(list.filter((a) => a.subtype === 'Link' || a.subtype === 'Widget'));
        assert.deepEqual(countBySubtype(qpdfAnnotations(flat)), kept(qpdfAnnotations(up.bytes)), 'only links and widgets are left, all of them (qpdf)');

        // Popups are not painted (viewers draw them only when open, as windows); links and widgets stay as they are.
        const painted = paintedAnnotations(up.bytes, (s) => s !== 'Link' && s !== 'Widget' && s !== 'Popup');
        const unfair = compareRenders(up.bytes, flat, painted, up.pages, ANNOTATIONS_TOLERANCE);
        if (unfair.length > 0) console.log(`# ${entry.file}: flatten annotations: pages ${unfair.join(',')} compared by ink only (appearances drawn by poppler before)`);
      });
    }
  });
}
