import { XMLBuilder } from 'fast-xml-parser';
import type { FastifyRequest } from 'fastify';
import { NOT_XML } from '../engine/models.js';
import { ServiceError } from '../errors.js';
import { safeXmlParser } from '../safe-xml.js';
import { markTextSourced } from '../validation.js';

/**
 * JSON <-> XML for models, in one place. Rules (docs/api.md): the root element
 * is the model's XML name; each property becomes a child element of the same
 * name; an array becomes a wrapper element holding one element per item, named
 * by the model's item names (or the property's singular), except that a list
 * of numbers is one space-separated value; absent values are left out; dates
 * are ISO 8601, booleans "true"/"false".
 */
export interface XmlShape {
  root: string;
  /** Element names for array items, by property name. */
  items?: Record<string, string>;
  /** A list model whose one array property is written directly under the root. */
  flatten?: string;
  /** With `flatten`: the list's items come before the other properties (a page of a longer list, then its paging). */
  listFirst?: boolean;
}

/** The element name of an array's items: the array's element name made singular. */
export function singular(key: string): string {
  // An outline item's children (docs/outline.md): <children><child>..</child></children>.
  if (key === 'children') return 'child';
  if (key.endsWith('ies')) return `${key.slice(0, -3)}y`;
  if (key.endsWith('s')) return key.slice(0, -1);
  return `${key}Item`;
}

// Characters XML 1.0 cannot carry even escaped (engine/xml-writer.ts): extracted text and names read from PDFs
// contain them, and one would make the whole document unreadable. In models they become U+FFFD.

function toTree(value: unknown, items: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(NOT_XML, '\uFFFD');
  if (value instanceof Date) return value.toISOString();
  // A list of numbers (coordinates, dash patterns) is written as PDF and XFDF write them: space-separated.
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'number')) return value.join(' ');
  if (Array.isArray(value)) return value.map((v) => toTree(v, items));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v) && !(v.length > 0 && v.every((x) => typeof x === 'number'))) {
        out[key] = { [items[key] ?? singular(key)]: v.map((x) => toTree(x, items)) };
      } else {
        out[key] = toTree(v, items);
      }
    }
    return out;
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return value;
}

const builder = new XMLBuilder({ format: true, indentBy: '  ', suppressEmptyNode: false, processEntities: true });

