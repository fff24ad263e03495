import type { FromSchema } from 'json-schema-to-ts';
import { availableParallelism } from 'node:os';
import { ServiceError } from '../../errors.js';
import { readingTurn, type OcrLayer, type QuarterTurn } from '../../engine/models.js';
import { detectOrientation, installedLanguages, recognise, type Recognition } from '../../tools/tesseract.js';
import { throwIfStopped } from '../execution.js';
import type { ActionDefinition, ExecuteInput } from './types.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';
import { NOT_BLANK } from '../../validation.js';

const schema = {
  type: 'object',
  properties: {
    ...OUTPUT_PARAM_SCHEMAS,
    language: {
      type: 'string',
      pattern: '^[A-Za-z_]+(\\+[A-Za-z_]+)*$',
      maxLength: 200,
      default: 'eng',
      description: 'Tesseract language codes, several joined with "+" (eng+deu); 400 UNKNOWN_LANGUAGE names the installed ones',
    },
    dpi: { type: 'integer', minimum: 72, maximum: 600, default: 300, description: 'Resolution the pages are rendered at for recognition' },
    pageIndex: { type: 'integer', minimum: 0, description: 'Only this page (zero-based)' },
    pageRange: { type: 'string', maxLength: 10000, pattern: NOT_BLANK, description: 'Only these pages, 1-based, as in a print dialog: "1-3,7,10-" (default, when absent: every page; empty is 400)' },
    skipPagesWithText: { type: 'boolean', default: true, description: 'Leave a page that already has text of its own alone (reported as skipped)' },
    force: { type: 'boolean', default: false, description: 'Recognise pages again that have a text layer of an earlier OCRAction, replacing it' },
    tagged: { type: 'boolean', default: true, description: 'An untagged document gets a structure tree: each recognised page\'s text layer a P, the page\'s own content an artifact (docs/accessibility.md); a tagged document keeps its tree' },
    autoRotate: { type: 'boolean', default: false, description: "Turn a page found scanned sideways or upside down upright, by its /Rotate (the page's content is not changed)" },
  },
  additionalProperties: false,
} as const;
type Params = FromSchema<typeof schema>;

/** A page recognised with fewer words or a lower mean confidence than this may be turned: its orientation is detected (docs/ocr.md). */
const DOUBTFUL_WORDS = 5;
const DOUBTFUL_CONFIDENCE = 60;
/**
 * Orientation detection below this confidence is not acted on (Tesseract's own scale). Low, unlike OCRmyPDF's 14 for
 * --rotate-pages: OCRmyPDF turns the page on detection's word alone, here the page is recognised turned and the better
 * reading kept, so a wrong guess costs a recognition, not the text. Measured: 2.5 on one sideways line of text, 19-25 on a
 * sideways letter, 2.6 on a photo.
 */
const ORIENTATION_CONFIDENCE = 1.5;
/**
 * A page whose words have a lower mean confidence than this gets no text layer and is reported no-text: what Tesseract
 * reads from a photo or from text turned the wrong way is junk (measured: 9-19 on photos, 28-39 on sideways and
 * upside-down text), text is read at 84-97 (clean to JPEG-noisy pages, the corpus form issue7229.pdf).
 */
const TEXT_CONFIDENCE = 50;

export interface OcrPageReport {
  pageIndex: number;
  /** no-text: recognised, but nothing read there is text (no words, or only words under TEXT_CONFIDENCE); no layer is added. */
  status: 'recognised' | 'no-text' | 'skipped' | 'failed';
  /** Why a page was skipped, failed or has no text. */
  reason?: string;
  words?: number;
  /** Mean word confidence, 0-100. */
  confidence?: number;
  /** Degrees clockwise the page image is turned from upright: how far it was turned, or its lines were, to be read (0 for a no-text page). */
  rotation?: QuarterTurn;
  /** The resolution the page was recognised at (lower than asked for a very large page). */
  dpi?: number;
}

/**
 * OCRAction (docs/ocr.md): the pages get an invisible text layer, line by
 * line with each word where the image shows it, recognised by Tesseract; the
 * pages' own content and images are not changed. Pages run in parallel, one
 * Tesseract per core, each reported as progress. A page that is recognised
 * badly upright has its orientation detected and, when it is turned, is
 * recognised the right way up; the better of the two is kept. A page whose
 * reading is not text (a photo) gets no layer and is reported no-text.
 */
