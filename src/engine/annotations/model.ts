/**
 * The annotation model shared by the engine (which builds it from PDF
 * dictionaries) and the HTTP layer (which renders it as JSON or XML). Field
 * names follow XFDF's vocabulary (ISO 19444-1) in camelCase, so that the JSON
 * model, XFDF and the PDF dictionary map one-to-one. No MuPDF in this module.
 */
import type { Point, Rectangle } from '../syntax/geometry.js';

/** The 28 subtypes of interface.md §2.3, spelt as there. */
export const ANNOTATION_SUBTYPES = [
  'Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight', 'Underline', 'Squiggly',
  'StrikeOut', 'Caret', 'Stamp', 'Ink', 'Popup', 'FileAttachment', 'Sound', 'Movie', 'Screen', 'Widget', 'PrinterMark',
  'TrapNet', 'Watermark', '3D', 'Redact', 'Projection', 'RichMedia',
] as const;
export type AnnotationSubtype = (typeof ANNOTATION_SUBTYPES)[number];

/** A subtype filter value, matched without regard to case; undefined when it is none of the 28. */
export function subtypeFromQuery(value: string): AnnotationSubtype | undefined {
  const lower = value.toLowerCase();
  return ANNOTATION_SUBTYPES.find((s) => s.toLowerCase() === lower);
}

/** Annotation flag bits (ISO 32000-1 §12.5.3), by their XFDF names. */
export const ANNOTATION_FLAGS = [
  'invisible', 'hidden', 'print', 'noZoom', 'noRotate', 'noView', 'readOnly', 'locked', 'toggleNoView', 'lockedContents',
] as const;
export type AnnotationFlag = (typeof ANNOTATION_FLAGS)[number];

export type { Point, Rectangle };

/**
 * AnnotationModel / Annotation. Coordinates are PDF user space in points
 * (origin at the lower left of the page), as in the PDF and in XFDF. Fields the
 * annotation does not have are absent, never null.
 */
export interface AnnotationModel {
  /** The /NM entry, or a generated name when it has none or shares it (docs/annotations.md). */
  name: string;
  subtype: string;
  pageIndex: number;
  rectangle?: Rectangle;
  contents?: string;
  contentsRichText?: string;
  /** /T: who wrote it. */
  author?: string;
  subject?: string;
  creationDate?: string;
  modifiedDate?: string;
  /** #RRGGBB; gray and CMYK colours are converted. */
  color?: string;
  interiorColor?: string;
  opacity?: number;
  flags?: AnnotationFlag[];
  /** /Rotate, degrees. */
  rotation?: number;
  intent?: string;
  border?: { width?: number; style?: 'solid' | 'dashed' | 'beveled' | 'inset' | 'underline'; dashes?: number[]; effect?: 'cloudy'; intensity?: number };
  /** Text markup and Redact: 8 numbers (x1 y1 ... x4 y4) a quadrilateral. */
  quadPoints?: number[];
  /** Ink: one array of alternating x, y per stroke. */
  inkList?: number[][];
  /** Polygon, PolyLine: alternating x, y. */
  vertices?: number[];
  /** Line. */
  start?: Point;
  end?: Point;
  /** Line, PolyLine: [start, end] line ending styles (XFDF head, tail). */
  lineEndings?: [string, string];
  leaderLength?: number;
  leaderExtension?: number;
  leaderOffset?: number;
  caption?: boolean;
  /** Text, Stamp, FileAttachment, Sound: /Name. */
  icon?: string;
  /** Text and Popup: /Open. */
  open?: boolean;
  state?: string;
  stateModel?: string;
  /** Name of the annotation this one replies to (/IRT). */
  inReplyTo?: string;
  replyType?: 'reply' | 'group';
  /** The popup that shows this annotation's text. */
  popup?: { name: string; rectangle?: Rectangle; open: boolean };
  /** Popup: the annotation it belongs to. */
  parent?: string;
  /** FreeText. */
  defaultAppearance?: string;
  defaultStyle?: string;
  callout?: number[];
  /** Redact. */
  overlayText?: string;
  /** FileAttachment. */
  fileName?: string;
  fileDescription?: string;
  /** Widget: the fully qualified field name, and the field type. */
  fieldName?: string;
  fieldType?: string;
  /** Link. */
  uri?: string;
  destination?: { pageIndex?: number; name?: string; type?: string };
}

export interface AnnotationsModel {
  annotations: AnnotationModel[];
}

/** AttachmentModel / Attachment: the file of a FileAttachment annotation. */
export interface AttachmentModel {
  annotation: string;
  fileName: string;
  description?: string;
  mediaType: string;
  size: number;
  creationDate?: string;
  modificationDate?: string;
  /** MD5 of the file, hex, as stored in the file's /Params /CheckSum (computed when absent). */
  checksum: string;
}

/** The icons a FileAttachment annotation may show (ISO 32000-1 §12.5.6.15). */
export const ATTACHMENT_ICONS = ['GraphPushPin', 'PaperclipTag', 'Graph', 'PushPin', 'Paperclip', 'Tag'] as const;
