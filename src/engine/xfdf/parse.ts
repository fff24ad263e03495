import { EngineError } from '../errors.js';
import { safeXmlParser, type SafeXmlOptions, type SafeXmlParser } from '../../safe-xml.js';

/**
 * The one XFDF reader: annotation imports (annotation-transfer.ts), field
 * data imports (field-data.ts) and the XML documents XFDF carries inside
 * (the base64 payload of <appearance>, appearance-xml.ts) all parse here, so
 * one body reads the same at every endpoint. No MuPDF: pure text work.
 *
 * The rules (docs/architecture.md, Decisions, "XFDF bodies"):
 * - XML 1.0 without a DTD: a DOCTYPE or entity declaration is refused before
 *   parsing (XXE, billion laughs); the only references are XML's five
 *   predefined entities and character references naming an XML character.
 *   Any other reference (HTML's `&nbsp;`, `&#0;`) makes the body not
 *   well-formed: refused, never kept as text or guessed at.
 * - CDATA sections are text, taken literally, in document order.
 * - A UTF-8 byte order mark before the body is skipped.
 * - Elements nest at most MAX_XFDF_DEPTH deep, the root being level 1.
 * - Element names are read without their namespace prefix; readers compare
 *   them in any case (isTag). Attribute names are as written.
 * Every refusal is 400 MALFORMED_XFDF.
 */

/** One parsed element: its attributes and children in document order. */
export interface XfdfElement {
  /** The local name (any namespace prefix removed), in the case written. */
  tag: string;
  attrs: Record<string, string>;
  children: XfdfElement[];
  /** The element's own text: references decoded, CDATA literal, child elements' text left out. */
  text: string;
  /** Inner XML, for rich text (contents-richtext, value-richtext). */
  raw?: string;
}

const RICH_TEXT = ['contents-richtext', 'value-richtext'];

const XML_SHAPE: SafeXmlOptions['shape'] = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  // CDATA kept apart from text, so that its content is not taken for references.
  cdataPropName: '#cdata',
  trimValues: false,
  stopNodes: RICH_TEXT.map((t) => `*.${t}`),
  ignoreDeclaration: true,
  ignorePiTags: true,
};

/** Deepest element nesting an XFDF body may have, the root being level 1 (docs/errors.md, MALFORMED_XFDF). */
const MAX_XFDF_DEPTH = 100;

const parsers = new Map<number, SafeXmlParser>();
function parserFor(maxDepth: number): SafeXmlParser {
  let parser = parsers.get(maxDepth);
  // References kept: decodeReferences decodes them, refusing what XML does not define.
  if (!parser) parsers.set(maxDepth, (parser = safeXmlParser({ maxDepth, references: 'kept', shape: XML_SHAPE })));
  return parser;
}

const malformed = (message: string, code = 'MALFORMED_XFDF'): never => {
  throw new EngineError(code, message);
};

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML 1.0's Char production: what a character reference may name. */
function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/**
 * Text with its references decoded: XML's five entities and character
 * references. Anything else after `&` is refused (see above); `what` names
 * the document in the message, `code` the error (XMP packets read with the same rules: engine/metadata/xmp.ts).
 */
export function decodeReferences(s: string, what = 'The XFDF body', code = 'MALFORMED_XFDF'): string {
  if (!s.includes('&')) return s;
  return s.replace(/&([^&;]*);?/g, (ref, body: string) => {
    const predefined = PREDEFINED[body];
    if (predefined !== undefined && ref.endsWith(';')) return predefined;
    const number = /^#(?:x([0-9a-fA-F]{1,8})|([0-9]{1,10}))$/.exec(body);
    if (number && ref.endsWith(';')) {
      const point = number[1] !== undefined ? parseInt(number[1], 16) : Number(number[2]);
      if (isXmlChar(point)) return String.fromCodePoint(point);
      return malformed(`${what} is not well-formed XML: ${ref} names a character XML 1.0 does not allow`, code);
    }
    const shown = ref.length > 40 ? `${ref.slice(0, 40)}...` : ref;
    return malformed(`${what} is not well-formed XML: ${JSON.stringify(shown)} is not an XML reference (XML knows &lt; &gt; &amp; &quot; &apos; and character references such as &#160;, no HTML entities)`, code);
  });
}

