import { read as readFd } from 'node:fs';
import { promisify } from 'node:util';
import { IMAGE_MEDIA_TYPES, type ImageMediaType, sniffImageType, wordContainerOf, type WordFormat, wordFormatOf } from '../engine/models.js';
import type { ToolSupervisor } from '../tools/supervisor.js';
import { convertOffice } from './office.js';
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
}

type UploadSummary = { encrypted: boolean; pageCount?: number; repaired: boolean };

export const PDF_TYPE = 'application/pdf';
const OCTET_STREAM = 'application/octet-stream';
const SNIFF_BYTES = 1024;

const WORD_TYPES: Record<WordFormat, string> = { doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' };

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
    name: 'word',
    mediaTypes: [WORD_TYPES.doc, WORD_TYPES.docx],
    extensions: ['doc', 'docx'],
    long: true,
    // Any OLE2 compound file or ZIP package; convert tells a Word one from the others by its structure.
    sniff: (head) => {
      const container = wordContainerOf(head);
      return container && WORD_TYPES[container];
    },
    async convert(bytes, _mediaType, { engine, tools, ...run }) {
      const format = wordFormatOf(bytes);
      const pdf = await convertOffice(tools, { bytes, format, ...run });
      return { pdf, info: await engine.run('validateUpload', { pdf }) };
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
  return IMPORTERS.find((importer) => importer.extensions.includes(extension))?.mediaTypes[0];
}

/**
 * How an upload becomes a PDF: `null` when it is (taken for) one, else the
 * importer and the media type it converts. A declared type picks the importer
 * that claims it; octet-stream is sniffed, and what no importer recognises is
 * taken for a PDF (and checked as one). Undefined for a type nobody accepts.
 */
export async function chooseImporter(mediaType: string, staged: StagedUpload): Promise<{ importer: Importer; mediaType: string } | null | undefined> {
  if (mediaType === PDF_TYPE) return null;
  if (mediaType !== OCTET_STREAM) {
    const importer = IMPORTERS.find((candidate) => candidate.mediaTypes.includes(mediaType));
    return importer ? { importer, mediaType } : undefined;
  }
  const head = await headOf(staged);
  for (const importer of IMPORTERS) {
    const sniffed = importer.sniff(head);
    if (sniffed) return { importer, mediaType: sniffed };
  }
  return null;
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
