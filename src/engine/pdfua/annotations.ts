import type * as mupdf from 'mupdf';
import { walkNameTree, nameTreeRoot } from '../core/name-tree.js';
import { deref, inheritable, loadedObjects, name, text } from '../core/mupdf-objects.js';
import { qualifiedName } from '../forms/field-tree.js';
import type { Rectangle } from '../syntax/geometry.js';

/**
 * What PDFUAConvertAction writes for annotations beyond their tags (docs/accessibility.md, "Form fields, annotations and
 * embedded files"): veraPDF's PDF/UA-1 rules 7.18.1-3 (a form field has a /TU, its tooltip, which a screen reader
 * reads as the field's name), 7.18.1-2 (an annotation other than a widget has /Contents or its Annot element an /Alt)
 * and 7.11-1 (a file specification of an embedded file has non-empty /F and /UF).
 */

/** A line of text on the page, in PDF user space (the export's reading). */
export interface PageLine {
  text: string;
  rect: Rectangle;
}

/** Most parents followed up from a widget (a hostile file's /Parent chain ends there). */
const MAX_DEPTH = 32;

/** The field a widget belongs to: the widget itself when merged with its field (/T), else the nearest parent with /T. */
export function fieldOf(widget: mupdf.PDFObject): mupdf.PDFObject {
  let field = widget;
  for (let depth = 0; depth < MAX_DEPTH && field.get('T').isNull(); depth++) {
    const parent = deref(field.get('Parent'));
    if (!parent.isDictionary()) break;
    field = parent;
  }
  return field;
}

/** Points between a label and its field at most (a label further off is taken for other text). */
const LEFT_REACH = 200;
const ABOVE_REACH = 24;
const RIGHT_REACH = 200;

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
const clean = (label: string) => label.replace(/\s+/g, ' ').replace(/[\s:*_.…]+$/u, '').trim();

/**
 * The label a person reads for a field at `rect`: the nearest line on its row to the left (to the right first for a
 * check box or radio button, whose label follows it), else the nearest line just above it that spans its left edge.
 */
export function labelFor(rect: Rectangle, lines: readonly PageLine[], labelRight: boolean): string | undefined {
  const sameRow = (l: PageLine) => overlap(l.rect.y, l.rect.y + l.rect.height, rect.y, rect.y + rect.height) >= 0.5 * Math.min(l.rect.height, rect.height);
  const left = lines
    .filter((l) => sameRow(l) && l.rect.x + l.rect.width <= rect.x + 2 && rect.x - (l.rect.x + l.rect.width) <= LEFT_REACH)
    .sort((a, b) => b.rect.x + b.rect.width - (a.rect.x + a.rect.width))[0];
  const right = lines.filter((l) => sameRow(l) && l.rect.x >= rect.x + rect.width - 2 && l.rect.x - (rect.x + rect.width) <= RIGHT_REACH).sort((a, b) => a.rect.x - b.rect.x)[0];
  const above = lines
    .filter((l) => l.rect.y >= rect.y + rect.height - 2 && l.rect.y - (rect.y + rect.height) <= ABOVE_REACH && overlap(l.rect.x, l.rect.x + l.rect.width, rect.x, rect.x + rect.width) > 0)
    .sort((a, b) => a.rect.y - b.rect.y)[0];
  for (const line of labelRight ? [right, left, above] : [left, above]) {
    const label = line ? clean(line.text) : '';
    if (label) return label;
  }
  return undefined;
}

/**
 * Field flags of a button (ISO 32000-1 Table 226). A push button says what it does in its caption; a radio group's
 * buttons each have their option's label on their right, so the group's own label is the one before its first button.
 */
const PUSHBUTTON = 1 << 16;
const RADIO = 1 << 15;

/**
 * Gives the widget's field a /TU (PDF/UA-1 7.18.1, 7.18.4) when it has none: the label beside it on the page, else
 * its name. Answers the text written, or undefined when the field had one (or has no name and no label).
 */
export function describeField(doc: mupdf.PDFDocument, widget: mupdf.PDFObject, rect: Rectangle | undefined, lines: readonly PageLine[]): string | undefined {
  const field = fieldOf(widget);
  if (text(field.get('TU'))?.trim()) return undefined;
  // FT and Ff are inherited from the parents (ISO 32000-1 12.7.3.1).
  const type = name(inheritable(field, 'FT'));
  const flags = inheritable(field, 'Ff');
  const labelRight = type === 'Btn' && !((flags.isNumber() ? flags.asNumber() : 0) & (PUSHBUTTON | RADIO));
  const caption = text(deref(widget.get('MK')).isDictionary() ? deref(widget.get('MK')).get('CA') : doc.newNull())?.trim();
  const tooltip = (rect && labelFor(rect, lines, labelRight)) || caption || qualifiedName(field) || undefined;
  if (!tooltip) return undefined;
  field.put('TU', doc.newString(tooltip));
  return tooltip;
}

