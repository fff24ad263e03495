import { XMLBuilder, type X2jOptions } from 'fast-xml-parser';
import { EngineError } from '../errors.js';
import { decodeReferences } from '../xfdf/parse.js';
import { safeXmlParser } from '../../safe-xml.js';
import { escapeXml } from '../syntax/xml-writer.js';
import type { MetadataFields } from './model.js';

/**
 * XMP packets (docs/metadata.md): read, changed property by property, and written back with everything else in them
 * as it was (unknown schemas, PDF/A identification, extension schemas, padding). Parsed with fast-xml-parser keeping
 * document order and every text and reference as written (processEntities off: the builder writes them back
 * unchanged, and what this module writes it escapes itself). No DTD, as for every XML the service reads. No MuPDF:
 * pure text work.
 */

const NS = {
  x: 'adobe:ns:meta/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  /** Acrobat's schema for the custom keys of the Info dictionary. */
  pdfx: 'http://ns.adobe.com/pdfx/1.3/',
  pdfaid: 'http://www.aiim.org/pdfa/ns/id/',
} as const;

/** PDF/A's extension schema container (ISO 19005-2, 6.6.2.3.2): a property outside the predefined schemas is described in it. */
export const PDFA_EXTENSION_NS = 'http://www.aiim.org/pdfa/ns/extension/';

/** How each field of the Info dictionary is carried in XMP. */
const PROPERTIES = {
  title: { ns: NS.dc, local: 'title', kind: 'alt' },
  author: { ns: NS.dc, local: 'creator', kind: 'seq' },
  subject: { ns: NS.dc, local: 'description', kind: 'alt' },
  keywords: { ns: NS.pdf, local: 'Keywords', kind: 'text' },
  creator: { ns: NS.xmp, local: 'CreatorTool', kind: 'text' },
  producer: { ns: NS.pdf, local: 'Producer', kind: 'text' },
  creationDate: { ns: NS.xmp, local: 'CreateDate', kind: 'text' },
  modificationDate: { ns: NS.xmp, local: 'ModifyDate', kind: 'text' },
  language: { ns: NS.dc, local: 'language', kind: 'bag' },
} as const;

export type XmpField = keyof typeof PROPERTIES;
export const XMP_FIELDS = Object.keys(PROPERTIES) as XmpField[];

const MALFORMED = 'MALFORMED_XMP';
const malformed = (message: string): never => {
  throw new EngineError(MALFORMED, message);
};

/** Deepest element nesting read in a packet: real packets nest under 10 levels. */
const MAX_DEPTH = 64;

/** The tree's shape, the parser's and the builder's; references are kept as written by both (processEntities off). */
const SHAPE = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: '#cdata',
  commentPropName: '#comment',
  allowBooleanAttributes: false,
} satisfies X2jOptions;
const parse = safeXmlParser({ maxDepth: MAX_DEPTH, references: 'kept', shape: SHAPE });
const builder = new XMLBuilder({ ...SHAPE, processEntities: false, suppressEmptyNode: false });

/** One node of fast-xml-parser's ordered tree: `{ name: children, ':@': attributes }`, or a text, CDATA or comment. */
type Node = Record<string, unknown> & { ':@'?: Record<string, string> };

function nameOf(node: Node): string | undefined {
  return Object.keys(node).find((k) => k !== ':@');
}
function childrenOf(node: Node): Node[] {
  const name = nameOf(node);
  const children = name === undefined ? undefined : node[name];
  return Array.isArray(children) ? (children as Node[]) : [];
}
const isElement = (node: Node) => {
  const name = nameOf(node);
  return name !== undefined && !name.startsWith('#') && !name.startsWith('?');
};

/** Namespace declarations in scope: prefix ('' for the default) -> URI. */
type Scope = Map<string, string>;
function scopeOf(node: Node, outer: Scope): Scope {
  const attrs = node[':@'];
  if (!attrs) return outer;
  let scope = outer;
  for (const [k, v] of Object.entries(attrs)) {
    if (k !== 'xmlns' && !k.startsWith('xmlns:')) continue;
    if (scope === outer) scope = new Map(outer);
    scope.set(k === 'xmlns' ? '' : k.slice(6), decodeReferences(v, 'The XMP packet', MALFORMED));
  }
  return scope;
}
/** An element's or attribute's namespace URI and local name. */
function expanded(qname: string, scope: Scope, attribute = false): { ns: string | undefined; local: string } {
  const colon = qname.indexOf(':');
  if (colon < 0) return { ns: attribute ? undefined : scope.get(''), local: qname };
  return { ns: scope.get(qname.slice(0, colon)), local: qname.slice(colon + 1) };
}

