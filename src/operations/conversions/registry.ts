import { read as readFd } from 'node:fs';
import { promisify } from 'node:util';
import { IMAGE_MEDIA_TYPES, type ImageMediaType, sniffImageType } from '../../engine/models.js';
import { type ErrorCode, ServiceError } from '../../errors.js';
import type { StagedUpload } from '../../storage/store.js';
import { HTML_TYPE, htmlConverter, MARKDOWN_TYPE, markdownConverter, urlConverter } from './html/converter.js';
import { imageConverter } from './image.js';
import { officeConverter, officeFormatOfType } from './office/converter.js';
import { OFFICE_CONTAINERS, officeContainerOf, officeFormatName, type OfficeFormat } from './office/formats.js';
import { PDF_TYPE, pdfConverter } from './pdf.js';
import type { Converter } from './types.js';

/**
 * The registry of converters (types.ts; docs/architecture.md, "Conversions"). Adding a format, in either
 * direction, is one module and one line here. The order is the sniffing order: an upload declared
 * application/octet-stream goes to the first converter that recognises its first bytes; PDF comes last and
 * takes what no other recognises (its check refuses what is no PDF).
 */
export const CONVERTERS: readonly Converter[] = [imageConverter, officeConverter, htmlConverter, markdownConverter, urlConverter, pdfConverter];

export { PDF_TYPE };
const OCTET_STREAM = 'application/octet-stream';
const SNIFF_BYTES = 1024;

/** The converters that store an upload as a document: they produce a PDF. */
const UPLOADERS = CONVERTERS.filter((converter) => converter.produces === PDF_TYPE);

/** Media types a document body may have: what an upload converter takes, and octet-stream (sniffed). */
export const UPLOAD_TYPES: readonly string[] = [PDF_TYPE, ...UPLOADERS.flatMap((c) => c.takes.mediaTypes).filter((type) => type !== PDF_TYPE), OCTET_STREAM];

/** For 415 details: what the service accepts. */
export const UPLOAD_TYPES_TEXT = UPLOAD_TYPES.filter((type) => type !== OCTET_STREAM).join(', ');

/** The media type a file name's extension stands for, when an upload converter claims it. */
export function mediaTypeOfExtension(extension: string): string | undefined {
  for (const converter of UPLOADERS) {
    if (Object.hasOwn(converter.takes.extensions, extension)) return converter.takes.extensions[extension];
  }
  return undefined;
}

/** A converter by name (a prepared upload names its converter). */
export function converterNamed(name: string): Converter {
  const converter = CONVERTERS.find((candidate) => candidate.name === name);
  if (!converter) throw new Error(`No converter named ${name}`);
  return converter;
}

/**
 * The converter that stores an upload, and the media type it converts. A declared type picks the converter that
 * claims it, after a look at the first bytes (checkDeclaredType); octet-stream is sniffed in the registry's order.
 * Undefined for a type nobody accepts. A bundle (`assets` > 0: a main file with others) goes only to a converter
 * that takes bundles: with none, 415 UNSUPPORTED_MEDIA_TYPE saying so (docs/api.md, "Bundles").
 */
export async function chooseConverter(mediaType: string, staged: StagedUpload, assets = 0): Promise<{ converter: Converter; mediaType: string } | undefined> {
  // A converter of bundles takes its main file alone too (a self-contained page).
  const candidates = assets > 0 ? UPLOADERS.filter((converter) => converter.takes.kind === 'bundle') : UPLOADERS;
  const refuseBundle = (type: string): never => {
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `No converter takes a bundle of files whose main file is ${type} (the "file" part and ${assets} "asset" part${assets === 1 ? '' : 's'}): send the file alone, without "asset" parts`);
  };
  const head = await headOf(staged);
  if (mediaType !== OCTET_STREAM) {
    if (!UPLOADERS.some((converter) => converter.takes.mediaTypes.includes(mediaType))) return undefined;
    const converter = candidates.find((candidate) => candidate.takes.mediaTypes.includes(mediaType));
    if (!converter) return refuseBundle(mediaType);
    checkDeclaredType(mediaType, head);
    return { converter, mediaType };
  }
  for (const converter of candidates) {
    const sniffed = converter.sniff(head);
    if (sniffed) return { converter, mediaType: sniffed };
  }
  return refuseBundle(OCTET_STREAM);
}

/** What the first bytes show beyond doubt, by signature: a PDF, an image of a type, an Office container; undefined for anything else (text). */
type HeadKind = { kind: 'pdf' } | { kind: 'image'; type: ImageMediaType } | { kind: 'ole2' } | { kind: 'zip' };

