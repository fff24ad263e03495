import { ANNOTATION_FLAGS, ANNOTATION_SUBTYPES } from '../../engine/models.js';
import { rectangleSchema as rectangle } from './common.js';

const point = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } as const;
const colour = { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' } as const;
const numbers = { type: 'array', items: { type: 'number' } } as const;

/** AnnotationModel: XFDF's vocabulary in camelCase. Absent fields are left out, never null. */
export const annotationSchema = {
  title: 'AnnotationModel',
  type: 'object',
  description:
    'AnnotationModel (XML: <Annotation>). XFDF vocabulary in camelCase; PDF user space coordinates. ' +
    'Only the fields the annotation has are present. See docs/annotations.md for the mapping to PDF keys.',
  properties: {
    name: { type: 'string', description: 'The /NM entry, or a generated name starting with "~" when it has none or shares it' },
    subtype: { type: 'string', description: `One of ${ANNOTATION_SUBTYPES.join(', ')} (or a non-standard /Subtype as found)` },
    pageIndex: { type: 'integer', minimum: 0 },
    rectangle,
    contents: { type: 'string' },
    contentsRichText: { type: 'string', description: '/RC, XHTML' },
    author: { type: 'string', description: '/T' },
    subject: { type: 'string' },
    creationDate: { type: 'string', format: 'date-time' },
    modifiedDate: { type: 'string', format: 'date-time', description: '/M' },
    color: { ...colour, description: '/C as #RRGGBB (gray and CMYK converted)' },
    interiorColor: { ...colour, description: '/IC' },
    opacity: { type: 'number', minimum: 0, maximum: 1, description: '/CA' },
    flags: { type: 'array', items: { type: 'string', enum: [...ANNOTATION_FLAGS] }, description: '/F bits by name' },
    rotation: { type: 'number' },
    intent: { type: 'string', description: '/IT' },
    border: {
      type: 'object',
      properties: {
        width: { type: 'number' },
        style: { type: 'string', enum: ['solid', 'dashed', 'beveled', 'inset', 'underline'] },
        dashes: numbers,
        effect: { type: 'string', enum: ['cloudy'] },
        intensity: { type: 'number' },
      },
    },
    quadPoints: { ...numbers, description: 'Text markup and Redact: 8 numbers per quadrilateral' },
    inkList: { type: 'array', items: numbers, description: 'Ink: one x,y,x,y… array per stroke' },
    vertices: { ...numbers, description: 'Polygon, PolyLine: x,y,x,y…' },
    start: point,
    end: point,
    lineEndings: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2, description: '[start, end] line ending styles' },
    leaderLength: { type: 'number' },
    leaderExtension: { type: 'number' },
    leaderOffset: { type: 'number' },
    caption: { type: 'boolean' },
    icon: { type: 'string', description: '/Name: note, stamp or attachment icon' },
    open: { type: 'boolean' },
    state: { type: 'string' },
    stateModel: { type: 'string' },
    inReplyTo: { type: 'string', description: 'Name of the annotation this one replies to (/IRT)' },
    replyType: { type: 'string', enum: ['reply', 'group'] },
    popup: { type: 'object', properties: { name: { type: 'string' }, rectangle, open: { type: 'boolean' } }, required: ['name', 'open'] },
    parent: { type: 'string', description: 'Popup: name of the annotation it shows' },
    defaultAppearance: { type: 'string', description: 'FreeText /DA' },
    defaultStyle: { type: 'string', description: 'FreeText /DS' },
    callout: numbers,
    overlayText: { type: 'string', description: 'Redact' },
    fileName: { type: 'string', description: 'FileAttachment' },
    fileDescription: { type: 'string', description: 'FileAttachment' },
    fieldName: { type: 'string', description: 'Widget: fully qualified field name' },
    fieldType: { type: 'string', description: 'Widget: /FT (Tx, Btn, Ch, Sig)' },
    uri: { type: 'string', description: 'Link with a URI action' },
    destination: { type: 'object', properties: { pageIndex: { type: 'integer' }, name: { type: 'string' }, type: { type: 'string' } } },
  },
  required: ['name', 'subtype', 'pageIndex'],
  examples: [
    { name: 'note-1', subtype: 'Text', pageIndex: 0, rectangle: { x: 72, y: 700, width: 20, height: 20 }, contents: 'Check this figure', author: 'Ana', modifiedDate: '2026-01-01T12:00:00Z', color: '#FFFF00', flags: ['print', 'noZoom', 'noRotate'], icon: 'Comment', open: false, popup: { name: 'note-1-popup', rectangle: { x: 100, y: 600, width: 180, height: 100 }, open: false } },
    { name: 'reply-1', subtype: 'Text', pageIndex: 0, rectangle: { x: 72, y: 700, width: 20, height: 20 }, contents: 'Fixed', author: 'Ben', inReplyTo: 'note-1', replyType: 'reply', state: 'Accepted', stateModel: 'Review' },
    { name: 'hl-1', subtype: 'Highlight', pageIndex: 1, rectangle: { x: 72, y: 500, width: 200, height: 14 }, color: '#FFFF00', opacity: 0.5, quadPoints: [72, 514, 272, 514, 72, 500, 272, 500] },
    { name: 'ink-1', subtype: 'Ink', pageIndex: 0, rectangle: { x: 100, y: 100, width: 50, height: 40 }, color: '#0000FF', border: { width: 2, style: 'solid' }, inkList: [[100, 100, 120, 130, 150, 140]] },
    { name: 'line-1', subtype: 'Line', pageIndex: 0, rectangle: { x: 90, y: 290, width: 220, height: 20 }, start: { x: 100, y: 300 }, end: { x: 300, y: 300 }, lineEndings: ['None', 'OpenArrow'], color: '#FF0000' },
    { name: 'poly-1', subtype: 'Polygon', pageIndex: 2, rectangle: { x: 100, y: 100, width: 100, height: 100 }, vertices: [100, 100, 200, 100, 150, 200], interiorColor: '#00FF00' },
    { name: 'ft-1', subtype: 'FreeText', pageIndex: 0, rectangle: { x: 300, y: 700, width: 200, height: 40 }, contents: 'Draft', defaultAppearance: '/Helv 12 Tf 0 g' },
    { name: 'redact-1', subtype: 'Redact', pageIndex: 0, rectangle: { x: 72, y: 400, width: 120, height: 14 }, quadPoints: [72, 414, 192, 414, 72, 400, 192, 400], overlayText: 'REDACTED', interiorColor: '#000000' },
    { name: 'file-1', subtype: 'FileAttachment', pageIndex: 0, rectangle: { x: 20, y: 752, width: 20, height: 20 }, icon: 'PushPin', fileName: 'data.csv', fileDescription: 'Raw data' },
    { name: '~12', subtype: 'Link', pageIndex: 0, rectangle: { x: 72, y: 80, width: 100, height: 12 }, uri: 'https://example.com/' },
    { name: '~15', subtype: 'Widget', pageIndex: 0, rectangle: { x: 72, y: 600, width: 150, height: 20 }, fieldName: 'customer.name', fieldType: 'Tx' },
  ],
} as const;