/** A parsed packet: the tree, and the rdf:RDF element with the scope it is in. */
export interface XmpPacket {
  nodes: Node[];
  rdf: Node;
  scope: Scope;
}

/**
 * A packet parsed: well-formed XML without DTD, whose root is x:xmpmeta holding rdf:RDF, or rdf:RDF itself (namespaces
 * by URI, any prefix); 400 MALFORMED_XMP otherwise.
 */
export function parseXmp(text: string): XmpPacket {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') malformed('The XMP packet is empty');
  const nodes = parse(text, (refusal) => {
    if (refusal.reason === 'dtd') return malformed('The XMP packet may not contain a DOCTYPE or entity declarations');
    if (refusal.reason === 'malformed') return malformed(`The XMP packet is not well-formed XML (line ${refusal.line}: ${refusal.message})`);
    return malformed(`The XMP packet is refused: ${refusal.reason === 'too-deep' ? `elements are nested deeper than ${MAX_DEPTH} levels` : 'it cannot be parsed'}`);
  }) as Node[];
  const roots = nodes.filter(isElement);
  if (roots.length !== 1) malformed('The XMP packet must have one root element');
  const root = roots[0]!;
  const rootScope = scopeOf(root, new Map());
  const rootName = expanded(nameOf(root)!, rootScope);
  if (rootName.ns === NS.rdf && rootName.local === 'RDF') {
    checkReferences(nodes);
    return { nodes, rdf: root, scope: rootScope };
  }
  if (rootName.ns !== NS.x || rootName.local !== 'xmpmeta') malformed('The XMP packet\'s root element must be x:xmpmeta (namespace adobe:ns:meta/) or rdf:RDF');
  const rdf = childrenOf(root).find((c) => isElement(c) && isRdf(c, rootScope, 'RDF'));
  if (!rdf) malformed('The XMP packet\'s x:xmpmeta holds no rdf:RDF element');
  checkReferences(nodes);
  return { nodes, rdf: rdf!, scope: rootScope };
}

function isRdf(node: Node, outer: Scope, local: string): boolean {
  const name = expanded(nameOf(node)!, scopeOf(node, outer));
  return name.ns === NS.rdf && name.local === local;
}

/** Every text and attribute value decoded once, so that a reference XML does not define is refused here, not when a value is read. */
function checkReferences(nodes: Node[]): void {
  for (const node of nodes) {
    for (const v of Object.values(node[':@'] ?? {})) decodeReferences(String(v), 'The XMP packet', MALFORMED);
    if ('#text' in node) decodeReferences(String(node['#text']), 'The XMP packet', MALFORMED);
    else if (isElement(node)) checkReferences(childrenOf(node));
  }
}

/** The packet as text, as it was read but for the properties changed. */
export function serializeXmp(packet: XmpPacket): string {
  return builder.build(packet.nodes) as string;
}

/** The rdf:Description elements of the packet, with their scopes. */
function descriptions(packet: XmpPacket): { node: Node; scope: Scope }[] {
  const rdfScope = scopeOf(packet.rdf, packet.scope);
  return childrenOf(packet.rdf)
    .filter((c) => isElement(c) && isRdf(c, rdfScope, 'Description'))
    .map((node) => ({ node, scope: scopeOf(node, rdfScope) }));
}

function textOf(node: Node): string {
  let out = '';
  for (const c of childrenOf(node)) {
    if ('#text' in c) out += decodeReferences(String(c['#text']), 'The XMP packet', MALFORMED);
    else if ('#cdata' in c) out += childrenOf(c).map((t) => String(t['#text'] ?? '')).join('');
  }
  return out;
}

/** A property's value: simple text, the x-default (else first) item of an rdf:Alt, or the items of an rdf:Seq or rdf:Bag joined by "; ". */
function valueOf(property: Node, scope: Scope, kind: 'alt' | 'seq' | 'bag' | 'text'): string | undefined {
  const inner = scopeOf(property, scope);
  const container = childrenOf(property).find((c) => isElement(c));
  if (!container) return kind === 'text' ? textOf(property) : textOf(property) || undefined;
  const containerScope = scopeOf(container, inner);
  const items = childrenOf(container).filter((c) => isElement(c) && isRdf(c, containerScope, 'li'));
  if (items.length === 0) return undefined;
  if (kind === 'alt' || isRdf(container, inner, 'Alt')) {
    const preferred = items.find((li) => li[':@']?.['xml:lang'] === 'x-default') ?? items[0]!;
    return textOf(preferred);
  }
  return items.map(textOf).join('; ');
}

