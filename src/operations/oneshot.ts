import { Readable } from 'node:stream';
import type { EnginePool } from '../engine/pool.js';
import { ServiceError } from '../errors.js';
import { heldContentStream } from '../open-file.js';
import type { StagedUpload } from '../storage/store.js';
import type { ToolSupervisor } from '../tools/supervisor.js';
import type { ActionRunner, PreparedStep } from './actions/runner.js';
import type { ActionFile } from './actions/types.js';
import type { OperationContext } from './context.js';
import type { OfficeOptions } from './conversions/office/formats.js';
import type { ImageOptions } from './conversions/image.js';
import { chooseConverter, converterNamed, UPLOAD_TYPES_TEXT } from './conversions/registry.js';
import type { StagedFile } from './conversions/types.js';
import { engineFor, requestExecution, throwIfStopped, type ExecutionContext } from './execution.js';
import type { JobResultFile } from './jobs/model.js';
import type { JobResultFiles } from './jobs/result-files.js';
import { SHARED_OPTIONS, type HtmlOptions } from './conversions/html/options.js';
import { checkUrlUpload, PRINTED_CONVERTERS } from './conversions/html/converter.js';
import type { WebPolicy } from './conversions/html/web.js';
import { ASSET_PART, imageOptionsFor, MAIN_PART, officeOptionsFor, type UploadPart } from './uploads.js';

/** Steps a one-shot takes at most (docs/api.md, "One-shot conversions"): enough for any sensible chain, and a bound on the work one request queues. */
export const MAX_STEPS = 20;

/**
 * A one-shot conversion whose every 4xx has been decided (OneShotOperations.prepare): the converter and its input,
 * the action steps prepared by the action runner, and the staged files it owns until it has run (held by the running
 * service only: its job cannot be resumed after a restart).
 */
export interface PreparedOneShot {
  /** The converter's name (conversions/registry.ts) and the media type it converts. */
  readonly converter: string;
  readonly mediaType: string;
  readonly main: StagedFile;
  /** A bundle's other files (parts named `asset`). */
  readonly assets: readonly StagedFile[];
  /** The actions' files (every other file part: an image to stamp, pages to insert), given to every step. */
  readonly files: ActionFile[];
  readonly steps: readonly PreparedStep[];
  readonly officeOptions?: OfficeOptions | undefined;
  /** An HTML or Markdown file's options: the query's options both take (pageRange, landscape, pdfa). */
  readonly htmlOptions?: HtmlOptions | undefined;
  /** An image's options: the query's tagged (docs/accessibility.md). */
  readonly imageOptions?: ImageOptions | undefined;
  readonly ctx: OperationContext;
  /** The result's file name: the main file's name with `.pdf`. */
  readonly name: string;
  /** The input's size in bytes, all files together (the size rule of long work, docs/jobs.md). */
  readonly bytes: number;
}

/** A one-shot's result, for the answer's body: send its stream once, or discard it. */
export interface OneShotOutput {
  name: string;
  mediaType: string;
  size: number;
  /** The content; staged content is removed when the stream closes (ended, or the client went away). */
  stream(): Promise<Readable>;
  discard(): Promise<void>;
}

/**
 * One-shot conversions (docs/api.md, "One-shot conversions"), Gotenberg's model: files in, the result out, nothing
 * stored. The input goes through the conversion registry (the converter its media type picks), then through each
 * step by the action runner's own prepare and execute (ActionRunner.prepareStep, executeStep), each step's output
 * being the next one's input. The files live in the store's staging area only while the request (or its job)
 * runs: every staged file, intermediate ones included, is discarded on success, failure and cancel.
 */
export class OneShotOperations {
  constructor(
    private readonly pool: EnginePool,
    private readonly tools: ToolSupervisor,
    private readonly actions: ActionRunner,
    /** Where a one-shot run as a job keeps its result (jobs/result-files.ts). */
    readonly resultFiles: JobResultFiles,
    /** What web pages by URL may fetch; absent: they are off (403). */
    private readonly web?: WebPolicy,
  ) {}