export const annotationsSchema = {
  title: 'AnnotationsModel',
  type: 'object',
  description: 'AnnotationsModel (XML: <Annotations> with one <Annotation> per annotation)',
  properties: { annotations: { type: 'array', items: annotationSchema } },
  required: ['annotations'],
} as const;

export const attachmentSchema = {
  title: 'AttachmentModel',
  type: 'object',
  description: 'AttachmentModel (XML: <Attachment>): the file of a FileAttachment annotation',
  properties: {
    annotation: { type: 'string' },
    fileName: { type: 'string' },
    description: { type: 'string' },
    mediaType: { type: 'string' },
    size: { type: 'integer' },
    creationDate: { type: 'string', format: 'date-time' },
    modificationDate: { type: 'string', format: 'date-time' },
    checksum: { type: 'string', description: 'MD5, hex' },
  },
  required: ['annotation', 'fileName', 'mediaType', 'size', 'checksum'],
} as const;

export const ANNOTATIONS_XML = { root: 'Annotations', flatten: 'annotations', items: { annotations: 'Annotation', inkList: 'stroke', flags: 'flag', lineEndings: 'lineEnding' } };
export const ANNOTATION_XML = { root: 'Annotation', items: { inkList: 'stroke', flags: 'flag', lineEndings: 'lineEnding' } };