/** The fields the packet holds (the Info dictionary's counterparts, and pdfx properties as custom keys). */
export function readXmpFields(packet: XmpPacket): MetadataFields {
  const fields: MetadataFields = {};
  const custom: Record<string, string> = {};
  for (const { node, scope } of descriptions(packet)) {
    for (const [qname, raw] of Object.entries(node[':@'] ?? {})) {
      const { ns, local } = expanded(qname, scope, true);
      const value = decodeReferences(String(raw), 'The XMP packet', MALFORMED);
      const field = XMP_FIELDS.find((f) => PROPERTIES[f].ns === ns && PROPERTIES[f].local === local);
      if (field) fields[field] ??= value;
      else if (ns === NS.pdfx) custom[local] ??= value;
    }
    for (const property of childrenOf(node).filter(isElement)) {
      const { ns, local } = expanded(nameOf(property)!, scopeOf(property, scope));
      const field = XMP_FIELDS.find((f) => PROPERTIES[f].ns === ns && PROPERTIES[f].local === local);
      if (field) {
        const value = valueOf(property, scope, PROPERTIES[field].kind);
        if (value !== undefined) fields[field] ??= value;
      } else if (ns === NS.pdfx && !childrenOf(property).some(isElement)) {
        custom[local] ??= textOf(property);
      }
    }
  }
  if (Object.keys(custom).length > 0) fields.custom = custom;
  return fields;
}

/** Whether the packet identifies the document as PDF/A (a pdfaid:part property, in either form). */
export function claimsPdfa(packet: XmpPacket): boolean {
  return descriptions(packet).some(({ node, scope }) =>
    Object.keys(node[':@'] ?? {}).some((q) => {
      const e = expanded(q, scope, true);
      return e.ns === NS.pdfaid && e.local === 'part';
    }) ||
    childrenOf(node).some((c) => {
      if (!isElement(c)) return false;
      const e = expanded(nameOf(c)!, scopeOf(c, scope));
      return e.ns === NS.pdfaid && e.local === 'part';
    }),
  );
}

/** Removes a property (element or attribute form) from every rdf:Description. */
function removeProperty(packet: XmpPacket, ns: string, local: string | undefined): void {
  for (const { node, scope } of descriptions(packet)) {
    const attrs = node[':@'];
    if (attrs) {
      for (const qname of Object.keys(attrs)) {
        const name = expanded(qname, scope, true);
        if (name.ns === ns && (local === undefined || name.local === local)) delete attrs[qname];
      }
    }
    const name = nameOf(node)!;
    const kept = childrenOf(node).filter((c) => {
      if (!isElement(c)) return true;
      const e = expanded(nameOf(c)!, scopeOf(c, scope));
      return !(e.ns === ns && (local === undefined || e.local === local));
    });
    node[name] = kept;
  }
}

/** The prefix an rdf:Description of the packet declares for `ns`, else one declared on a new rdf:Description appended for it. */
function descriptionFor(packet: XmpPacket, ns: string, preferred: string): { node: Node; prefix: string; rdf: string } {
  const rdfScope = scopeOf(packet.rdf, packet.scope);
  const rdfPrefix = [...rdfScope].find(([, uri]) => uri === NS.rdf)![0];
  for (const { node, scope } of descriptions(packet)) {
    const prefix = [...scope].find(([p, uri]) => uri === ns && p !== '')?.[0];
    if (prefix !== undefined) return { node, prefix, rdf: rdfPrefix };
  }
  // A prefix not taken in the scope of rdf:RDF (a packet may bind the usual prefix to another namespace).
  let prefix = preferred;
  for (let i = 1; rdfScope.has(prefix); i++) prefix = `${preferred}${i}`;
  const node: Node = { [`${rdfPrefix}:Description`]: [{ '#text': '\n' }], ':@': { [`${rdfPrefix}:about`]: '', [`xmlns:${prefix}`]: ns } };
  const rdfName = nameOf(packet.rdf)!;
  (packet.rdf[rdfName] as Node[]).push(node, { '#text': '\n' });
  return { node, prefix, rdf: rdfPrefix };
}

const text = (value: string) => [{ '#text': escapeXml(value) }];

