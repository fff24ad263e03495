/** A small XML writer for XFDF: element trees with escaped attributes and text, and raw XHTML where XFDF carries it. */
export interface XmlNode {
  tag: string;
  attrs?: [string, string | number][];
  children?: XmlNode[];
  text?: string;
  /** Already well-formed XML (rich text bodies), written as is. */
  raw?: string;
}

/**
 * Characters XML 1.0 cannot hold, not even as character references: the C0
 * controls but tab, LF and CR, U+FFFE, U+FFFF and lone surrogate halves (with
 * the `u` flag a surrogate pair is one code point, so only lone halves match).
 * XFDF is XML 1.0 (its media type registration says so), so it cannot either.
 */
export const NOT_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF\uD800-\uDFFF]/gu;

/** What either replacement of escapeXml may touch (a superset for text). */
const NEEDS_ESCAPE = /[&<>"\r\n\t\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF\uD800-\uDFFF]/;

/** Whether escapeXml would have to write stand-ins for some characters of `value` (for the warning callers give). */
export function hasNonXml(value: string): boolean {
  return NEEDS_ESCAPE.test(value) && value.search(NOT_XML) >= 0;
}

const REFERENCES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;', '\n': '&#10;', '\t': '&#9;' };

/**
 * The one escaper of the XML the service writes by hand (XFDF of annotations
 * and of form fields). A raw CR reaches every reader as LF, and raw line ends
 * and tabs in an attribute as spaces, so they are written as character
 * references. A C0 control XML cannot hold becomes its Unicode control picture
 * (U+0001 as U+2401: visible, and says which it was), other such characters
 * U+FFFD; never dropped silently: callers report them (hasNonXml, nonXmlWarning).
 */
export function escapeXml(value: string, attribute = false): string {
  // Most values need nothing: one test without the `u` flag (any surrogate sends the value down the full path) instead of two replacements.
  if (!NEEDS_ESCAPE.test(value)) return value;
  return xmlStandIns(value).replace(attribute ? /[&<>"\r\n\t]/g : /[&<>\r]/g, (c) => REFERENCES[c]!);
}

/**
 * escapeXml's stand-ins alone (a C0 control as its control picture, other characters XML cannot hold as U+FFFD), for
 * text that a library escapes itself (the DOCX export's, whose library would drop the controls).
 */
export function xmlStandIns(value: string): string {
  return value.replace(NOT_XML, (c) => (c.charCodeAt(0) < 0x20 ? String.fromCharCode(0x2400 + c.charCodeAt(0)) : '\uFFFD'));
}

/** Whether any attribute or text of the tree has characters escapeXml writes stand-ins for. */
export function treeHasNonXml(node: XmlNode): boolean {
  return (node.attrs ?? []).some(([, v]) => typeof v === 'string' && hasNonXml(v)) || (node.text !== undefined && hasNonXml(node.text)) || (node.children ?? []).some(treeHasNonXml);
}

/** The warning of an export that wrote stand-ins: which fields or annotations (the first 20), and how to carry them exactly. */
export function nonXmlWarning(what: 'field' | 'annotation', names: string[]): string[] {
  if (names.length === 0) return [];
  const listed = names.slice(0, 20).map((n) => JSON.stringify(n)).join(', ') + (names.length > 20 ? ` and ${names.length - 20} more` : '');
  return [
    `XFDF (XML 1.0) cannot hold control characters other than tab, LF and CR: in ${what}s ${listed} they were written as ` +
      'Unicode control pictures (U+2400-U+241F; U+FFFD for U+FFFE, U+FFFF and lone surrogates). FDF carries them exactly.',
  ];
}

export function writeXml(node: XmlNode, indent = ''): string {
  const parts: string[] = [];
  writeInto(parts, node, indent);
  return parts.join('');
}

/** writeXml's pieces, pushed in order and joined once: a tree of 20,000 annotations was joined level by level before. */
function writeInto(parts: string[], node: XmlNode, indent: string): void {
  parts.push(indent, '<', node.tag);
  if (node.attrs) for (const [k, v] of node.attrs) parts.push(' ', k, '="', escapeXml(String(v), true), '"');
  if (node.raw !== undefined) parts.push('>', node.raw, '</', node.tag, '>\n');
  else if (node.text !== undefined) parts.push('>', escapeXml(node.text), '</', node.tag, '>\n');
  else if (!node.children?.length) parts.push('/>\n');
  else {
    parts.push('>\n');
    const inner = `${indent}  `;
    for (const child of node.children) writeInto(parts, child, inner);
    parts.push(indent, '</', node.tag, '>\n');
  }
}