export function renderXml(shape: XmlShape, value: unknown): string {
  const items = shape.items ?? {};
  let tree: unknown;
  if (shape.flatten && value && typeof value === 'object') {
    const { [shape.flatten]: list, ...rest } = value as Record<string, unknown>;
    const itemName = items[shape.flatten] ?? singular(shape.flatten);
    const listed = { [itemName]: Array.isArray(list) ? list.map((x) => toTree(x, items)) : [] };
    tree = shape.listFirst ? { ...listed, ...(toTree(rest, items) as object) } : { ...(toTree(rest, items) as object), ...listed };
  } else {
    tree = toTree(value, items);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ [shape.root]: tree })}`;
}

/** List items rendered between two returns to the event loop by renderXmlYielding. */
const ITEMS_PER_SLICE = 100;

const indented = (xml: string) => xml.replace(/^(?=.)/gm, '  ');

/**
 * renderXml for a list model, giving the event loop back after every slice of
 * ITEMS_PER_SLICE items: rendering 1,000 page models takes 6 to 40 ms here,
 * and ten such answers at once held GET /health past its 20 ms target. The
 * same text as renderXml.
 */
export async function renderXmlYielding(shape: XmlShape, value: unknown): Promise<string> {
  const list = shape.flatten && value && typeof value === 'object' ? (value as Record<string, unknown>)[shape.flatten] : undefined;
  if (!shape.flatten || !Array.isArray(list) || list.length <= ITEMS_PER_SLICE) return renderXml(shape, value);
  const items = shape.items ?? {};
  const { [shape.flatten]: _list, ...rest } = value as Record<string, unknown>;
  const itemName = items[shape.flatten] ?? singular(shape.flatten);
  const others = indented(builder.build(toTree(rest, items)));
  const parts = [`<?xml version="1.0" encoding="UTF-8"?>\n<${shape.root}>\n`];
  if (!shape.listFirst) parts.push(others);
  for (let i = 0; i < list.length; i += ITEMS_PER_SLICE) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    parts.push(indented(builder.build({ [itemName]: list.slice(i, i + ITEMS_PER_SLICE).map((x) => toTree(x, items)) })));
  }
  if (shape.listFirst) parts.push(others);
  parts.push(`</${shape.root}>\n`);
  return parts.join('');
}

/** Deepest element nesting a request body may have, the root being level 1. */
const MAX_DEPTH = 100;

// References decoded by the parser (XML's and HTML's named ones, character references): the DOCTYPE, and with it
// every declared entity, is refused before parsing (safe-xml.ts).
const parse = safeXmlParser({
  maxDepth: MAX_DEPTH,
  references: 'html',
  shape: {
    ignoreAttributes: true,
    parseTagValue: false, // strings stay strings; the schema step coerces them
    ignoreDeclaration: true,
    trimValues: false, // values are kept as sent (a password may begin or end with a space)
  },
});

/** Undoes renderXml's array wrappers: `<rights><right>a</right></rights>` becomes `rights: ["a"]`. */
function unwrapArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapArrays);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // Indentation between child elements is not content.
    if (key === '#text' && typeof v === 'string' && v.trim() === '') continue;
    // Indentation around the items of an indented list is not an element either (it kept the list from unwrapping).
    const blank = (k: string) => k === '#text' && typeof (v as Record<string, unknown>)[k] === 'string' && ((v as Record<string, string>)[k]!).trim() === '';
    const inner = v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).filter((k) => !blank(k)) : [];
    if (inner.length === 1 && inner[0] === singular(key)) {
      const items = (v as Record<string, unknown>)[inner[0]!];
      out[key] = (Array.isArray(items) ? items : [items]).map(unwrapArrays);
    } else {
      out[key] = unwrapArrays(v);
    }
  }
  return out;
}

/**
 * Parses a request body. DTDs are refused outright: no entity of any kind is
 * declared or expanded (XXE and billion-laughs payloads are 400 MALFORMED_XML).
 * Returns the root element's name (the model or action name) and its content:
 * `<Session><username>..` becomes `{ root: "Session", value: { username: .. } }`.
 */
export function parseXmlBody(text: string): { root: string; value: Record<string, unknown> } {
  const doc = parse(text, (refusal) => {
    if (refusal.reason === 'dtd') throw new ServiceError('MALFORMED_XML', 'XML bodies may not contain a DOCTYPE or entity declarations');
    if (refusal.reason === 'malformed') throw new ServiceError('MALFORMED_XML', `The XML body is not well-formed (line ${refusal.line})`);
    throw new ServiceError('MALFORMED_XML', refusal.reason === 'too-deep' ? `Elements are nested deeper than ${MAX_DEPTH} levels` : 'The XML body cannot be parsed');
  }) as Record<string, unknown>;
  const roots = Object.keys(doc);
  if (roots.length !== 1) throw new ServiceError('MALFORMED_XML', 'The XML body must have one root element');
  const root = roots[0]!;
  const content = doc[root];
  // XML values are text: the schema step coerces them (src/validation.ts).
  if (content === '' || content === undefined) return { root, value: markTextSourced({}) };
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw new ServiceError('MALFORMED_XML', 'The root element must contain elements');
  }
  return { root, value: markTextSourced(unwrapArrays(content) as Record<string, unknown>) };
}

/** XML bodies must name the model they carry: the root element, checked where the body is used. */
export function requireXmlRoot(request: FastifyRequest, root: string): void {
  if (request.xmlRoot !== null && request.xmlRoot !== root) {
    throw new ServiceError('VALIDATION_FAILED', `The XML root element must be <${root}>, not <${request.xmlRoot}>`);
  }
}