  /**
   * Decides every 4xx before any work: the parts (400 MALFORMED_MULTIPART), the steps (400 INVALID_ACTION and the
   * actions' own 4xx), the media type (415, or 422 for content that is another format than declared). The prepared
   * one-shot owns the staged parts from here; on failure they are discarded here.
   */
  async prepare(parts: readonly UploadPart[], steps: unknown, ctx: OperationContext, officeOptions?: OfficeOptions): Promise<PreparedOneShot> {
    try {
      const file = parts.find((part) => part.field === MAIN_PART);
      if (!file) throw new ServiceError('MALFORMED_MULTIPART', 'The file to convert must be sent in a part named "file"');
      if (file.content.size === 0) throw new ServiceError('MALFORMED_PDF', 'The file is empty');
      const assets = parts.filter((part) => part.field === ASSET_PART).map(({ fileName, mediaType, content }) => ({ fileName, mediaType, content }));
      const files = parts.filter((part) => part !== file && part.field !== ASSET_PART);
      if (!Array.isArray(steps)) throw new ServiceError('INVALID_ACTION', 'The steps must be a JSON array of actions, each an object with one key naming the action (as POST /documents/{filePath}.pdf takes it)');
      if (steps.length > MAX_STEPS) throw new ServiceError('INVALID_ACTION', `At most ${MAX_STEPS} steps are taken; this request has ${steps.length}`);
      const prepared: PreparedStep[] = [];
      for (const [index, step] of steps.entries()) {
        try {
          prepared.push(await this.actions.prepareStep(step, files, ctx));
        } catch (err) {
          // Which step was refused, in the problem's detail (the code and extension members stay the action's).
          if (err instanceof ServiceError) throw new ServiceError(err.code, `Step ${index + 1}: ${err.detail ?? err.message}`, err.extra, err.headers, err.origin);
          throw err;
        }
      }
      // Browsers on Windows declare .csv files as application/vnd.ms-excel (Excel's registered type): the name says CSV (as uploads).
      const declared = file.mediaType === 'application/vnd.ms-excel' && /\.csv$/i.test(file.fileName ?? '') ? 'text/csv' : file.mediaType;
      const chosen = await chooseConverter(declared, file.content, assets.length);
      if (chosen === undefined) throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `Cannot convert ${declared}: send ${UPLOAD_TYPES_TEXT}`);
      const asked = officeOptionsFor(chosen, officeOptions);
      const html = PRINTED_CONVERTERS.includes(chosen.converter.name) ? sharedOptionsOf(officeOptions) : undefined;
      if (chosen.converter.name === 'url') await checkUrlUpload(file, this.web);
      const image = imageOptionsFor(chosen, officeOptions, undefined);
      const base = (file.fileName ?? 'document').replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'document';
      return {
        converter: chosen.converter.name,
        mediaType: chosen.mediaType,
        main: { fileName: file.fileName, mediaType: chosen.mediaType, content: file.content },
        assets,
        files,
        steps: prepared,
        ...(asked ? { officeOptions: asked } : {}),
        ...(html ? { htmlOptions: html } : {}),
        ...(image ? { imageOptions: image } : {}),
        ctx,
        name: `${base}.pdf`,
        bytes: parts.reduce((sum, part) => sum + part.content.size, 0),
      };
    } catch (err) {
      await Promise.all(parts.map((part) => part.content.discard()));
      throw err;
    }
  }

  /**
   * Converts, then runs each step on the previous one's output, under `exec` (a job's, or the request's: a client
   * that goes away stops the work). Every staged file but the result is discarded before this returns; the result's
   * own goes when its stream closes (or discard()). On failure or stop, everything is discarded.
   */
  async execute(prepared: PreparedOneShot, exec?: ExecutionContext): Promise<OneShotOutput> {
    return outputOf(prepared.name, converterNamed(prepared.converter).produces, await this.run(prepared, exec ?? requestExecution()));
  }

  /** A job's run: the result kept as the job's result file (jobs/result-files.ts), then removed from staging. */
  async executeToFile(prepared: PreparedOneShot, jobId: string, exec: ExecutionContext): Promise<JobResultFile> {
    const content = await this.run(prepared, exec);
    try {
      return await this.resultFiles.put(jobId, content, { name: prepared.name, mediaType: converterNamed(prepared.converter).produces });
    } finally {
      if (!(content instanceof Uint8Array)) await content.discard();
    }
  }

  /** The work of execute: the result's content, which the caller owns; everything else staged is discarded, whatever happens. */
  private async run(prepared: PreparedOneShot, execution: ExecutionContext): Promise<StagedUpload | Uint8Array> {
    const engine = engineFor(this.pool, execution);
    // The inputs staged for this one-shot (executeSteps discards the steps' own staged outputs but the result).
    const staged = new Set<StagedUpload>([prepared.main.content, ...prepared.assets.map((a) => a.content), ...prepared.files.map((f) => f.content)]);
    let result: StagedUpload | Uint8Array | undefined;
    try {
      throwIfStopped(execution);
      const converted = await converterNamed(prepared.converter).convert({ main: prepared.main, mediaType: prepared.mediaType, assets: prepared.assets }, {
        engine,
        tools: this.tools,
        signal: execution.signal,
        background: execution.background,
        officeOptions: prepared.officeOptions,
        htmlOptions: prepared.htmlOptions,
        web: this.web,
        imageOptions: prepared.imageOptions,
        name: prepared.name.replace(/\.pdf$/, ''),
      });
      const { content } = await this.actions.executeSteps(prepared.steps, { files: prepared.files, first: converted.content, ctx: prepared.ctx, engine, exec: execution });
      result = content ?? converted.content;
      return result;
    } finally {
      await Promise.all([...staged].filter((content) => content !== result).map((content) => content.discard().catch(() => undefined)));
    }
  }

  /** A job's result file held open, for the answer to a request that waited for its job (Prefer: wait). */
  async resultOf(jobId: string, file: JobResultFile): Promise<OneShotOutput> {
    const content = await this.resultFiles.open(jobId);
    if (!content) throw new ServiceError('JOB_NOT_FOUND', `The result of job ${jobId} is no longer kept`);
    return {
      name: file.name,
      mediaType: file.mediaType,
      size: content.size,
      // The result file's own download stream, which closes it once over.
      stream: () => Promise.resolve(content.stream()),
      discard: () => content.close(),
    };
  }
}

function outputOf(name: string, mediaType: string, content: StagedUpload | Uint8Array): OneShotOutput {
  if (content instanceof Uint8Array) {
    return { name, mediaType, size: content.length, stream: () => Promise.resolve(Readable.from([Buffer.from(content.buffer, content.byteOffset, content.byteLength)])), discard: () => Promise.resolve() };
  }
  return {
    name,
    mediaType,
    size: content.size,
    stream: async () => {
      const open = await content.open();
      return heldContentStream(open, undefined, async () => {
        await open.close();
        await content.discard();
      });
    },
    discard: () => content.discard(),
  };
}

/** The query's options an HTML or Markdown file takes in a one-shot (its HTML-only options are not in /convert's query). */
function sharedOptionsOf(officeOptions: OfficeOptions | undefined): HtmlOptions | undefined {
  const options = Object.fromEntries(SHARED_OPTIONS.filter((key) => officeOptions?.[key] !== undefined).map((key) => [key, officeOptions?.[key]]));
  return Object.keys(options).length > 0 ? (options as HtmlOptions) : undefined;
}
