import { read as readFd } from 'node:fs';
import { promisify } from 'node:util';
import { type DocumentInfo, IMAGE_MEDIA_TYPES, type ImageMediaType, OFFICE_CONTAINERS, OFFICE_FORMATS, officeContainerOf, officeFormatName, officeFormatOf, type OfficeFormat, officeTextAsUtf8, type OfficeOptions, sniffImageType } from '../engine/models.js';
import { type ErrorCode, ServiceError } from '../errors.js';
import type { ToolSupervisor } from '../tools/supervisor.js';
import { convertOffice } from './office.js';
import { checkToolOutput } from './tool-output.js';
import type { StagedUpload } from '../storage/store.js';
import type { Engine } from './execution.js';

/**
 * Uploads that are not PDFs and become one. Each importer claims media types
 * and file extensions (a declared type or a form file's name picks it), and
 * recognises its content by the first bytes (which picks it when the type is
 * application/octet-stream and the name says nothing). Its convert function
 * checks the whole content itself: a declared type whose content does not
 * match is the importer's 422, as before there was a registry. Adding a format
 * is one entry here.
 */
export interface Importer {
  name: string;
  /** The first is the one a claimed extension stands for. */
  mediaTypes: readonly string[];
  extensions: readonly string[];
  /** Long by nature (an Office conversion takes seconds): its upload runs as a background job unless the client asks to wait (docs/jobs.md). */
  long: boolean;
  /** The claimed media type `head` (the first SNIFF_BYTES bytes) looks like, or undefined. */
  sniff(head: Uint8Array): string | undefined;
  /** The PDF and its summary; `mediaType` is the declared type, or the sniffed one. */
  convert(bytes: Buffer, mediaType: string, deps: ImportDeps): Promise<{ pdf: Uint8Array; info: UploadSummary }>;
}

export interface ImportDeps {
  /** The engine under the operation's execution context (its signal and progress). */
  engine: Engine;
  tools: ToolSupervisor;
  /** Stops an external program the conversion runs. */
  signal?: AbortSignal | undefined;
  /** A background job's conversion: it waits for LibreOffice whatever the line, instead of 503 (docs/office.md, "The pool"). */
  background?: boolean | undefined;
  /** Told when the conversion waits for a LibreOffice instance, and when it has one (the job's phases). */
  onQueued?: (() => void) | undefined;
  onConverting?: (() => void) | undefined;
  /** The stored document's name without `.pdf`: LibreOffice shows it where a document names itself (a CSV sheet's page header). */
  name?: string | undefined;
  /** The upload's Office options (query parameters), checked against the format found (docs/office.md#options). */
  officeOptions?: OfficeOptions | undefined;
}

type UploadSummary = { encrypted: boolean; pageCount?: number; repaired: boolean; info?: DocumentInfo };

export const PDF_TYPE = 'application/pdf';
const OCTET_STREAM = 'application/octet-stream';
const SNIFF_BYTES = 1024;

/**
 * Each Office format's media type (the first) and the other names clients send for it, and its extensions. A
 * declared type says which format the content must be; the content decides (engine/office/model.ts).
 */
const OFFICE_TYPES: Readonly<Record<OfficeFormat, { types: readonly string[]; extensions: readonly string[] }>> = {
  doc: { types: ['application/msword'], extensions: ['doc'] },
  docx: {
    types: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.template'],
    extensions: ['docx', 'dotx'],
  },
  docm: { types: ['application/vnd.ms-word.document.macroenabled.12'], extensions: ['docm'] },
  odt: { types: ['application/vnd.oasis.opendocument.text'], extensions: ['odt'] },
  fodt: { types: ['application/vnd.oasis.opendocument.text-flat-xml'], extensions: ['fodt'] },
  rtf: { types: ['application/rtf', 'text/rtf'], extensions: ['rtf'] },
  txt: { types: ['text/plain'], extensions: ['txt'] },
  xls: { types: ['application/vnd.ms-excel'], extensions: ['xls'] },
  xlsx: { types: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], extensions: ['xlsx'] },
  xlsm: { types: ['application/vnd.ms-excel.sheet.macroenabled.12'], extensions: ['xlsm'] },
  ods: { types: ['application/vnd.oasis.opendocument.spreadsheet'], extensions: ['ods'] },
  fods: { types: ['application/vnd.oasis.opendocument.spreadsheet-flat-xml'], extensions: ['fods'] },
  csv: { types: ['text/csv'], extensions: ['csv'] },
  ppt: { types: ['application/vnd.ms-powerpoint'], extensions: ['ppt'] },
  pptx: { types: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'], extensions: ['pptx'] },
  pptm: { types: ['application/vnd.ms-powerpoint.presentation.macroenabled.12'], extensions: ['pptm'] },
  odp: { types: ['application/vnd.oasis.opendocument.presentation'], extensions: ['odp'] },
  fodp: { types: ['application/vnd.oasis.opendocument.presentation-flat-xml'], extensions: ['fodp'] },
};