/** Checks the references of markup kept raw (rich text), outside its comments and CDATA sections. */
function checkRawReferences(raw: string, what: string): void {
  decodeReferences(raw.replace(/<!--[^]*?-->|<!\[CDATA\[[^]*?\]\]>/g, ''), what);
}

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

/** The local part of an element name: `x:annots` is `annots`. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

function toElement(node: Ordered, what: string): XfdfElement | undefined {
  const name = Object.keys(node).find((k) => k !== ':@');
  if (!name || name === '#text' || name === '#cdata' || name === '#comment') return undefined;
  const content = (node[name] as Ordered[]) ?? [];
  const tag = localName(name);
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(node[':@'] ?? {})) attrs[k] = decodeReferences(String(v), what);
  if (RICH_TEXT.includes(tag.toLowerCase())) {
    // A stop node: its inner XML comes as one text, kept as written.
    const raw = content.map((c) => ('#text' in c ? String(c['#text']) : '')).join('');
    checkRawReferences(raw, what);
    return { tag, attrs, children: [], text: raw, raw };
  }
  let text = '';
  const children: XfdfElement[] = [];
  for (const c of content) {
    if ('#text' in c) text += decodeReferences(String(c['#text']), what);
    else if ('#cdata' in c) text += ((c['#cdata'] as Ordered[]) ?? []).map((t) => String(t['#text'] ?? '')).join('');
    else {
      const child = toElement(c, what);
      if (child) children.push(child);
    }
  }
  return { tag, attrs, children, text };
}

/** Whether an element is the named one: local name, any case. */
export function isTag(e: XfdfElement, name: string): boolean {
  return e.tag.toLowerCase() === name;
}

/**
 * The root element of an XML text, parsed by the rules above; `what` names
 * the document in error messages ("The XFDF body", "The <appearance> of
 * stamp x"), `tooDeep` what is said of nesting past maxDepth.
 */
export function parseSafeXml(text: string, what: string, maxDepth = MAX_XFDF_DEPTH, tooDeep = `elements are nested deeper than ${maxDepth} levels`): XfdfElement {
  const nodes = parserFor(maxDepth)(text, (refusal) => {
    if (refusal.reason === 'dtd') return malformed(`${what} may not contain a DOCTYPE or entity declarations`);
    if (refusal.reason === 'malformed') return malformed(`${what} is not well-formed XML (line ${refusal.line}: ${refusal.message})`);
    return malformed(`${what} is refused: ${refusal.reason === 'too-deep' ? tooDeep : 'it cannot be parsed'}`);
  }) as Ordered[];
  let root: XfdfElement | undefined;
  for (const node of nodes) root ??= toElement(node, what);
  return root ?? malformed(`${what} has no root element`);
}

/** An XFDF request body (UTF-8) as its <xfdf> root element. */
export function parseXfdf(bytes: Uint8Array): XfdfElement {
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') malformed('The XFDF body is empty');
  const root = parseSafeXml(text, 'The XFDF body');
  if (!isTag(root, 'xfdf')) malformed('The root element must be <xfdf>');
  return root;
}

/**
 * The plain text of XFDF rich text (XHTML): a paragraph break or <br> is a
 * line break, other markup is dropped, references are decoded as in the
 * rest of the body, CDATA is literal, white space at either end is trimmed.
 */
export function richTextToPlain(xhtml: string): string {
  const pieces = xhtml.split(/(<!\[CDATA\[[^]*?\]\]>)/);
  return pieces
    .map((piece, i) => {
      if (i % 2 === 1) return piece.slice('<![CDATA['.length, -']]>'.length);
      const stripped = piece
        .replace(/<!--[^]*?-->/g, '')
        .replace(/<\/p\s*>\s*<p\b[^>]*>/gi, '\n')
        .replace(/<br\s*\/?>/gi, '\n')
        .replace(/<[^>]*>/g, '');
      return decodeReferences(stripped);
    })
    .join('')
    .trim();
}
