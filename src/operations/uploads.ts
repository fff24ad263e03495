import type { Readable } from 'node:stream';
import { ServiceError } from '../errors.js';
import { pdfNameFor, type StoredPath } from '../storage/paths.js';
import { conflictModeFor, matchesEtag, type ConflictMode, type StagedUpload } from '../storage/store.js';
import type { ToolSupervisor } from '../tools/supervisor.js';
import type { OperationContext } from './context.js';
import { officeFormatOfType } from './conversions/office/converter.js';
import { checkOfficeOptionsApply } from './conversions/office/convert.js';
import { htmlOnlyOptions, SHARED_OPTIONS, type HtmlOptions } from './conversions/html/options.js';
import { checkUrlUpload, PRINTED_CONVERTERS, PRINTED_WHAT } from './conversions/html/converter.js';
import type { WebPolicy } from './conversions/html/web.js';
import type { OfficeOptions } from './conversions/office/formats.js';
import { chooseConverter, converterNamed, PDF_TYPE, UPLOAD_TYPES_TEXT } from './conversions/registry.js';
import type { StagedFile } from './conversions/types.js';
import type { DocumentOperations } from './documents.js';
import { requestExecution, type ExecutionContext } from './execution.js';
import { documentModel, type DocumentModel } from './models.js';

/**
 * An upload whose every 4xx has been decided (prepareUpload): where it goes,
 * what converts it, and its staged content (held by the running service only:
 * a job that stores it cannot be resumed after a restart).
 */
export interface PreparedUpload {
  readonly target: StoredPath;
  /** The type converted from: the declared one, or the sniffed one for octet-stream; application/pdf for a PDF. */
  readonly mediaType: string;
  /** The converter's name (conversions/registry.ts); `pdf` checks a PDF and stores it as it is. */
  readonly converter: string;
  /** Whether it is converted (anything but a PDF, which is only checked): the size rule of long work counts conversions only (docs/jobs.md). */
  readonly converts: boolean;
  /** Whether the conversion is long by nature (Office documents): run as a job unless the client asks to wait. */
  readonly long: boolean;
  /** An Office upload's options (query parameters; docs/office.md#options). */
  readonly officeOptions?: OfficeOptions | undefined;
  /** An HTML upload's options (query parameters; docs/html.md#options). */
  readonly htmlOptions?: HtmlOptions | undefined;
  readonly conflict: ConflictMode;
  readonly ctx: OperationContext;
  /** The main file. */
  readonly staged: StagedUpload;
  /** A bundle's other files (multipart parts named `asset`); empty for one file. */
  readonly assets: readonly StagedFile[];
}

export interface StoreResult {
  model: DocumentModel;
  /** Where it was written (namingMode 2 may have changed the name). */
  path: StoredPath;
  created: boolean;
}

/** A file part of a multipart upload, staged (http/multipart.ts). */
export interface UploadPart {
  field: string;
  fileName: string | undefined;
  mediaType: string;
  content: StagedUpload;
}

/** The phases an upload reports as progress: converting (or checking), then storing. */
const UPLOAD_PHASES = 2;

/** The multipart part of an upload's main file, and of each other file of a bundle (docs/api.md, "Bundles"). */
export const MAIN_PART = 'file';
export const ASSET_PART = 'asset';

/**
 * Uploads: a body or a form's files become a stored PDF through the conversion registry, written by the one
 * lifecycle (DocumentOperations.transform). Every 4xx is decided first (prepare), then the work (execute), so an
 * upload runs inline or as a job without being written twice.
 */
export class UploadOperations {
  constructor(
    private readonly documents: DocumentOperations,
    private readonly tools: ToolSupervisor,
    /** What web pages by URL may fetch; absent: they are off (403). */
    private readonly web?: WebPolicy,
  ) {}