/** The Office format a media type declares; undefined for a sniffed container (the content alone decides). */
export function officeFormatOfType(mediaType: string): OfficeFormat | undefined {
  return OFFICE_FORMATS.find((format) => OFFICE_TYPES[format].types.includes(mediaType));
}

export const IMPORTERS: readonly Importer[] = [
  {
    name: 'image',
    mediaTypes: IMAGE_MEDIA_TYPES,
    extensions: ['jpg', 'jpeg', 'png', 'tif', 'tiff', 'gif'],
    long: false,
    sniff: (head) => sniffImageType(head),
    async convert(bytes, mediaType, { engine }) {
      const { bytes: pdf, ...info } = await engine.run('imageToPdf', { bytes, mediaType: mediaType as ImageMediaType }, { transfer: [bytes] });
      return { pdf, info };
    },
  },
  {
    name: 'office',
    // Extensions in OFFICE_TYPES's order, each standing for its format's first type (mediaTypeOfExtension).
    mediaTypes: OFFICE_FORMATS.flatMap((format) => OFFICE_TYPES[format].types),
    extensions: OFFICE_FORMATS.flatMap((format) => OFFICE_TYPES[format].extensions),
    long: true,
    // A container (OLE2, ZIP, RTF, XML); convert tells the format from the whole content.
    sniff: (head) => officeContainerOf(head),
    async convert(upload, mediaType, { engine, tools, officeOptions, ...run }) {
      // A package encrypted with Office's default password opens without asking, as in Office and LibreOffice: decrypted
      // first (in a worker: the key derivation takes a second), it is detected and converted as any other.
      const decrypted = officeContainerOf(upload) === OFFICE_CONTAINERS.ole2 ? (await engine.run('decryptOfficeDefault', { bytes: upload })).bytes : null;
      const bytes = decrypted ? Buffer.from(decrypted.buffer, decrypted.byteOffset, decrypted.byteLength) : upload;
      const format = officeFormatOf(bytes, officeFormatOfType(mediaType));
      // Text in any encoding it is accepted in reaches LibreOffice as UTF-8, the one its filter is told to read.
      const input = format === 'txt' || format === 'csv' ? officeTextAsUtf8(bytes)! : bytes;
      const pdf = await convertOffice(tools, { bytes: input, format, options: officeOptions ?? {}, ...run });
      return { pdf, info: await checkToolOutput(engine, { program: 'LibreOffice', pdf }, { encrypted: false }) };
    },
  },
];

/** Media types a document body may have: PDF, what an importer claims, and octet-stream (sniffed). */
export const UPLOAD_TYPES: readonly string[] = [PDF_TYPE, ...IMPORTERS.flatMap((importer) => importer.mediaTypes), OCTET_STREAM];

/** For 415 details: what the service accepts. */
export const UPLOAD_TYPES_TEXT = `${PDF_TYPE}, ${IMPORTERS.flatMap((importer) => importer.mediaTypes).join(', ')}`;

/** The media type a file name's extension stands for, when PDF or an importer claims it. */
export function mediaTypeOfExtension(extension: string): string | undefined {
  if (extension === 'pdf') return PDF_TYPE;
  const office = OFFICE_FORMATS.find((format) => OFFICE_TYPES[format].extensions.includes(extension));
  if (office) return OFFICE_TYPES[office].types[0];
  return IMPORTERS.find((importer) => importer.extensions.includes(extension))?.mediaTypes[0];
}

/**
 * How an upload becomes a PDF: `null` when it is (taken for) one, else the
 * importer and the media type it converts. A declared type picks the importer
 * that claims it; octet-stream is sniffed, and what no importer recognises is
 * taken for a PDF (and checked as one). Undefined for a type nobody accepts.
 */
export async function chooseImporter(mediaType: string, staged: StagedUpload): Promise<{ importer: Importer; mediaType: string } | null | undefined> {
  if (mediaType !== PDF_TYPE && mediaType !== OCTET_STREAM) {
    const importer = IMPORTERS.find((candidate) => candidate.mediaTypes.includes(mediaType));
    if (!importer) return undefined;
    checkDeclaredType(mediaType, await headOf(staged));
    return { importer, mediaType };
  }
  const head = await headOf(staged);
  if (mediaType === PDF_TYPE) {
    checkDeclaredType(mediaType, head);
    return null;
  }
  for (const importer of IMPORTERS) {
    const sniffed = importer.sniff(head);
    if (sniffed) return { importer, mediaType: sniffed };
  }
  return null;
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

/** The first bytes of a staged upload, without reading a large one into memory. */
async function headOf(staged: StagedUpload): Promise<Uint8Array> {
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