function headKind(head: Uint8Array): HeadKind | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (start.subarray(0, 5).toString('latin1') === '%PDF-') return { kind: 'pdf' };
  const image = sniffImageType(head);
  if (image) return { kind: 'image', type: image };
  const container = officeContainerOf(head);
  if (container === OFFICE_CONTAINERS.ole2) return { kind: 'ole2' };
  if (container === OFFICE_CONTAINERS.zip) return { kind: 'zip' };
  return undefined;
}

/** What the content is, for messages, and how to send it instead when the service takes it. */
function describeHead(head: HeadKind): { what: string; hint: string } {
  switch (head.kind) {
    case 'pdf':
      return { what: 'a PDF', hint: 'send a PDF as application/pdf' };
    case 'image':
      return { what: `a ${head.type.slice('image/'.length).toUpperCase()} image`, hint: `send it as ${head.type}` };
    case 'ole2':
      return { what: 'an OLE2 compound file (an Office 97-2003 document, or an encrypted Office file)', hint: 'send it with its own Office type, or as application/octet-stream' };
    case 'zip':
      return { what: 'a ZIP package (an Office Open XML or OpenDocument file, or another archive)', hint: 'send it with its own Office type, or as application/octet-stream' };
  }
}

const OOXML_FORMATS: readonly OfficeFormat[] = ['docx', 'docm', 'xlsx', 'xlsm', 'pptx', 'pptm'];

function officeContainerOfFormat(format: OfficeFormat): 'ole2' | 'zip' | undefined {
  if (format === 'doc' || format === 'xls' || format === 'ppt') return 'ole2';
  if (OOXML_FORMATS.includes(format) || format === 'odt' || format === 'ods' || format === 'odp') return 'zip';
  return undefined;
}

/**
 * The declared type against what the first bytes show (docs/api.md, "Uploads: the declared type and the content"):
 * content whose signature says it is another format is refused before anything is answered (a 202 included), with
 * the code the conversion would have failed with, naming what the content is. Content with no telling signature
 * (text) and a container that may hold the declared format are left to the conversion's full check.
 */
function checkDeclaredType(mediaType: string, headBytes: Uint8Array): void {
  const head = headKind(headBytes);
  const refuse = (code: ErrorCode, found: { what: string; hint?: string }, wanted: string): never => {
    throw new ServiceError(code, `The file is ${found.what}, not ${wanted} as its declared type ${mediaType} says${found.hint ? `: ${found.hint}` : ''}`);
  };
  if (mediaType === PDF_TYPE) {
    if (head && head.kind !== 'pdf') refuse('MALFORMED_PDF', describeHead(head), 'a PDF');
    return;
  }
  if ((IMAGE_MEDIA_TYPES as readonly string[]).includes(mediaType)) {
    if (head && !(head.kind === 'image' && head.type === mediaType)) refuse('MALFORMED_IMAGE', describeHead(head), `a ${mediaType.slice('image/'.length).toUpperCase()} image`);
    return;
  }
  if (mediaType === HTML_TYPE || mediaType === MARKDOWN_TYPE) {
    if (head) refuse('HTML_CONVERSION_FAILED', describeHead(head), mediaType === HTML_TYPE ? 'an HTML page' : 'Markdown text');
    return;
  }
  const format = officeFormatOfType(mediaType);
  if (!format) return;
  const wanted = officeFormatName(format);
  if (!head) {
    // Text holds no NUL unless it is UTF-16 (with its byte order mark); the conversion checks the rest of the text.
    const utf16 = (headBytes[0] === 0xff && headBytes[1] === 0xfe) || (headBytes[0] === 0xfe && headBytes[1] === 0xff);
    if ((format === 'txt' || format === 'csv') && !utf16 && headBytes.includes(0)) refuse('MALFORMED_DOCUMENT', { what: 'binary data of no format the service converts' }, wanted);
    return;
  }
  if (head.kind === 'pdf' || head.kind === 'image') refuse('MALFORMED_DOCUMENT', describeHead(head), wanted);
  // An encrypted Office Open XML file is an OLE2 file: the conversion's check answers OFFICE_DOCUMENT_ENCRYPTED for it.
  const encryptedOoxml = head.kind === 'ole2' && OOXML_FORMATS.includes(format);
  if (head.kind !== officeContainerOfFormat(format) && !encryptedOoxml) refuse('MALFORMED_DOCUMENT', describeHead(head), wanted);
}

/** The first bytes of a staged upload, without reading a large one into memory: those the store kept while staging, when it did. */
async function headOf(staged: StagedUpload): Promise<Uint8Array> {
  if (staged.head && staged.head.length >= Math.min(SNIFF_BYTES, staged.size)) return staged.head.subarray(0, SNIFF_BYTES);
  const content = await staged.open();
  try {
    if (content.fd === undefined) return (await content.read()).subarray(0, SNIFF_BYTES);
    const buffer = Buffer.alloc(Math.min(SNIFF_BYTES, content.size));
    const { bytesRead } = await promisify(readFd)(content.fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await content.close();
  }
}
