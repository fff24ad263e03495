import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { EngineError } from '../errors.js';
import type { XfdfElement } from './xfdf-map.js';

/**
 * Parses an XFDF document into elements in document order. A DOCTYPE is
 * refused outright, so no entity is ever declared, fetched or expanded (XXE,
 * billion laughs); only XML's predefined entities and character references
 * are decoded. Rich text bodies are kept as raw XHTML.
 */
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  trimValues: false,
  stopNodes: ['*.contents-richtext', '*.value-richtext'],
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

function toElement(node: Ordered): XfdfElement | undefined {
  const tag = Object.keys(node).find((k) => k !== ':@');
  if (!tag || tag === '#text' || tag === '#comment') return undefined;
  const content = (node[tag] as Ordered[]) ?? [];
  const texts = content.filter((c) => '#text' in c).map((c) => String(c['#text']));
  const element: XfdfElement = {
    tag,
    attrs: node[':@'] ?? {},
    children: content.map(toElement).filter((e): e is XfdfElement => e !== undefined),
    text: texts.join(''),
  };
  if (tag === 'contents-richtext' || tag === 'value-richtext') element.raw = texts.join('');
  return element;
}

export function parseXfdf(bytes: Uint8Array): XfdfElement {
  const text = Buffer.from(bytes).toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new EngineError('MALFORMED_XFDF', 'XFDF may not contain a DOCTYPE or entity declarations');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new EngineError('MALFORMED_XFDF', `The XFDF is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  const nodes = parser.parse(text) as Ordered[];
  const root = nodes.map(toElement).find((e) => e !== undefined);
  if (!root || root.tag.toLowerCase() !== 'xfdf') throw new EngineError('MALFORMED_XFDF', 'The root element must be <xfdf>');
  return root;
}
