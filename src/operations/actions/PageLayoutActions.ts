import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { LayoutOperation } from '../../engine/models.js';
import { NOT_BLANK } from '../../validation.js';
import type { ActionDefinition, OutputParams } from './types.js';
import { engineAction } from './engine-action.js';
import { OUTPUT_PARAM_SCHEMAS } from './types.js';

/**
 * The page-layout actions (POST .../pages, issue 40): each turns its
 * parameters into one LayoutOperation for the engine's layoutPages task.
 * docs/page-layout.md describes them.
 */

const pageRange = { type: 'string', maxLength: 10000, pattern: NOT_BLANK, description: 'The pages to lay out (default: every page), 1-based, as in a print dialog: "1-3,7,10-"; not empty.' } as const;
const points = (description: string, minimum = 3) => ({ type: 'number', minimum, maximum: 14400, description: `${description} (points, 1/72 inch)` }) as const;
const paper = {
  paperSize: { type: 'string', enum: ['A3', 'A4', 'A5', 'B4', 'B5', 'Letter', 'Legal', 'Tabloid'], description: 'A named paper size; or give width and height' },
  width: points('Paper width'),
  height: points('Paper height'),
  orientation: { type: 'string', enum: ['portrait', 'landscape', 'auto'], description: 'How the paper is turned; auto (the default) chooses as the action says' },
} as const;
const margin = { type: 'number', minimum: 0, maximum: 1000, description: 'Space kept free around each page on the sheet (points; default 0)' } as const;
const border = { type: 'boolean', description: 'Draw a thin line around each cell (default false)' } as const;
const box = {
  type: 'object',
  properties: { x: { type: 'number', minimum: -14400, maximum: 14400 }, y: { type: 'number', minimum: -14400, maximum: 14400 }, width: points('Width', 1), height: points('Height', 1) },
  required: ['x', 'y', 'width', 'height'],
  additionalProperties: false,
  description: 'A rectangle in the page\'s user space (points, origin at the lower left of the unrotated page, as the MediaBox)',
} as const;

type Params<Props, Required extends readonly string[]> = FromSchema<{ type: 'object'; properties: typeof OUTPUT_PARAM_SCHEMAS & Props; required: Required; additionalProperties: false }> & OutputParams;

function layoutAction<const Props extends Record<string, JSONSchema>, const Required extends readonly Extract<keyof Props, string>[], P extends OutputParams = Params<Props, Required>>(
  name: string,
  summary: string,
  properties: Props,
  required: Required,
  operation: (params: Omit<P, 'savePath' | 'namingMode'>) => LayoutOperation,
): ActionDefinition<P> {
  return engineAction<P, 'layoutPages'>({
    name,
    target: 'pages',
    need: 'assemble',
    summary,
    schema: { type: 'object', properties: { ...OUTPUT_PARAM_SCHEMAS, ...properties }, required, additionalProperties: false },
    task: 'layoutPages',
    // A signed document is imposed only into a new document (the engine refuses to replace its pages in place).
    input: ({ params, own }) => ({ operation: operation(own), newDocument: params.savePath !== undefined }),
  });
}

export const NUpAction = layoutAction(
  'NUpAction',
  'Puts perSheet pages (2, 4, 6, 9 or 16) on each sheet, scaled to fit their cells and centred, in the order given (default rightDown: left to right, top to bottom). The sheet is the paper given or the first page\'s size, turned (auto) so the pages come out largest. Pages are drawn as Form XObjects; annotations are drawn from their appearances, not kept as annotations.',
  { perSheet: { type: 'integer', enum: [2, 4, 6, 9, 16], description: 'Pages per sheet' }, order: { type: 'string', enum: ['rightDown', 'downRight', 'leftDown', 'downLeft'], description: 'Order of the cells: rightDown (rows left to right, top to bottom; default), downRight (columns top to bottom, left to right), leftDown, downLeft' }, border, margin, ...paper, pageRange },
  ['perSheet'],
  (p) => ({ kind: 'nup', ...p }),
);

export const BookletAction = layoutAction(
  'BookletAction',
  'Saddle-stitch booklet: pages padded with blank pages to a multiple of 4, two on each side of a landscape sheet, sides in duplex printing order (front, back; flip on the short edge). Folded in the middle, the sheets read in order. The sheet is the paper given (landscape) or twice the first page\'s width.',
  { binding: { type: 'string', enum: ['left', 'right'], description: 'Where the fold is when the booklet is read: left (default, left-to-right scripts) or right' }, border, margin, ...paper, pageRange },
  [],
  (p) => ({ kind: 'booklet', ...p }),
);

export const PosterAction = layoutAction(
  'PosterAction',
  'Cuts each page, enlarged by scale (default 1), into tiles of the paper (default A4, turned so fewer tiles are needed), left to right and top to bottom, neighbouring tiles overlapping by overlap points.',
  { overlap: { type: 'number', minimum: 0, maximum: 7200, description: 'Points each tile repeats of its neighbours (default 0)' }, scale: { type: 'number', exclusiveMinimum: 0, maximum: 100, description: 'Enlargement of the page before it is cut (default 1)' }, ...paper, pageRange },
  [],
  (p) => ({ kind: 'poster', ...p }),
);

export const CropPagesAction = layoutAction(
  'CropPagesAction',
  'Sets the CropBox of the pages: to box, or (toContent: true) to the bounds of what each page draws, grown by margin, within the MediaBox. A page that draws nothing is left as it is.',
  { box, toContent: { type: 'boolean', description: 'Crop to what the page draws (its content, annotations left out)' }, margin: { type: 'number', minimum: 0, maximum: 1000, description: 'With toContent: points kept around the content (default 0)' }, pageRange },
  [],
  (p) => ({ kind: 'crop', ...p }),
);

export const ScalePagesAction = layoutAction(
  'ScalePagesAction',
  'Puts each page on the paper given, its content scaled to fit and centred; orientation auto (default) keeps each page\'s own. Annotations move with the content; /Rotate is drawn into the content.',
  { ...paper, pageRange },
  [],
  (p) => ({ kind: 'scale', ...p }),
);

export const SetPageBoxesAction = layoutAction(
  'SetPageBoxesAction',
  'Sets the page boxes given (MediaBox, CropBox, BleedBox, TrimBox, ArtBox) on the pages; every box but the MediaBox must lie inside the MediaBox.',
  { MediaBox: box, CropBox: box, BleedBox: box, TrimBox: box, ArtBox: box, pageRange },
  [],
  ({ pageRange: range, ...boxes }) => ({ kind: 'boxes', boxes, pageRange: range }),
);

export const PAGE_LAYOUT_ACTIONS = [NUpAction, BookletAction, PosterAction, CropPagesAction, ScalePagesAction, SetPageBoxesAction];