function propertyNode(qname: string, rdf: string, kind: 'alt' | 'seq' | 'bag' | 'text', value: string): Node {
  if (kind === 'text') return { [qname]: text(value) };
  const li: Node = { [`${rdf}:li`]: text(value) };
  if (kind === 'alt') li[':@'] = { 'xml:lang': 'x-default' };
  const container = kind === 'alt' ? 'Alt' : kind === 'seq' ? 'Seq' : 'Bag';
  return { [qname]: [{ [`${rdf}:${container}`]: [li] }] };
}

function setProperty(packet: XmpPacket, ns: string, preferred: string, local: string, kind: 'alt' | 'seq' | 'bag' | 'text', value: string | undefined): void {
  removeProperty(packet, ns, local);
  if (value === undefined) return;
  const { node, prefix, rdf } = descriptionFor(packet, ns, preferred);
  (node[nameOf(node)!] as Node[]).push(propertyNode(`${prefix}:${local}`, rdf, kind, value), { '#text': '\n' });
}

const PREFERRED_PREFIX: Record<string, string> = { [NS.dc]: 'dc', [NS.pdf]: 'pdf', [NS.xmp]: 'xmp', [NS.pdfx]: 'pdfx' };

/**
 * Changes the packet to hold `fields` (the Info dictionary as it will be): a property whose value differs from the
 * packet's is replaced (in element form, in an rdf:Description declaring its schema, a new one when none does) or
 * removed; equal ones stay as written (an rdf:Seq of several authors stays). The pdfx properties become the custom
 * keys. xmp:MetadataDate is `now`. Nothing else is touched.
 */
export function applyXmpFields(packet: XmpPacket, fields: MetadataFields, now: string): void {
  const current = readXmpFields(packet);
  for (const field of XMP_FIELDS) {
    if (current[field] === fields[field]) continue;
    const p = PROPERTIES[field];
    setProperty(packet, p.ns, PREFERRED_PREFIX[p.ns]!, p.local, p.kind, fields[field]);
  }
  // PDF/A allows XMP properties only of its predefined schemas or of ones the packet describes in an extension schema,
  // and pdfx is neither: a PDF/A document keeps its custom keys in the Info dictionary alone (PDF/A lets them be there).
  if (claimsPdfa(packet)) {
    setProperty(packet, NS.xmp, 'xmp', 'MetadataDate', 'text', now);
    return;
  }
  const customNow = current.custom ?? {};
  const customNew = fields.custom ?? {};
  const keys = new Set([...Object.keys(customNow), ...Object.keys(customNew)]);
  for (const key of keys) {
    // A key that is no XML name (an Info key with a space, from another tool) has no pdfx property.
    if (!XML_NAME.test(key)) continue;
    if (customNow[key] !== customNew[key]) setProperty(packet, NS.pdfx, 'pdfx', key, 'text', customNew[key]);
  }
  setProperty(packet, NS.xmp, 'xmp', 'MetadataDate', 'text', now);
}

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Room left for editors that update a packet in place, as the XMP specification suggests. */
const PADDING = `${' '.repeat(99)}\n`.repeat(20);

/** A new packet holding `fields`. */
export function newXmp(fields: MetadataFields, now: string): XmpPacket {
  const packet = parseXmp(
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n' +
      '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n' +
      '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">\n<dc:format>application/pdf</dc:format>\n</rdf:Description>\n' +
      `</rdf:RDF>\n</x:xmpmeta>\n${PADDING}<?xpacket end="w"?>`,
  );
  applyXmpFields(packet, fields, now);
  return packet;
}

/**
 * Document attachments' Factur-X step (engine/attachments/facturx.ts) and the PDF/UA identification
 * (engine/pdfua/finish.ts): removes the packet's rdf:Description elements that declare one of `namespaces` on
 * themselves (as this function's own writes do), then appends the rdf:Description elements of `descriptions` (XML text, each declaring its namespaces). Everything else stays as it was.
 */
export function replaceDescriptions(packet: XmpPacket, namespaces: readonly string[], descriptions: string): void {
  const declares = (node: Node) => Object.entries(node[':@'] ?? {}).some(([k, v]) => k.startsWith('xmlns:') && namespaces.includes(v));
  const rdfName = nameOf(packet.rdf)!;
  const kept = childrenOf(packet.rdf).filter((c) => !(isElement(c) && isRdf(c, scopeOf(packet.rdf, packet.scope), 'Description') && declares(c)));
  const added = parseXmp(`<x:xmpmeta xmlns:x="${NS.x}"><rdf:RDF xmlns:rdf="${NS.rdf}">${descriptions}</rdf:RDF></x:xmpmeta>`);
  packet.rdf[rdfName] = [...kept, ...childrenOf(added.rdf).filter(isElement), { '#text': '\n' }];
}