export const OCRAction: ActionDefinition<Params, { language: string }> = {
  name: 'OCRAction',
  target: 'pages',
  need: 'edit',
  long: true,
  summary:
    'Recognises the text of scanned pages (Tesseract) and adds it as an invisible text layer over each page, line by line, so that the document can be searched, ' +
    'selected and extracted; the pages\' content and images are not changed. Pages with text of their own are skipped unless skipPagesWithText is false; pages ' +
    'scanned sideways or upside down are recognised the right way up (autoRotate also turns their display). The report lists each page: recognised (words, mean ' +
    'confidence, rotation), no-text (nothing read there is text, e.g. a photo; nothing added), skipped or failed. Runs as a background job unless ' +
    'Prefer: wait=N. See docs/ocr.md.',
  schema,
  async prepare({ params, tools }) {
    const installed = await installedLanguages(tools);
    const unknown = params.language.split('+').filter((code) => !installed.includes(code));
    if (unknown.length) {
      throw new ServiceError('UNKNOWN_LANGUAGE', `OCR language ${unknown.map((c) => JSON.stringify(c.slice(0, 50))).join(', ')} is not installed. Installed: ${installed.join(', ')}`, { languages: installed });
    }
    if (params.pageIndex !== undefined && params.pageRange !== undefined) throw new ServiceError('VALIDATION_FAILED', 'Send pageIndex or pageRange, not both');
    return { language: params.language };
  },
  async execute(input) {
    const { params, source, engine, ctx, exec } = input;
    const password = ctx.documentPassword;
    const survey = await engine.run('ocrSurvey', { pdf: source.pdf, password, pageIndex: params.pageIndex, pageRange: params.pageRange });
    const reports: OcrPageReport[] = [];
    const todo: number[] = [];
    for (const page of survey.pages) {
      if (page.hasLayer && !params.force) reports.push({ pageIndex: page.pageIndex, status: 'skipped', reason: 'it has a text layer of an earlier OCRAction (force replaces it)' });
      else if (page.hasText && params.skipPagesWithText) reports.push({ pageIndex: page.pageIndex, status: 'skipped', reason: 'it has text of its own (skipPagesWithText)' });
      else todo.push(page.pageIndex);
    }
    let done = 0;
    exec.progress?.({ done, total: todo.length, unit: 'pages', stage: 'ocr' });
    const layers: OcrLayer[] = [];
    // One page more than the cores: it is rendered while the cores' Tesseracts run and waits for a free one in the
    // supervisor's queue. With one page a core, each core idled while its next page was rendered (bench/README.md, OCR).
    await eachInParallel(todo, availableParallelism() + 1, async (pageIndex) => {
      try {
        const { report, layer } = await recognisePage(input, pageIndex);
        reports.push(report);
        if (layer) layers.push(layer);
      } catch (err) {
        // A stopped job, a timed-out or missing tesseract: the whole action's answer. A page Tesseract cannot read: that page's.
        if (!(err instanceof ServiceError) || err.code !== 'PROCESSING_FAILED') throw err;
        reports.push({ pageIndex, status: 'failed', reason: err.detail ?? err.message });
      }
      exec.progress?.({ done: ++done, total: todo.length, unit: 'pages', stage: 'ocr' });
    });
    throwIfStopped(exec);
    layers.sort((a, b) => a.pageIndex - b.pageIndex);
    reports.sort((a, b) => a.pageIndex - b.pageIndex);
    const result = await engine.run('addOcrLayers', { pdf: source.pdf, password, layers, tagged: params.tagged });
    const report = { language: params.language, pages: reports, ...(result.tagged !== undefined ? { tagged: result.tagged } : {}) };
    const summary = result.summary ? { summary: result.summary } : {};
    return result.bytes ? { kind: 'document', bytes: result.bytes, report, ...summary } : { kind: 'unchanged', report, ...summary };
  },
};

/**
 * One page: rendered, recognised, its turn judged by its lines (Tesseract reads a page turned clockwise by itself, in
 * vertical lines); when the reading is doubtful, its orientation detected and, when it is turned, recognised turned
 * upright, the better reading kept. A reading that is not text (TEXT_CONFIDENCE) adds nothing.
 */
async function recognisePage({ params, source, engine, ctx, exec, tools }: ExecuteInput<Params, { language: string }>, pageIndex: number): Promise<{ report: OcrPageReport; layer?: OcrLayer }> {
  const signal = exec.signal;
  const render = (rotate: QuarterTurn) => engine.run('renderForOcr', { pdf: source.pdf, password: ctx.documentPassword, pageIndex, dpi: params.dpi, rotate });
  const read = (image: { pgm: Uint8Array; dpi: number }) => recognise(tools, { pgm: image.pgm, language: params.language, dpi: image.dpi, signal });
  const upright = await render(0);
  const first = await read(upright);
  let best: { rotation: QuarterTurn; image: typeof upright; text: Recognition } = { rotation: readingTurn(first.lines), image: upright, text: first };
  if (first.words < DOUBTFUL_WORDS || first.confidence < DOUBTFUL_CONFIDENCE) {
    const orientation = await detectOrientation(tools, { pgm: upright.pgm, dpi: upright.dpi, signal });
    if (orientation && orientation.rotate !== 0 && orientation.confidence >= ORIENTATION_CONFIDENCE) {
      const turned = await render(orientation.rotate);
      const text = await read(turned);
      // A tie goes to the turn orientation detection is confident of (a sideways page Tesseract read as well as upright).
      if (text.confidence * text.words >= first.confidence * first.words) {
        best = { rotation: ((orientation.rotate + readingTurn(text.lines)) % 360) as QuarterTurn, image: turned, text };
      }
    }
  }
  const { text, image, rotation } = best;
  const noText = text.words === 0
    ? 'no text was found on the page'
    : text.confidence < TEXT_CONFIDENCE
      ? `the ${text.words} words read have a mean confidence of ${text.confidence}, under ${TEXT_CONFIDENCE}: an image without text (a photo) or text Tesseract cannot read; nothing was added`
      : undefined;
  if (noText) return { report: { pageIndex, status: 'no-text', words: 0, confidence: 0, rotation: 0, dpi: image.dpi, reason: noText } };
  return {
    report: { pageIndex, status: 'recognised', words: text.words, confidence: text.confidence, rotation, dpi: image.dpi },
    layer: { pageIndex, textPdf: text.pdf, lines: text.lines, dpi: image.dpi, height: image.height, matrix: image.matrix, rotate: params.autoRotate ? rotation : 0 },
  };
}

/** Runs `work` for every item, at most `limit` at once; the first failure stops the others from starting and is thrown. */
async function eachInParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
