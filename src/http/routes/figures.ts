import type { FigureChange, FigureModel } from '../../engine/models.js';
import { ServiceError } from '../../errors.js';
import type { Api, AppDeps } from '../context.js';
import { documentUrl } from '../document-urls.js';
import { RenderedCache, sendVersionedModel } from '../rendered-cache.js';
import { sendModel } from '../reply.js';
import type { XmlShape } from '../xml.js';
import { documentPathParam, operationContext } from '../request-context.js';
import { documentPasswordHeader, errorResponses, filePathParams, notModifiedResponse } from '../schemas/common.js';
import { FIGURE_XML, FIGURES_XML, figurePatchSchema, figureSchema, figuresPatchSchema, figuresSchema } from '../schemas/figures.js';
import type { StoredPath } from '../../storage/paths.js';
import { requireJsonBody } from './metadata.js';

const headers = { type: 'object', properties: documentPasswordHeader } as const;
const tags = ['figures'];
const JSON_BODIES = ['application/merge-patch+json', 'application/json'];
const UNTAGGED = 'The document has no structure tree, so no figures: POST {"PDFUAConvertAction": {}} to it to tag it (docs/accessibility.md)';

const figureParams = {
  type: 'object',
  properties: {
    ...filePathParams.properties,
    // A string, so that anything that is not an index is 404 FIGURE_NOT_FOUND (the URL names no figure), not a schema error.
    index: { type: 'string', description: 'The figure\'s index in the list; one that names no figure (past the last, not a number) is 404 FIGURE_NOT_FOUND' },
  },
  required: ['filePath', 'index'],
} as const;

const writeDescription =
  'An ordinary write: If-Match (412), a new version, the document\'s lock; a signed document gets the change appended. Needs "change the document" ' +
  'with the user password. 409 DOCUMENT_NOT_TAGGED for a document without a structure tree (PDFUAConvertAction tags it). Nothing is written when ' +
  'nothing changes.';

/** The figure with the URL of its page's image (this path's; a kept version's when one is read). */
function withThumbnail(path: StoredPath, versionId: string | undefined, figure: FigureModel): FigureModel & { thumbnail?: string } {
  if (figure.pageIndex === undefined) return figure;
  const url = documentUrl(path, 'pages', String(figure.pageIndex), 'image');
  return { ...figure, thumbnail: versionId === undefined ? url : `${url}?versionId=${encodeURIComponent(versionId)}` };
}

/** `index` of the URL: digits only; anything else names no figure. */
function indexParam(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new ServiceError('FIGURE_NOT_FOUND', `${JSON.stringify(raw)} is not a figure: index is a 0-based figure number`, undefined, undefined, { inPath: true });
  return Number(raw);
}

/** The figure resource: the Figure elements of a tagged document and their alternate text (docs/accessibility.md). */
export function registerFigureRoutes(api: Api, deps: AppDeps): void {
  const { figures } = deps.operations;
  const rendered = new RenderedCache(16 * 1024 * 1024);

  api.get('/documents/:filePath.pdf/figures', {
    config: { model: true },
    schema: {
      summary: 'List the figures and their alternate text',
      description:
        'Every Figure structure element (its type once the role map is applied), in the structure tree\'s depth-first order: index, pageIndex, bbox ' +
        '(PDF user space), alt, actualText, hasAlt and the URL of its page\'s image. An untagged document answers tagged: false and no figures. ' +
        'A broken structure tree (cycles, shared elements, missing parents, role maps that loop) is walked once per element. ' +
        'ETag and If-None-Match (304) by document version; ?versionId= reads a kept version.',
      tags,
      params: filePathParams,
      headers,
      response: { 200: figuresSchema, ...notModifiedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const path = documentPathParam(request);
    const ctx = operationContext(request);
    const { model, etag } = await figures.list(path, ctx);
    // The thumbnails name this path (and version): a body is this path's.
    const base = documentUrl(path);
    return sendVersionedModel(request, reply, rendered, FIGURES_XML, { etag, variant: `figures|${base}|${ctx.versionId ?? ''}` }, () => ({
      tagged: model.tagged,
      figures: model.figures.map((f) => withThumbnail(path, ctx.versionId, f)),
      ...(model.tagged ? {} : { detail: UNTAGGED }),
    }));
  });

  /**
   * The two writes, one implementation: PATCH .../figures (several, by their index in the body) and
   * PATCH .../figures/{index} (one, by its index in the URL: FIGURE_NOT_FOUND is then 404). Both are a figures.change.
   */
  const patchRoute = <Body>(url: string, summary: string, description: string, params: object, body: object, response: object,
    answer: (params: { filePath: string; index?: string }, body: Body) => { changes: FigureChange[]; inPath: boolean; shape: XmlShape; model: (figures: FigureModel[]) => unknown }) =>
    api.patch(url, {
      config: { model: true },
      schema: {
        summary,
        description: `${description} ${writeDescription}`,
        tags,
        params,
        headers,
        consumes: JSON_BODIES,
        bodyContent: { 'application/merge-patch+json': { schema: body }, 'application/json': { schema: body } },
        body,
        response: { 200: response, ...errorResponses },
      },
    }, async (request, reply) => {
      requireJsonBody(request, JSON_BODIES);
      const params = request.params as { filePath: string; index?: string };
      const { changes, inPath, shape, model } = answer(params, request.body as Body);
      const path = documentPathParam({ params });
      const result = await figures.change(path, operationContext(request), changes, inPath);
      reply.header('ETag', result.etag);
      return sendModel(request, reply, shape, model(result.figures.map((f) => withThumbnail(path, undefined, f))));
    });

  patchRoute<{ figures: FigureChange[] }>(
    '/documents/:filePath.pdf/figures',
    'Set or remove the alternate text of several figures',
    '{"figures": [{"index", "alt"?, "actualText"?}, ...]}: each as in PATCH .../figures/{index}, all checked first (400 FIGURE_NOT_FOUND for an index past the last figure, 400 for one named twice) and written in one version. Answers the changed figures.',
    filePathParams, figuresPatchSchema, figuresSchema,
    (_params, body) => {
      const seen = new Set<number>();
      for (const c of body.figures) {
        if (seen.has(c.index)) throw new ServiceError('VALIDATION_FAILED', `body/figures: figure ${c.index} is named twice`);
        seen.add(c.index);
      }
      return { changes: body.figures, inPath: false, shape: FIGURES_XML, model: (changed) => ({ tagged: true, figures: changed }) };
    },
  );

  patchRoute<Omit<FigureChange, 'index'>>(
    '/documents/:filePath.pdf/figures/:index',
    'Set or remove a figure\'s alternate text',
    'A JSON merge patch: alt (/Alt) and actualText (/ActualText), each a text that replaces it or null that removes it. 404 FIGURE_NOT_FOUND for an index that names no figure. Answers the figure.',
    figureParams, figurePatchSchema, figureSchema,
    (params, body) => ({ changes: [{ ...body, index: indexParam(params.index!) }], inPath: true, shape: FIGURE_XML, model: (changed) => changed[0]! }),
  );
}
