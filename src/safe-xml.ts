import { XMLParser, XMLValidator, type X2jOptions } from 'fast-xml-parser';

/**
 * The one XML parser factory. Every XML the service reads (request bodies, XFDF and the XML inside its appearances, XMP
 * packets, Factur-X invoices, WebDAV answers) is parsed by a parser made here, hardened alike:
 * - no DTD: a DOCTYPE or entity declaration is refused before parsing (declaresDtd), so no entity is declared,
 *   fetched or expanded (XXE, billion laughs);
 * - well-formed XML only: fast-xml-parser's validator runs first (its parser alone reads broken markup);
 * - element nesting bounded (`maxDepth`, the root being level 1): the parser's plain Error past it becomes a refusal;
 * - a UTF-8 byte order mark before the text is skipped.
 * How references are read is the caller's choice of `references` (with the DTD refused, none can expand into more
 * than a character): `kept` (processEntities off: text and attribute values as written, decoded by the caller's own
 * rules, XFDF's decodeReferences), `predefined` (XML's five named entities decoded by the parser; fast-xml-parser
 * decodes character references only with its HTML table) or `html` (the five, character references and HTML's named
 * entities: request bodies, docs/api.md, as they always were). The tree's shape (order,
 * attributes, namespace prefixes) is the caller's too; its refusals it words itself (its error code, its document's
 * name). A shared module (no layer): the engine, http and storage all parse with it.
 */

/** Why a text was not parsed. */
export type XmlRefusal =
  | { reason: 'dtd' }
  | { reason: 'malformed'; line: number; message: string }
  | { reason: 'too-deep'; maxDepth: number }
  | { reason: 'unparsable' };

export interface SafeXmlOptions {
  /** Deepest element nesting read, the root being level 1. */
  maxDepth: number;
  references: 'kept' | 'predefined' | 'html';
  /** fast-xml-parser's options for the tree's shape; what the hardening sets is not the caller's. */
  shape?: Omit<X2jOptions, 'processEntities' | 'htmlEntities' | 'maxNestedTags'>;
}

/** Parses a text, or calls `refuse` (which throws the caller's error). */
export type SafeXmlParser = (text: string, refuse: (refusal: XmlRefusal) => never) => unknown;

/** Whether the text declares a DOCTYPE or entities: refused before parsing, whatever else it holds. */
export function declaresDtd(text: string): boolean {
  return /<!DOCTYPE|<!ENTITY/i.test(text);
}

export function safeXmlParser(options: SafeXmlOptions): SafeXmlParser {
  const parser = new XMLParser({
    ...options.shape,
    processEntities: options.references !== 'kept',
    htmlEntities: options.references === 'html',
    // The parser refuses an element opened below more than maxNestedTags open ones.
    maxNestedTags: options.maxDepth - 1,
  });
  return (text, refuse) => {
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (declaresDtd(text)) return refuse({ reason: 'dtd' });
    const valid = XMLValidator.validate(text);
    if (valid !== true) return refuse({ reason: 'malformed', line: valid.err.line, message: valid.err.msg });
    try {
      return parser.parse(text) as unknown;
    } catch (err) {
      return refuse(/nested/i.test((err as Error).message) ? { reason: 'too-deep', maxDepth: options.maxDepth } : { reason: 'unparsable' });
    }
  };
}