  /**
   * Decides what an upload's store answers before any engine work: 415 for a
   * type no converter takes (or a bundle no converter takes), 422 for content whose first bytes show another
   * format than the declared one (chooseConverter), 409 for a name taken under namingMode 0, 412 for
   * an If-Match the existing document does not match. The prepared upload
   * owns `staged` and `assets` from here (executeUpload or a job discards them); on failure
   * they are discarded here.
   */
  async prepareUpload(target: StoredPath, staged: StagedUpload, mediaType: string, conflict: ConflictMode, ctx: OperationContext, officeOptions?: OfficeOptions, assets: readonly StagedFile[] = [], htmlOptions?: HtmlOptions): Promise<PreparedUpload> {
    try {
      const chosen = await chooseConverter(mediaType, staged, assets.length);
      if (chosen === undefined) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `Cannot store ${mediaType}: send ${UPLOAD_TYPES_TEXT}`);
      const asked = officeOptionsFor(chosen, officeOptions);
      const html = htmlOptionsFor(chosen, htmlOptions);
      // A web page by URL: off, a URL that is none, or an origin not allowed is answered now, before any fetch or 202.
      if (chosen.converter.name === 'url') await checkUrlUpload({ mediaType: chosen.mediaType, content: staged }, this.web);
      if (conflict === 'fail' && (await this.documents.exists(target, ctx))) throw new ServiceError('ALREADY_EXISTS', `A document exists at ${target.toString()}`);
      if (ctx.ifMatch !== undefined) {
        const existing = await this.documents.find(target, ctx);
        if (!existing || !matchesEtag(ctx.ifMatch, existing.etag)) throw new ServiceError('PRECONDITION_FAILED');
      }
      return {
        target,
        mediaType: chosen.mediaType,
        converter: chosen.converter.name,
        converts: chosen.converter.name !== 'pdf',
        long: chosen.converter.long,
        ...(asked ? { officeOptions: asked } : {}),
        ...(html ? { htmlOptions: html } : {}),
        conflict,
        ctx,
        staged,
        assets,
      };
    } catch (err) {
      await discardAll(staged, assets);
      throw err;
    }
  }

  /**
   * Stores a prepared upload as a PDF at its target: its converter (a PDF's checks that it opens) reads the
   * staged files, reporting its phases as progress. Nothing is written when the check or conversion
   * fails or `exec` is stopped. The staged files are discarded either way.
   */
  async executeUpload(prepared: PreparedUpload, exec?: ExecutionContext, lock: 'work' | 'write' = 'work'): Promise<StoreResult> {
    const { staged, assets } = prepared;
    try {
      const converter = converterNamed(prepared.converter);
      const phase = (done: number, stage: string) => exec?.progress?.({ done, total: UPLOAD_PHASES, unit: 'steps', stage });
      const { result: checked, written } = await this.documents.transform({
        operation: 'upload',
        target: prepared.target,
        conflict: prepared.conflict,
        ctx: prepared.ctx,
        exec,
        lock,
        work: async (_none, engine) => {
          phase(0, prepared.converts ? 'converting' : 'checking');
          const output = await converter.convert({ main: { mediaType: prepared.mediaType, content: staged }, mediaType: prepared.mediaType, assets }, {
            engine,
            tools: this.tools,
            signal: (exec ?? requestExecution()).signal,
            background: exec?.background,
            onQueued: () => phase(0, 'queued'),
            onConverting: () => phase(0, 'converting'),
            officeOptions: prepared.officeOptions,
            htmlOptions: prepared.htmlOptions,
            web: this.web,
            name: prepared.target.name.replace(/\.pdf$/i, ''),
          });
          phase(1, 'storing');
          return { content: output.content, pageCount: output.summary?.pageCount, result: output.summary };
        },
      });
      const summary = this.documents.reads.noteWritten(written!.stat.etag, checked);
      return { model: documentModel(written!.path, written!.stat, summary), created: written!.created, path: written!.path };
    } finally {
      await discardAll(staged, assets);
    }
  }

  /**
   * A form upload into a folder (POST /documents/{folder}; the route checks
   * the folder before it reads the body): the part named `file`, stored under
   * its own file name (an image becomes "<name>.pdf"); namingMode decides a
   * clash. Parts named `asset` make it a bundle (the converter that takes the
   * main file's type with its assets converts it). Every 4xx is decided here, before the content is checked or
   * converted (executeUpload). The other parts are discarded.
   */
  async prepareFormUpload(folder: StoredPath, parts: readonly UploadPart[], namingMode: 0 | 1 | 2 | undefined, ctx: OperationContext, officeOptions?: OfficeOptions, htmlOptions?: HtmlOptions): Promise<PreparedUpload> {
    const file = parts.find((f) => f.field === MAIN_PART);
    const assets = file ? parts.filter((f) => f.field === ASSET_PART) : [];
    await Promise.all(parts.filter((f) => f !== file && !assets.includes(f)).map((f) => f.content.discard()));
    if (!file) throw new ServiceError('MALFORMED_MULTIPART', 'The file must be sent in a part named "file"');
    try {
      if (!file.fileName) throw new ServiceError('MALFORMED_MULTIPART', 'The "file" part needs a file name (Content-Disposition filename)');
      if (file.content.size === 0) throw new ServiceError('MALFORMED_PDF', 'The file is empty');
    } catch (err) {
      await discardAll(file.content, assets);
      throw err;
    }
    // Browsers on Windows declare .csv files as application/vnd.ms-excel (Excel's registered type): the name says CSV.
    const mediaType = file.mediaType === 'application/vnd.ms-excel' && /\.csv$/i.test(file.fileName) ? 'text/csv' : file.mediaType;
    const bundle = assets.map(({ fileName, mediaType, content }) => ({ fileName, mediaType, content }));
    return this.prepareUpload(folder.child(pdfNameFor(file.fileName)), file.content, mediaType, conflictModeFor(namingMode), withoutIfMatch(ctx), officeOptions, bundle, htmlOptions);
  }

  /** PUT of a document body (replaces or creates, 201 / 200): staged up to `limit` bytes, then prepared (prepareUpload). */
  async preparePut(target: StoredPath, body: Readable, mediaType: string, limit: number, ctx: OperationContext, officeOptions?: OfficeOptions, htmlOptions?: HtmlOptions): Promise<PreparedUpload> {
    const staged = await this.documents.stage(body, limit, ctx);
    if (staged.size === 0) {
      await staged.discard();
      throw new ServiceError('MALFORMED_PDF', 'The body is empty');
    }
    return this.prepareUpload(target, staged, mediaType, 'overwrite', ctx, officeOptions, [], htmlOptions);
  }
}