/** "StrikeOut" as "Strike out", "FreeText" as "Free text": an annotation type in words. */
const inWords = (subtype: string) => subtype.replace(/(?<=[a-z])(?=[A-Z0-9])/g, ' ').replace(/(?<= )[A-Z](?=[a-z])/g, (c) => c.toLowerCase());

/**
 * The alternate description of an annotation that has no /Contents (PDF/UA-1 7.18.1-2), for its Annot element's /Alt:
 * its type, and the text it lies on (a highlight's words) or its attached file's name. What it means is for a person
 * to say (Matterhorn 28-003); this says what it is.
 */
export function annotationAlt(annot: mupdf.PDFObject, subtype: string, rect: Rectangle | undefined, lines: readonly PageLine[]): string | undefined {
  if (text(annot.get('Contents'))?.trim()) return undefined;
  if (subtype === 'Popup') {
    // A popup shows its parent's note, which the parent's element already gives: this says whose it is.
    const parent = name(deref(annot.get('Parent')).get('Subtype'));
    return parent ? `Popup annotation showing the note of the ${inWords(parent).toLowerCase()} annotation` : 'Popup annotation';
  }
  const fs = deref(annot.get('FS'));
  const file = fs.isDictionary() ? (text(fs.get('UF')) ?? text(fs.get('F'))) : text(fs);
  const under = rect
    ? lines
        .filter((l) => {
          const [x, y] = [l.rect.x + l.rect.width / 2, l.rect.y + l.rect.height / 2];
          return x >= rect.x && x <= rect.x + rect.width && y >= rect.y && y <= rect.y + rect.height;
        })
        .map((l) => l.text.trim())
        .filter(Boolean)
        .join(' ')
    : '';
  const what = `${inWords(subtype)} annotation`;
  const detail = file ?? (under.length > 300 ? `${under.slice(0, 300)}…` : under);
  return detail ? `${what}: ${detail}` : what;
}

/**
 * Every file specification of an embedded file (a dictionary with /EF: the EmbeddedFiles name tree's, a file
 * attachment annotation's, an associated file's) given non-empty /F and /UF (PDF/UA-1 7.11-1): each from the other,
 * else the name-tree key, else "attachment". And every media clip data dictionary (a screen annotation's rendition)
 * without /Alt given one (7.18.6.2-2): a multi-language text array, its default-language entry the clip's name, else
 * its file's. Answers how many of each were changed.
 */
export function nameEmbeddedFiles(doc: mupdf.PDFDocument): { files: number; mediaClips: number } {
  const hasFile = (spec: mupdf.PDFObject) => spec.isDictionary() && !spec.get('EF').isNull();
  // The name tree's keys name its files; its direct values are specifications too.
  const specs: { spec: mupdf.PDFObject; key?: string }[] = [];
  const keys = new Map<number, string>();
  const tree = nameTreeRoot(doc, 'EmbeddedFiles');
  if (tree) {
    walkNameTree(tree, ({ name: key, value }) => {
      if (value.isIndirect()) {
        if (key) keys.set(value.asIndirect(), key);
      } else if (hasFile(value)) specs.push({ spec: value, ...(key ? { key } : {}) });
    });
  }
  const clips: mupdf.PDFObject[] = [];
  for (const { ref, obj } of loadedObjects(doc)) {
    if (!obj.isDictionary()) continue;
    const key = keys.get(ref.asIndirect());
    if (hasFile(obj)) specs.push({ spec: obj, ...(key ? { key } : {}) });
    else if (name(obj.get('Type')) === 'MediaClip' && name(obj.get('S')) === 'MCD' && obj.get('Alt').isNull()) clips.push(obj);
  }
  // A file attachment annotation's specification written into it is no object of its own either.
  for (let i = 0; i < doc.countPages(); i++) {
    const annots = deref(doc.findPage(i).get('Annots'));
    if (!annots.isArray()) continue;
    annots.forEach((a) => {
      const fs = deref(a).isDictionary() ? deref(a).get('FS') : undefined;
      if (fs && !fs.isIndirect() && hasFile(fs)) specs.push({ spec: fs });
    });
  }
  let mediaClips = 0;
  for (const clip of clips) {
    const data = deref(clip.get('D'));
    const file = data.isDictionary() ? (text(data.get('UF')) ?? text(data.get('F'))) : text(data);
    const alt = doc.newArray();
    alt.push(doc.newString(''));
    alt.push(doc.newString(text(clip.get('N'))?.trim() || (file ? `Media clip: ${file}` : 'Media clip')));
    clip.put('Alt', alt);
    mediaClips++;
  }
  let files = 0;
  for (const { spec, key } of specs) {
    const f = text(spec.get('F'))?.trim() ? text(spec.get('F')) : undefined;
    const uf = text(spec.get('UF'))?.trim() ? text(spec.get('UF')) : undefined;
    if (f && uf) continue;
    const fileName = uf ?? f ?? key ?? 'attachment';
    if (!f) spec.put('F', doc.newString(fileName));
    if (!uf) spec.put('UF', doc.newString(fileName));
    files++;
  }
  return { files, mediaClips };
}
