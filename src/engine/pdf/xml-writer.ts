/** A small XML writer for XFDF: element trees with escaped attributes and text, and raw XHTML where XFDF carries it. */
export interface XmlNode {
  tag: string;
  attrs?: [string, string | number][];
  children?: XmlNode[];
  text?: string;
  /** Already well-formed XML (rich text bodies), written as is. */
  raw?: string;
}

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    // Characters XML 1.0 cannot carry at all are dropped rather than written.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
}

export function writeXml(node: XmlNode, indent = ''): string {
  const attrs = (node.attrs ?? []).map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`).join('');
  const open = `${indent}<${node.tag}${attrs}`;
  if (node.raw !== undefined) return `${open}>${node.raw}</${node.tag}>\n`;
  if (node.text !== undefined) return `${open}>${escapeXml(node.text)}</${node.tag}>\n`;
  if (!node.children?.length) return `${open}/>\n`;
  return `${open}>\n${node.children.map((c) => writeXml(c, `${indent}  `)).join('')}${indent}</${node.tag}>\n`;
}
