/** FiguresModel (XML: <Figures>), FigureModel (XML: <Figure>) and the PATCH bodies of the figure resource (docs/accessibility.md). */
import { MAX_FIGURE_CHANGES, MAX_FIGURE_TEXT } from '../../engine/models.js';
import { XML_TEXT_PATTERN } from './common.js';
import { nullable } from './metadata.js';

const figureText = (description: string) => ({ type: 'string', maxLength: MAX_FIGURE_TEXT, pattern: XML_TEXT_PATTERN, description }) as const;

export const figureSchema = {
  title: 'FigureModel',
  type: 'object',
  description: 'FigureModel (XML: <Figure>): one Figure structure element (its type once the role map is applied)',
  properties: {
    index: { type: 'integer', minimum: 0, description: 'Its 0-based position among the Figure elements in the structure tree\'s depth-first order (the numbering PDFUAConvertAction\'s figures use)' },
    pageIndex: { type: 'integer', minimum: 0, description: 'The page its content is on (the first one, when on several); absent when nothing names a page' },
    bbox: {
      type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4,
      description: '[x0, y0, x1, y1] (XML: the four numbers separated by spaces): where its content is, in PDF user space (points, origin at the lower left of the unrotated page): its Layout attribute\'s /BBox, else the paths, images and forms its marked content draws; absent when neither says',
    },
    alt: { type: 'string', description: '/Alt, the alternate description a screen reader reads instead of the figure' },
    actualText: { type: 'string', description: '/ActualText, the text the figure shows (a picture of text)' },
    hasAlt: { type: 'boolean', description: 'Whether alt is present and not blank (PDF/UA-1 7.3 asks every figure for one)' },
    thumbnail: { type: 'string', description: 'The URL of the image of its page (GET .../pages/{pageIndex}/image, ?versionId= kept): crop it to bbox (at dpi d, scale by d / 72 and flip y; docs/pages.md, "Coordinates")' },
  },
  required: ['index', 'hasAlt'],
} as const;

export const figuresSchema = {
  title: 'FiguresModel',
  type: 'object',
  description: 'FiguresModel (XML: <Figures> with <figure> items): every Figure of the structure tree, in depth-first order',
  properties: {
    tagged: { type: 'boolean', description: 'Whether the document has a structure tree; false: figures is empty (tag it with PDFUAConvertAction)' },
    figures: { type: 'array', items: figureSchema },
    detail: { type: 'string', description: 'For an untagged document: what to do' },
  },
  required: ['tagged', 'figures'],
} as const;

const changeProperties = {
  alt: nullable(figureText('The new /Alt; null removes it')),
  actualText: nullable(figureText('The new /ActualText; null removes it')),
} as const;

export const figurePatchSchema = {
  title: 'FigurePatch',
  type: 'object',
  description: 'A JSON merge patch (RFC 7396) of one figure: a text given replaces it, null removes it, an absent one stays',
  properties: changeProperties,
  additionalProperties: false,
} as const;

export const figuresPatchSchema = {
  title: 'FiguresPatch',
  type: 'object',
  description: 'Changes of several figures, each as in PATCH .../figures/{index}, written together in one version (all or none)',
  properties: {
    figures: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_FIGURE_CHANGES,
      items: {
        title: 'FigureChange',
        type: 'object',
        properties: { index: { type: 'integer', minimum: 0, description: 'The figure, as the list numbers it' }, ...changeProperties },
        required: ['index'],
        additionalProperties: false,
      },
    },
  },
  required: ['figures'],
  additionalProperties: false,
} as const;

const items = { figures: 'figure' };
export const FIGURES_XML = { root: 'Figures', items };
export const FIGURE_XML = { root: 'Figure', items };