/**
 * The Office options asked for (none: undefined), checked against the converter chosen: 400 BAD_REQUEST when the file
 * is not an Office one, and the options' own checks against a declared format (one-shot conversions share it).
 */
export function officeOptionsFor(chosen: { converter: { name: string }; mediaType: string }, officeOptions: OfficeOptions | undefined): OfficeOptions | undefined {
  const asked = officeOptions && Object.values(officeOptions).some((value) => value !== undefined) ? officeOptions : undefined;
  if (!asked) return undefined;
  if (PRINTED_CONVERTERS.includes(chosen.converter.name)) {
    // pageRange, landscape and pdfa are HTML options too (htmlOptionsFor); the others are Office's alone.
    const officeOnly = Object.entries(asked).filter(([key, value]) => value !== undefined && !(SHARED_OPTIONS as readonly string[]).includes(key)).map(([key]) => key);
    if (officeOnly.length > 0) throw new ServiceError('BAD_REQUEST', `The options ${officeOnly.join(', ')} apply to Office uploads only; this upload is ${PRINTED_WHAT[chosen.converter.name] ?? chosen.converter.name}`);
    return undefined;
  }
  if (chosen.converter.name !== 'office') throw new ServiceError('BAD_REQUEST', `The options ${Object.keys(asked).join(', ')} apply to Office uploads only; this upload is ${chosen.mediaType === PDF_TYPE ? 'a PDF' : chosen.mediaType}`);
  // A declared type (or name) says the format now; a sniffed container is checked once the content says it.
  const declared = officeFormatOfType(chosen.mediaType);
  if (declared) checkOfficeOptionsApply(declared, asked);
  return asked;
}

async function discardAll(main: StagedUpload, assets: readonly StagedFile[]): Promise<void> {
  await Promise.all([main.discard(), ...assets.map((asset) => asset.content.discard())]);
}

/** A form upload names a new document: the request's If-Match (for the folder URL) does not apply to it. */
function withoutIfMatch(ctx: OperationContext): OperationContext {
  const { ifMatch: _ifMatch, ...rest } = ctx;
  return rest;
}

/** The HTML options asked for, for an HTML upload; 400 BAD_REQUEST for options only HTML takes sent with another upload. */
export function htmlOptionsFor(chosen: { converter: { name: string }; mediaType: string }, htmlOptions: HtmlOptions | undefined): HtmlOptions | undefined {
  // Markdown is printed as an HTML page is, with the same options.
  if (PRINTED_CONVERTERS.includes(chosen.converter.name)) return htmlOptions;
  const htmlOnly = htmlOnlyOptions(htmlOptions);
  if (htmlOnly.length > 0) throw new ServiceError('BAD_REQUEST', `The options ${htmlOnly.join(', ')} apply to HTML uploads only; this upload is ${chosen.mediaType === PDF_TYPE ? 'a PDF' : chosen.mediaType}`);
  return undefined;
}
