import { EngineError } from '../errors.js';
import { declaresDtd, safeXmlParser, type SafeXmlOptions, type SafeXmlParser } from '../../safe-xml.js';

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
 *
 * Two readers, one result. `readPlain` reads, in one pass and straight into
 * the element tree, the XML every XFDF writer produces (plain ASCII names,
 * quoted attributes, text, CDATA, comments, an XML declaration); anything
 * else, and anything it would refuse, it leaves to safe-xml.ts's
 * fast-xml-parser, which words every refusal as before. So `readPlain`
 * only has to accept a subset of what that parser accepts, and build the
 * same tree from it (test/engine/xfdf-reader.test.ts compares both). The
 * validation and parse of fast-xml-parser, and its intermediate tree, were
 * a third of an import's CPU at 20,000 annotations (issue 38).
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

/**
 * An ASCII XML name without dots, with at most one prefix: every XFDF element and attribute name; other names go the
 * slow way (fast-xml-parser joins element names with dots to match its stop nodes).
 */
const NAME = /[A-Za-z_][\w-]*(?::[A-Za-z_][\w-]*)?/y;
/** One attribute: white space first, the value quoted, without `<` (fast-xml-parser reads that its own way). */
const ATTRIBUTE = /[ \t\n\r]+([A-Za-z_][\w-]*(?::[A-Za-z_][\w-]*)?)[ \t\n\r]*=[ \t\n\r]*(?:"([^"<]*)"|'([^'<]*)')/y;
const SPACE = /[ \t\n\r]*/y;
/** The XML declaration as XML writes it (fast-xml-parser reads its attributes too, and refuses some it cannot). */
const XML_DECLARATION = /^<\?xml(?:[ \t\n\r]+(?:version|encoding|standalone)[ \t\n\r]*=[ \t\n\r]*(?:"[\w.-]*"|'[\w.-]*'))+[ \t\n\r]*\?>/;

interface OpenElement {
  name: string;
  element: XfdfElement;
  /** Where a rich text element's inner XML starts; -1 for others. */
  rawStart: number;
}

/**
 * The element tree of `source`, read in one pass, or undefined wherever the
 * reading is not plain (see the module comment): a DTD, a processing
 * instruction but the XML declaration, a name or attribute outside the
 * subset, a duplicate attribute, a reference decodeReferences refuses,
 * nesting past maxDepth, markup not well-formed. fast-xml-parser then reads
 * the text and answers as it always did.
 */
