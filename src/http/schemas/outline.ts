/** OutlineModel (XML: <Outline>) and the PUT .../outline request (docs/outline.md). */
import { FIT_TYPES, MAX_OUTLINE_DEPTH, MAX_OUTLINE_ITEMS, MAX_OUTLINE_TITLE } from '../../engine/models.js';
import { addSharedSchema, WELL_FORMED_UNICODE } from '../../validation.js';

const coordinate = (description: string) => ({ type: 'number', description }) as const;

const destinationSchema = {
  title: 'OutlineDestination',
  type: 'object',
  description: 'A page of the document and the view of it (ISO 32000-1 12.3.2.2). Without fit, /Fit is written.',
  properties: {
    pageIndex: { type: 'integer', minimum: 0, description: 'The page, from 0' },
    fit: { type: 'string', enum: [...FIT_TYPES], description: 'The view: XYZ (left, top, zoom), Fit, FitH (top), FitV (left), FitR (left, bottom, right, top), FitB, FitBH (top), FitBV (left)' },
    left: coordinate('PDF units from the page\'s left; absent: unchanged'),
    top: coordinate('PDF units from the page\'s bottom; absent: unchanged'),
    right: coordinate('FitR only'),
    bottom: coordinate('FitR only'),
    zoom: { type: 'number', minimum: 0, description: 'XYZ only: 1 is 100%; 0 or absent keeps the viewer\'s zoom' },
  },
  required: ['pageIndex'],
  additionalProperties: false,
} as const;

const colorSchema = {
  title: 'OutlineColor',
  type: 'object',
  description: 'The title\'s colour (/C), RGB components from 0 to 1; absent: black',
  properties: {
    red: { type: 'number', minimum: 0, maximum: 1 },
    green: { type: 'number', minimum: 0, maximum: 1 },
    blue: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['red', 'green', 'blue'],
  additionalProperties: false,
} as const;

const itemProperties = {
  title: { type: 'string', maxLength: MAX_OUTLINE_TITLE, description: 'Any Unicode text (written as a PDF text string)' },
  open: { type: 'boolean', description: 'Whether the item\'s children show (/Count positive); false for an item without children' },
  bold: { type: 'boolean', description: '/F bit 2' },
  italic: { type: 'boolean', description: '/F bit 1' },
  color: colorSchema,
  destination: destinationSchema,
  namedDestination: { type: 'string', description: 'The named destination the destination was resolved from (read only: ignored when written)' },
  uri: { type: 'string', maxLength: 8192, description: 'A URI action\'s address (ASCII); not with destination' },
  action: { type: 'string', description: 'The type of an action other than GoTo and URI, e.g. JavaScript (read only: ignored when written, such an item is written without it)' },
  children: {
    type: 'array',
    description: 'The items below this one, of the same shape (OutlineItem). XML: <children><child>..</child></children>',
    items: { type: 'object', additionalProperties: true },
  },
} as const;

const itemSchema = {
  title: 'OutlineItem',
  type: 'object',
  description: 'One bookmark. Without destination and uri it leads nowhere (a heading).',
  properties: itemProperties,
  required: ['title', 'open', 'bold', 'italic'],
} as const;

export const outlineSchema = {
  title: 'OutlineModel',
  type: 'object',
  description: 'OutlineModel (XML: <Outline>): the bookmarks as a tree.',
  properties: {
    items: { type: 'array', items: itemSchema, description: 'The first level (XML: <items><item>..</item></items>)' },
    itemCount: { type: 'integer', description: 'Items in the whole tree' },
    warnings: { type: 'array', items: { type: 'string' }, description: 'What was left out of a damaged outline (a cycle, a destination naming no page, too deep), and why' },
  },
  required: ['items', 'itemCount', 'warnings'],
} as const;

/**
 * One item of a PUT body, its children items of the same shape: a shared schema (`$id`) that refers to itself, so
 * every level is checked by the route's schema step (400 VALIDATION_FAILED naming the field) and OpenAPI describes the
 * tree. What a schema cannot say, the number of items and of levels, is checked before it (checkOutlineSize,
 * operations/outline.ts), which also keeps the recursive check shallow. namedDestination and action, which GET
 * answers, are accepted and ignored, so a model read can be sent back.
 */
export const outlineItemRequestSchema = {
  $id: 'OutlineItemRequest',
  title: 'OutlineItemRequest',
  type: 'object',
  description: 'One bookmark to write. Without destination and uri it leads nowhere (a heading); destination and uri exclude each other.',
  properties: {
    ...itemProperties,
    title: { ...itemProperties.title, pattern: WELL_FORMED_UNICODE },
    uri: { ...itemProperties.uri, pattern: '^[\\x21-\\x7e]+$', description: 'A URI action\'s address: ASCII without spaces (other characters percent-encoded); not with destination' },
    children: {
      type: 'array',
      maxItems: MAX_OUTLINE_ITEMS,
      description: 'The items below this one (XML: <children><child>..</child></children>)',
      items: { $ref: 'OutlineItemRequest#' },
    },
  },
  required: ['title'],
  additionalProperties: false,
  // The properties named again so the OpenAPI description's linters see what `required` names.
  not: { properties: { destination: {}, uri: {} }, required: ['destination', 'uri'] },
} as const;
addSharedSchema(outlineItemRequestSchema);

export const outlineRequestSchema = {
  title: 'OutlineRequest',
  type: 'object',
  description:
    `The whole outline to write (XML: <Outline>). An empty items list removes the outline. At most ${MAX_OUTLINE_ITEMS} items in all and ` +
    `${MAX_OUTLINE_DEPTH} levels (400 OUTLINE_TOO_LARGE).`,
  properties: {
    items: {
      type: 'array',
      maxItems: MAX_OUTLINE_ITEMS,
      items: { $ref: 'OutlineItemRequest#' },
    },
    itemCount: { type: 'integer', description: 'Read only: ignored (a model read may be sent back as it is)' },
    warnings: { type: 'array', items: { type: 'string' }, description: 'Read only: ignored' },
  },
  required: ['items'],
  additionalProperties: false,
} as const;

export const OUTLINE_XML = { root: 'Outline', items: { items: 'item', warnings: 'warning' } };
