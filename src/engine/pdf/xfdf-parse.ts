import { XMLParser, XMLValidator, type X2jOptions } from 'fast-xml-parser';
import { EngineError } from '../errors.js';
import { declaresDtd } from '../xml-safety.js';

/** One parsed XFDF element: its attributes and children (preserveOrder form of fast-xml-parser). */
export interface XfdfElement {
  tag: string;
  attrs: Record<string, string>;
  children: XfdfElement[];
  text: string;
  /** Inner XML, for rich text. */
  raw?: string;
}

/**
 * Parses XFDF, and the XML documents XFDF carries inside (the base64 payload
 * of <appearance>, appearance-xml.ts), into elements in document order. A
 * DOCTYPE is refused outright, so no entity is ever declared, fetched or
 * expanded (XXE, billion laughs); only XML's predefined entities and character
 * references are decoded. Rich text bodies are kept as raw XHTML. Nesting is
 * bounded by the parser (maxNestedTags), so the recursion below is too.
 */
const XML_OPTIONS: X2jOptions = {
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
};
/** Deepest element nesting an XFDF file may have (about fast-xml-parser's default limit). */
export const MAX_XFDF_DEPTH = 100;
const parsers = new Map<number, XMLParser>();
function parserFor(maxDepth: number): XMLParser {
  let parser = parsers.get(maxDepth);
  // The parser refuses an element opened below more than maxNestedTags open ones.
  if (!parser) parsers.set(maxDepth, (parser = new XMLParser({ ...XML_OPTIONS, maxNestedTags: maxDepth - 1 })));
  return parser;
}

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

/**
 * The root element of an XML text, parsed the safe way described above;
 * `what` names the document in error messages ("The XFDF", "The <appearance>
 * of stamp x"), `tooDeep` what is said of nesting past maxDepth. Every
 * failure is 400 MALFORMED_XFDF.
 */
export function parseSafeXml(text: string, what: string, maxDepth = MAX_XFDF_DEPTH, tooDeep = `elements are nested deeper than ${maxDepth} levels`): XfdfElement {
  if (declaresDtd(text)) throw new EngineError('MALFORMED_XFDF', `${what} may not contain a DOCTYPE or entity declarations`);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new EngineError('MALFORMED_XFDF', `${what} is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  let nodes: Ordered[];
  try {
    nodes = parserFor(maxDepth).parse(text) as Ordered[];
  } catch (err) {
    throw new EngineError('MALFORMED_XFDF', `${what} is refused: ${/nested/i.test((err as Error).message) ? tooDeep : 'it cannot be parsed'}`);
  }
  const root = nodes.map(toElement).find((e) => e !== undefined);
  if (!root) throw new EngineError('MALFORMED_XFDF', `${what} has no root element`);
  return root;
}

export function parseXfdf(bytes: Uint8Array): XfdfElement {
  const root = parseSafeXml(Buffer.from(bytes).toString('utf8'), 'The XFDF');
  if (root.tag.toLowerCase() !== 'xfdf') throw new EngineError('MALFORMED_XFDF', 'The root element must be <xfdf>');
  return root;
}