export function readPlain(source: string, maxDepth = MAX_XFDF_DEPTH): XfdfElement | undefined {
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  if (declaresDtd(source)) return undefined;
  // Line ends as fast-xml-parser's parser reads them (XML's end-of-line handling).
  const text = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source;
  const end = text.length;
  let i = 0;
  if (text.startsWith('<?')) {
    const declaration = XML_DECLARATION.exec(text);
    if (!declaration) return undefined;
    i = declaration[0].length;
  }
  const skipSpace = () => {
    SPACE.lastIndex = i;
    SPACE.test(text);
    i = SPACE.lastIndex;
  };
  /** Past a comment at i (`<!--`), or -1 when it is not closed. */
  const afterComment = () => {
    const close = text.indexOf('-->', i + 4);
    return close < 0 ? -1 : close + 3;
  };
  try {
    // Before the root: white space and comments.
    for (skipSpace(); text.startsWith('<!--', i); skipSpace()) if ((i = afterComment()) < 0) return undefined;
    if (text.charCodeAt(i) !== 0x3c) return undefined;
    const stack: OpenElement[] = [];
    /** Inside a rich text element (its inner XML is checked, not built), the depth of that element; else 0. */
    let richDepth = 0;
    let root: XfdfElement | undefined;
    while (root === undefined) {
      if (i >= end) return undefined;
      const lt = text.indexOf('<', i);
      if (lt < 0) return undefined;
      if (lt > i && richDepth === 0) {
        const top = stack[stack.length - 1];
        if (!top) return undefined;
        const piece = text.slice(i, lt);
        top.element.text += piece.includes('&') ? decodeReferences(piece) : piece;
      }
      i = lt;
      const next = text.charCodeAt(i + 1);
      if (next === 0x21 /* ! */) {
        if (stack.length === 0) return undefined;
        if (text.startsWith('<!--', i)) {
          if ((i = afterComment()) < 0) return undefined;
        } else if (text.startsWith('<![CDATA[', i)) {
          const close = text.indexOf(']]>', i + 9);
          if (close < 0) return undefined;
          if (richDepth === 0) stack[stack.length - 1]!.element.text += text.slice(i + 9, close);
          i = close + 3;
        } else return undefined;
      } else if (next === 0x2f /* / */) {
        NAME.lastIndex = i + 2;
        if (!NAME.test(text)) return undefined;
        const name = text.slice(i + 2, NAME.lastIndex);
        const open = stack.pop();
        if (!open || open.name !== name) return undefined;
        const closeStart = i;
        i = NAME.lastIndex;
        skipSpace();
        if (text.charCodeAt(i) !== 0x3e) return undefined;
        i++;
        if (open.rawStart >= 0) {
          const raw = text.slice(open.rawStart, closeStart);
          // fast-xml-parser ends a rich text element at the first closing tag of its name, wherever it stands.
          if (/(?:contents|value)-richtext/i.test(raw)) return undefined;
          checkRawReferences(raw, '');
          open.element.text = raw;
          open.element.raw = raw;
          richDepth = 0;
        }
        if (stack.length === 0) root = open.element;
      } else {
        NAME.lastIndex = i + 1;
        if (!NAME.test(text)) return undefined;
        const name = text.slice(i + 1, NAME.lastIndex);
        if (name.includes('__proto__')) return undefined;
        i = NAME.lastIndex;
        const attrs: Record<string, string> = {};
        for (;;) {
          ATTRIBUTE.lastIndex = i;
          const attribute = ATTRIBUTE.exec(text);
          if (!attribute) break;
          const key = attribute[1]!;
          if (Object.hasOwn(attrs, key) || key === '__proto__') return undefined;
          const value = attribute[2] ?? attribute[3]!;
          attrs[key] = value.includes('&') ? decodeReferences(value) : value;
          i = ATTRIBUTE.lastIndex;
        }
        skipSpace();
        const selfClosing = text.charCodeAt(i) === 0x2f;
        if (selfClosing) i++;
        if (text.charCodeAt(i) !== 0x3e) return undefined;
        i++;
        if (stack.length + 1 > maxDepth) return undefined;
        const tag = localName(name);
        const rich = RICH_TEXT.includes(tag.toLowerCase());
        // fast-xml-parser keeps only the unprefixed lower-case names raw (its stop nodes), and none at the root.
        if (rich && (name !== tag.toLowerCase() || stack.length === 0)) return undefined;
        const element: XfdfElement = { tag, attrs, children: [], text: '' };
        if (richDepth === 0) {
          stack[stack.length - 1]?.element.children.push(element);
          if (rich) {
            element.raw = '';
            if (!selfClosing) richDepth = stack.length + 1;
          }
        } else if (rich) return undefined;
        if (!selfClosing) stack.push({ name, element, rawStart: rich && richDepth === stack.length + 1 ? i : -1 });
        else if (stack.length === 0) root = element;
      }
    }
    // After the root: white space and comments.
    for (skipSpace(); text.startsWith('<!--', i); skipSpace()) if ((i = afterComment()) < 0) return undefined;
    return i === end ? root : undefined;
  } catch (err) {
    if (err instanceof EngineError) return undefined;
    throw err;
  }
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
  return readPlain(text, maxDepth) ?? parseSafeXmlSlowly(text, what, maxDepth, tooDeep);
}

/** parseSafeXml by fast-xml-parser alone: what readPlain leaves, and the reference it is tested against. */
export function parseSafeXmlSlowly(text: string, what: string, maxDepth = MAX_XFDF_DEPTH, tooDeep = `elements are nested deeper than ${maxDepth} levels`): XfdfElement {
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
