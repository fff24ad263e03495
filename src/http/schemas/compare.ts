/** The compare request and CompareReport (XML: <CompareReport>), docs/compare.md. */
import { COMPARE_DEFAULT_DPI, COMPARE_DEFAULT_THRESHOLD, COMPARE_MAX_DPI, COMPARE_MIN_DPI } from '../../engine/models.js';
import { rectangleSchema } from './common.js';

export const COMPARE_XML = { root: 'CompareReport', items: { pages: 'page', insertedWords: 'word', deletedWords: 'word', visualChanges: 'change' } };

export const compareRequestSchema = {
  title: 'CompareRequest',
  type: 'object',
  properties: {
    with: {
      type: 'object',
      description: 'The base the document is compared with: another stored document (filePath), a kept version (versionId; of filePath, else of this document), or both',
      properties: {
        filePath: { type: 'string', minLength: 1, maxLength: 4096, description: 'Path of a stored document ("folder/name.pdf"); absent: this document' },
        versionId: { type: 'string', minLength: 1, maxLength: 200, description: 'A kept version (GET .../versions); absent: the current version' },
        password: { type: 'string', maxLength: 1024, description: "The base's password when it is encrypted; absent: the request's X-Service-DocumentPassword" },
      },
      additionalProperties: false,
    },
    versionId: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'A kept version of this document to compare instead of its current one (in the body: ?versionId= on a POST names a write, refused service-wide)',
    },
    text: { type: 'boolean', default: true, description: 'Word-level text diff of each pair of pages (needs the copy permission of encrypted documents)' },
    visual: { type: 'boolean', default: true, description: 'Pixel diff of each pair of pages, rendered at dpi' },
    dpi: { type: 'integer', minimum: COMPARE_MIN_DPI, maximum: COMPARE_MAX_DPI, default: COMPARE_DEFAULT_DPI, description: 'Resolution of the visual diff' },
    threshold: { type: 'integer', minimum: 0, maximum: 254, default: COMPARE_DEFAULT_THRESHOLD, description: 'A pixel differs when a colour channel differs by more than this (0-255)' },
  },
  required: ['with'],
  additionalProperties: false,
} as const;

const wordSchema = {
  title: 'CompareWord',
  type: 'object',
  properties: { text: { type: 'string' }, rectangle: rectangleSchema },
  required: ['text', 'rectangle'],
} as const;

const sideSchema = {
  title: 'CompareSide',
  type: 'object',
  properties: {
    path: { type: 'string' },
    etag: { type: 'string', description: 'The version read' },
    versionId: { type: 'string' },
    pageCount: { type: 'integer' },
  },
  required: ['path', 'etag', 'pageCount'],
} as const;

const count = { type: 'integer', minimum: 0 } as const;

export const compareReportSchema = {
  title: 'CompareReport',
  type: 'object',
  properties: {
    document: sideSchema,
    base: sideSchema,
    identical: { type: 'boolean', description: 'No page changed, moved, inserted or deleted' },
    options: {
      type: 'object',
      properties: { text: { type: 'boolean' }, visual: { type: 'boolean' }, dpi: { type: 'integer' }, threshold: { type: 'integer' } },
      required: ['text', 'visual', 'dpi', 'threshold'],
    },
    summary: {
      type: 'object',
      properties: { unchangedPages: count, changedPages: count, movedPages: count, insertedPages: count, deletedPages: count, insertedWords: count, deletedWords: count, visualChanges: count },
      required: ['unchangedPages', 'changedPages', 'movedPages', 'insertedPages', 'deletedPages', 'insertedWords', 'deletedWords', 'visualChanges'],
    },
    pages: {
      type: 'array',
      description: "The document's pages in order, then the base's deleted pages",
      items: {
        title: 'ComparePage',
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['unchanged', 'changed', 'inserted', 'deleted'] },
          pageIndex: { type: 'integer', description: "The document's page, from 0; absent for a deleted page" },
          basePageIndex: { type: 'integer', description: "The base's page, from 0; absent for an inserted page" },
          moved: { type: 'boolean', description: 'Paired out of order: the page moved from basePageIndex to pageIndex' },
          similarity: { type: 'number', description: '1 for pages that draw the same objects; else the share of words in common that paired them' },
          insertedWords: { type: 'array', items: wordSchema, description: "Words of the document's page not in the base's (boxes on the document's page)" },
          deletedWords: { type: 'array', items: wordSchema, description: "Words of the base's page not in the document's (boxes on the base's page)" },
          visualChanges: {
            type: 'array',
            description: "Regions whose pixels differ, in user space of the document's page",
            items: { title: 'VisualChange', type: 'object', properties: { rectangle: rectangleSchema, pixels: { type: 'integer', description: 'Pixels that differ at dpi' } }, required: ['rectangle', 'pixels'] },
          },
        },
        required: ['status', 'moved', 'insertedWords', 'deletedWords', 'visualChanges'],
      },
    },
  },
  required: ['document', 'base', 'identical', 'options', 'summary', 'pages'],
} as const;
