import { TEXT_DETAILS } from '../../engine/models.js';
import { rectangleSchema as rectangle } from './common.js';

/** PageModel: one page's geometry (docs/pages.md). */
export const pageSchema = {
  title: 'PageModel',
  type: 'object',
  description:
    'PageModel (XML: <page>). width and height are the crop box as displayed: after rotation, in points (times /UserUnit when the page sets one). ' +
    'mediaBox and cropBox are in PDF user space, unrotated; cropBox is the crop box in effect (clipped to the media box).',
  properties: {
    pageIndex: { type: 'integer', minimum: 0 },
    width: { type: 'number', description: 'Points, as displayed (after rotation)' },
    height: { type: 'number', description: 'Points, as displayed (after rotation)' },
    rotation: { type: 'integer', enum: [0, 90, 180, 270], description: '/Rotate (inherited), clockwise, rounded to a quarter turn as the renderer does' },
    mediaBox: rectangle,
    cropBox: rectangle,
    annotationCount: { type: 'integer', minimum: 0, description: 'Entries of /Annots that are annotations, Popup, Link and Widget included: as many as GET .../annotations?pageIndex= lists' },
  },
  required: ['pageIndex', 'width', 'height', 'rotation', 'mediaBox', 'cropBox', 'annotationCount'],
  examples: [
    { pageIndex: 0, width: 612, height: 792, rotation: 0, mediaBox: { x: 0, y: 0, width: 612, height: 792 }, cropBox: { x: 0, y: 0, width: 612, height: 792 }, annotationCount: 2 },
    { pageIndex: 1, width: 440, height: 350, rotation: 90, mediaBox: { x: 0, y: 0, width: 612, height: 792 }, cropBox: { x: 50, y: 60, width: 350, height: 440 }, annotationCount: 0 },
  ],
} as const;

/** Paging of the page list (docs/pages.md): `limit` pages from `offset`. */
export const PAGES_DEFAULT_LIMIT = 1000;
export const PAGES_MAX_LIMIT = 10_000;
export const pagesQuery = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: 0, maximum: 999_999_999, default: 0, description: 'Index of the first page listed' },
    limit: { type: 'integer', minimum: 1, maximum: PAGES_MAX_LIMIT, default: PAGES_DEFAULT_LIMIT, description: 'Most pages listed' },
  },
} as const;

export const pagesSchema = {
  title: 'PagesModel',
  type: 'object',
  description:
    'PagesModel (XML: <Pages> with one <page> per page listed, then <total>, <offset>, <limit> and <next>/<prev>): ' +
    `at most limit pages from offset (default ${PAGES_DEFAULT_LIMIT}, at most ${PAGES_MAX_LIMIT}); the Link header has the same next and prev`,
  properties: {
    pages: { type: 'array', items: pageSchema },
    total: { type: 'integer', minimum: 0, description: 'Pages in the document' },
    offset: { type: 'integer', minimum: 0 },
    limit: { type: 'integer', minimum: 1 },
    next: { type: 'string', description: 'URL of the next slice; absent on the last' },
    prev: { type: 'string', description: 'URL of the previous slice; absent on the first' },
  },
  required: ['pages', 'total', 'offset', 'limit'],
} as const;

const textUnit = {
  type: 'object',
  properties: { text: { type: 'string' }, rectangle: { ...rectangle, description: 'Bounding box in PDF user space (origin lower left, unrotated page)' } },
  required: ['text', 'rectangle'],
} as const;

export const pageTextSchema = {
  title: 'PageTextModel',
  type: 'object',
  description:
    'PageTextModel (XML: <PageText>, with <words><word>, <lines><line> or <blocks><block>). text: the page in reading order, each line ending in "\\n", ' +
    'each block followed by an empty line. With ?detail=, the words (runs of non-whitespace within a line), lines or blocks with their boxes.',
  properties: {
    pageIndex: { type: 'integer', minimum: 0 },
    text: { type: 'string' },
    words: { type: 'array', items: textUnit },
    lines: { type: 'array', items: textUnit },
    blocks: { type: 'array', items: textUnit },
  },
  required: ['pageIndex', 'text'],
  examples: [
    { pageIndex: 0, text: 'Quarterly report\n\n', words: [{ text: 'Quarterly', rectangle: { x: 72, y: 695.68, width: 98.688, height: 23.04 } }, { text: 'report', rectangle: { x: 177.36, y: 695.68, width: 62.688, height: 23.04 } }] },
  ],
} as const;

export const documentTextSchema = {
  title: 'DocumentTextModel',
  type: 'object',
  description: 'DocumentTextModel (XML: <DocumentText> with one <page> per page): every page\'s text, as in PageTextModel',
  properties: {
    pages: {
      type: 'array',
      items: { type: 'object', properties: { pageIndex: { type: 'integer', minimum: 0 }, text: { type: 'string' } }, required: ['pageIndex', 'text'] },
    },
  },
  required: ['pages'],
} as const;

export const textDetailQuery = {
  detail: { type: 'string', enum: [...TEXT_DETAILS], description: 'Add the words, lines or blocks with their bounding boxes' },
} as const;

export const PAGES_XML = { root: 'Pages', flatten: 'pages', listFirst: true, items: { pages: 'page' } };
export const PAGE_TEXT_XML = { root: 'PageText', items: { words: 'word', lines: 'line', blocks: 'block' } };
export const DOCUMENT_TEXT_XML = { root: 'DocumentText', flatten: 'pages', items: { pages: 'page' } };
