import type { DocumentInfo } from '../../engine/models.js';
import type { StagedUpload } from '../../storage/store.js';
import type { ToolSupervisor } from '../../tools/supervisor.js';
import type { Engine } from '../execution.js';
import type { HtmlOptions } from './html/options.js';
import type { WebPolicy } from './html/web.js';
import type { OfficeOptions } from './office/formats.js';

/**
 * A conversion (docs/architecture.md, "Conversions"): one registry of converters, each one module, in both
 * directions: an upload into a stored PDF (PDF as is, images, Office), and later a document out to another
 * file (DOCX, Markdown) or a web page into a PDF. A converter declares what it takes, what it produces, whether
 * it is long work, how it recognises its input, and converts staged files, which it reads from disk itself.
 */
export interface Converter {
  name: string;
  takes: ConverterInput;
  /** The media type it produces: application/pdf for the converters that store a document, else the file a client downloads. */
  produces: string;
  /** Long by nature (an Office conversion takes seconds): its upload runs as a background job unless the client asks to wait (docs/jobs.md). */
  long: boolean;
  /**
   * The media type `head` (the first SNIFF_BYTES bytes of the main file) looks like to this converter, or undefined. Asked in
   * the registry's order for an upload declared application/octet-stream.
   */
  sniff(head: Uint8Array): string | undefined;
  /** The conversion; `input.mediaType` is the declared type, or the sniffed one. Checks the whole content itself (its 422s). */
  convert(input: ConversionInput, deps: ConvertDeps): Promise<ConversionOutput>;
}

/** What a converter takes. */
export interface ConverterInput {
  /**
   * `file`: one file; `bundle`: a main file with the files it refers to (an HTML page and its images and style
   * sheets), which a multipart upload sends as several file parts, or the main file alone. A web page by URL is a
   * `file`: a URI list (text/uri-list) naming it.
   */
  kind: 'file' | 'bundle';
  /** The main file's media types. */
  mediaTypes: readonly string[];
  /** The file name extensions it claims, each with the media type it stands for (a form file sent as octet-stream is named by it). */
  extensions: Readonly<Record<string, string>>;
}

/** One staged file of a conversion's input. */
export interface StagedFile {
  /** The name the client gave (a multipart part's filename), when it gave one: a bundle's main file refers to the others by it. */
  fileName?: string | undefined;
  mediaType: string;
  content: StagedUpload;
}

export interface ConversionInput {
  /** The main file; read it from disk (content.open() for its descriptor), never all at once when the engine can read the file. */
  main: StagedFile;
  /** The media type converted from: the main file's declared type, or the sniffed one for octet-stream. */
  mediaType: string;
  /** A bundle's other files (empty for a single file). */
  assets: readonly StagedFile[];
}

export interface ConvertDeps {
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
  /** An HTML upload's options (query parameters, docs/html.md#options). */
  htmlOptions?: HtmlOptions | undefined;
  /** What web pages by URL may fetch (the operator's allow-list; docs/html.md, "Web pages by URL"); absent: they are off. */
  web?: WebPolicy | undefined;
}

/** What the engine's check of a PDF found: its summary, and its DocumentInfo when it opened without a password. */
export type PdfSummary = { encrypted: boolean; pageCount?: number; repaired: boolean; info?: DocumentInfo };

/**
 * A conversion's result: the content (the staged main file itself when it is stored as it is, else new bytes),
 * its media type (the converter's `produces`), and for a PDF the engine's check of it.
 */
export interface ConversionOutput {
  content: StagedUpload | Uint8Array;
  mediaType: string;
  summary?: PdfSummary | undefined;
}
