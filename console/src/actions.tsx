/**
 * Actions on a document (docs/console.md#actions): the list of document and page actions, and each action's form, are
 * read at run time from the OpenAPI description the service serves (/pdfservice/v1/openapi.json): the JSON body of
 * POST /documents/{filePath}.pdf and of POST /documents/{filePath}.pdf/pages is an object with one key per action, and
 * that key's schema is the action's form (schemaform.tsx). An action the service adds later shows up here without a
 * change to the console. Every action is sent with `Prefer: respond-async` and followed as a job (jobs.tsx). The
 * preflight check's form is made the same way from the query parameters of GET .../preflight-results, and its answer
 * shown as a report (report.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { API, encodePath, type Problem } from './api.ts';
import { JobView, ProblemView, type Job } from './jobs.tsx';
import { asReport, ReportView, type Report } from './report.tsx';
import { actionsHref, viewHref } from './route.ts';
import { Fields, resolveRefs, toValue, type Draft, type JsonSchema } from './schemaform.tsx';

/** An action (a key of the body of the document or page action route), or the preflight check (a GET with query parameters). */
export interface ActionDef { name: string; target: 'document' | 'page' | 'check'; schema: JsonSchema }

const ROUTES = { document: '/pdfservice/v1/documents/{filePath}.pdf', page: '/pdfservice/v1/documents/{filePath}.pdf/pages' } as const;
const PREFLIGHT = '/pdfservice/v1/documents/{filePath}.pdf/preflight-results';
/** The check's name in the list and the address. */
export const PREFLIGHT_NAME = 'Preflight';

interface Operation { description?: string; requestBody?: { content?: Record<string, { schema?: JsonSchema }> }; parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }[] }

/** An operation's query parameters as one object schema, so the same form renders them. */
function querySchema(operation: Operation): JsonSchema {
  const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
  return {
    type: 'object',
    description: operation.description,
    properties: Object.fromEntries(query.map((parameter) => [parameter.name, { ...parameter.schema, description: parameter.description ?? parameter.schema?.description }])),
    required: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

let catalog: Promise<ActionDef[]> | undefined;

/** The actions of the service's OpenAPI description, asked for once per page load. */
export function loadActions(): Promise<ActionDef[]> {
  catalog ??= fetch(`${API}/openapi.json`, { headers: { Accept: 'application/json' } }).then(async (response) => {
    if (!response.ok) throw new Error(`The service's API description could not be read (${response.status})`);
    const description = await response.json() as { paths: Record<string, Record<string, Operation>> };
    const actions: ActionDef[] = [];
    for (const target of ['document', 'page'] as const) {
      const raw = description.paths[ROUTES[target]]?.['post']?.requestBody?.content?.['application/json']?.schema;
      const body = resolveRefs(raw, description) as JsonSchema | undefined;
      for (const [name, schema] of Object.entries(body?.properties ?? {})) actions.push({ name, target, schema });
    }
    const preflight = description.paths[PREFLIGHT]?.['get'];
    if (preflight) actions.push({ name: PREFLIGHT_NAME, target: 'check', schema: resolveRefs(querySchema(preflight), description) as JsonSchema });
    return actions;
  });
  catalog.catch(() => { catalog = undefined; });
  return catalog;
}

type Outcome = { job: Job } | { problem: Problem & Record<string, unknown> } | { done: string } | { report: Report };

/** POST the one-key body as a job; the service answers 202 with the job, or refuses at once with a problem document. */
async function submit(doc: string, action: ActionDef, body: unknown): Promise<Outcome> {
  const documentUrl = `${API}/documents/${encodePath(doc.replace(/\.pdf$/i, ''))}.pdf`;
  if (action.target === 'check') {
    const query = new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([name, value]) => [name, String(value)]));
    const response = await fetch(`${documentUrl}/preflight-results?${query.toString()}`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    const answer: unknown = await response.json().catch(() => undefined);
    const report = response.ok ? asReport(answer) : undefined;
    if (report) return { report };
    return { problem: answer && typeof answer === 'object' ? answer as Problem & Record<string, unknown> : { title: `The service answered ${response.status}` } };
  }
  const url = `${documentUrl}${action.target === 'page' ? '/pages' : ''}`;
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', Prefer: 'respond-async' },
    body: JSON.stringify({ [action.name]: body }),
  });
  let answer: unknown;
  try { answer = await response.json(); } catch { answer = undefined; }
  if (response.status === 202) return { job: answer as Job };
  if (response.ok) return { done: `Done (${response.status})` };
  const problem = answer && typeof answer === 'object' ? answer as Problem & Record<string, unknown> : { title: `The service answered ${response.status}` };
  return { problem };
}

function ActionForm({ doc, action }: { doc: string; action: ActionDef }) {
  const [draft, setDraft] = useState<{ [name: string]: Draft }>({});
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [busy, setBusy] = useState(false);

  const run = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(undefined);
    try {
      setOutcome(await submit(doc, action, toValue(action.schema, draft) ?? {}));
    } catch (err) {
      setOutcome({ problem: { title: 'The request failed', detail: String(err) } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="action" aria-labelledby="action-title">
      <h2 id="action-title">{action.name}</h2>
      {action.schema.description && <p class="help" id="action-help">{action.schema.description}</p>}
      <form class="schema-form" onSubmit={(event) => void run(event)} aria-describedby={action.schema.description ? 'action-help' : undefined}>
        <Fields schema={action.schema} path={action.name} draft={draft} onChange={(next) => setDraft(next as { [name: string]: Draft })} />
        <button type="submit" disabled={busy}>Run {action.name}</button>
        {busy && action.target === 'check' && <p role="status">Checking…</p>}
      </form>
      {outcome && 'problem' in outcome && <ProblemView problem={outcome.problem} />}
      {outcome && 'done' in outcome && <p role="status">{outcome.done}</p>}
      {outcome && 'report' in outcome && <ReportView report={outcome.report} />}
      {outcome && 'job' in outcome && <JobView key={outcome.job.id} id={outcome.job.id} initial={outcome.job} />}
    </section>
  );
}

/** The actions screen of one document: pick an action (its name in the address, so it can be bookmarked), fill its form, run it. */
export function Actions({ doc, action }: { doc: string; action: string }) {
  const [actions, setActions] = useState<ActionDef[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    loadActions().then(setActions, (err: unknown) => setError(String(err instanceof Error ? err.message : err)));
  }, []);
  const chosen = actions?.find((a) => a.name === action);
  return (
    <main class="actions">
      <nav aria-label="Back"><a href={viewHref(doc)}>← Back to {doc.split('/').at(-1)}</a></nav>
      <h1>Actions on {doc.split('/').at(-1)}</h1>
      {error && <p role="alert" class="error">{error}</p>}
      {actions === null ? (!error && <p aria-busy="true">Reading the service's actions…</p>) : (
        <div class="field">
          <label for="action-choice">Action</label>
          <select id="action-choice" value={chosen ? chosen.name : ''} onChange={(event) => { location.hash = actionsHref(doc, event.currentTarget.value); }}>
            <option value="">choose an action…</option>
            {(['document', 'page', 'check'] as const).map((target) => (
              <optgroup key={target} label={{ document: 'Document actions', page: 'Page actions', check: 'Checks' }[target]}>
                {actions.filter((a) => a.target === target).map((a) => <option key={a.name} value={a.name}>{a.name}</option>)}
              </optgroup>
            ))}
          </select>
        </div>
      )}
      {chosen && <ActionForm key={chosen.name} doc={doc} action={chosen} />}
      {actions && action && !chosen && <p role="alert">The service has no action named {action}.</p>}
    </main>
  );
}
