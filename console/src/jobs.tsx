/**
 * Jobs (docs/jobs.md) in the console: one job followed live over Server-Sent Events (GET /jobs/{id}/events) with a
 * progress bar, its step and a cancel button, then its result linked or its problem shown; and the user's recent jobs.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, problemText, type Schemas } from './api.ts';
import { formatTime } from './format.ts';
import { asReport, ReportView } from './report.tsx';
import { jobHref, viewHref } from './route.ts';

export type Job = Schemas['Job'];
type JobProblem = NonNullable<Job['error']>;

const RUNNING = new Set<Job['state']>(['queued', 'running']);

/** A problem document for a person: title, detail, the code and status, and where the work stood when it failed. */
export function ProblemView({ problem, step }: { problem: Partial<JobProblem> & Record<string, unknown>; step?: string }) {
  const errors = Array.isArray(problem['errors']) ? (problem['errors'] as unknown[]) : [];
  return (
    <div class="problem" role="alert">
      <p class="problem-title"><strong>{problem.title ?? 'The service refused the request'}</strong>
        {problem.code && <span class="tag"> ({problem.code}{problem.status ? `, ${problem.status}` : ''})</span>}</p>
      {problem.detail && <p data-testid="problem-detail">{problem.detail}</p>}
      {step && <p>While: {step}</p>}
      {errors.length > 0 && (
        <ul>{errors.map((error, i) => <li key={i}>{typeof error === 'string' ? error : JSON.stringify(error)}</li>)}</ul>
      )}
    </div>
  );
}

/** "OCRAction, step 2 of 3", "ocr", or nothing: where the job is. */
function stepText(job: Job): string {
  const { step, phase } = job.progress;
  const parts = [];
  if (step) parts.push(`step ${step.index} of ${step.count}: ${step.action}`);
  if (phase) parts.push(phase);
  return parts.join(', ');
}

function progressText(job: Job): string {
  const { done, total, unit, percent } = job.progress;
  // An action whose work is one step reports no total: its percent alone says where it is.
  if (total === undefined) return done ? `${done} ${unit} (${Math.round(percent)}%)` : `${Math.round(percent)}%`;
  return `${done} of ${total} ${unit} (${Math.round(percent)}%)`;
}

/** Where a succeeded job's result is: a file to download, or the document written (opened in the viewer). */
function ResultLink({ job }: { job: Job }) {
  const result = job.result;
  if (!result) return null;
  if (result.file) {
    return <p>Result: <a href={result.file.url} download={result.file.name}>Download {result.file.name}</a> ({result.file.mediaType})</p>;
  }
  if (result.path) {
    const path = result.path.replace(/^\/+/, '');
    return <p>Result: <a href={viewHref(path)}>Open {path}</a></p>;
  }
  return null;
}

/** One job, live: the events stream updates it until the `end` event; cancel asks the service to stop it. */
export function JobView({ id, initial }: { id: string; initial?: Job }) {
  const [job, setJob] = useState<Job | undefined>(initial);
  const [error, setError] = useState('');
  const [cancelling, setCancelling] = useState(false);

  useEffect(() => {
    let source: EventSource | undefined;
    let closed = false;
    const follow = () => {
      // The stream starts with the job's state and ends after its `end` event; EventSource reconnects with Last-Event-ID.
      source = new EventSource(`/pdfservice/v1/jobs/${encodeURIComponent(id)}/events`);
      const update = (event: MessageEvent<string>) => {
        try { setJob(JSON.parse(event.data) as Job); } catch { /* a heartbeat or a partial line: the next event has the state */ }
      };
      source.addEventListener('state', update);
      source.addEventListener('progress', update);
      source.addEventListener('end', (event) => {
        update(event);
        source?.close();
      });
    };
    void api.GET('/pdfservice/v1/jobs/{id}', { params: { path: { id } } }).then(({ data, error: problem, response }) => {
      if (closed) return;
      if (!data) return setError(problemText(problem, response.status));
      setJob(data);
      if (RUNNING.has(data.state)) follow();
    }, (err: unknown) => setError(problemText(err)));
    return () => {
      closed = true;
      source?.close();
    };
  }, [id]);

  const cancel = async () => {
    setCancelling(true);
    const { data, error: problem, response } = await api.DELETE('/pdfservice/v1/jobs/{id}', { params: { path: { id } } });
    setCancelling(false);
    if (data) setJob(data);
    else setError(problemText(problem, response.status));
  };

  if (!job) return error ? <p role="alert" class="error">{error}</p> : <p aria-busy="true">Loading the job…</p>;
  const running = RUNNING.has(job.state);
  const labelId = `job-${id}-label`;
  return (
    <section class="job" aria-labelledby={`job-${id}-title`} data-testid="job">
      <h2 id={`job-${id}-title`}>{job.action} on {job.document}</h2>
      <p role="status" data-testid="job-state">
        {job.state === 'queued' && job.position !== undefined ? `queued (place ${job.position + 1})` : job.state}
        {stepText(job) && ` — ${stepText(job)}`}
      </p>
      <div class="progress-row">
        <label id={labelId} for={`job-${id}-progress`}>Progress</label>
        <progress id={`job-${id}-progress`} max={100} value={job.progress.percent} aria-describedby={`job-${id}-count`} />
        <span id={`job-${id}-count`} data-testid="job-progress">{progressText(job)}</span>
      </div>
      {running && <button type="button" onClick={() => void cancel()} disabled={cancelling}>Cancel job</button>}
      {error && <p role="alert" class="error">{error}</p>}
      {job.state === 'succeeded' && <ResultLink job={job} />}
      {job.error && <ProblemView problem={job.error} step={stepText(job) || undefined} />}
      {(() => {
        // PDFAConvertAction's validation report: in its answer's model, or in its problem when it failed.
        const report = asReport(job.error?.['report']) ?? asReport(job.result?.document?.['report']);
        return report ? <ReportView report={report} /> : null;
      })()}
      {job.state === 'interrupted' && job.reason && <p role="alert">Interrupted: {job.reason}</p>}
      <p class="note">Started {formatTime(job.started ?? job.created)}{job.finished ? `, ended ${formatTime(job.finished)}` : ''}. <a href={jobHref(id)}>This job's own page</a></p>
    </section>
  );
}

/** The user's recent jobs, newest first (GET /jobs), each linked to its live view. */
export function Jobs({ id }: { id?: string }) {
  const [jobs, setJobs] = useState<Job[] | null>(null);
  const [error, setError] = useState('');
  const load = async () => {
    const { data, error: problem, response } = await api.GET('/pdfservice/v1/jobs');
    if (data) setJobs((data.jobs ?? []).slice(0, 100));
    else setError(problemText(problem, response.status));
  };
  useEffect(() => { if (!id) void load(); }, [id]);

  if (id) {
    return (
      <main>
        <nav aria-label="Back"><a href={jobHref()}>← All jobs</a></nav>
        <h1>Job {id}</h1>
        <JobView key={id} id={id} />
      </main>
    );
  }
  return (
    <main>
      <h1>Jobs</h1>
      <button type="button" onClick={() => void load()}>Refresh</button>
      {error && <p role="alert" class="error">{error}</p>}
      {jobs === null ? <p aria-busy="true">Loading…</p> : (
        <table class="entries">
          <caption class="visually-hidden">Your recent jobs, newest first</caption>
          <thead><tr><th scope="col">Action</th><th scope="col">Document</th><th scope="col">State</th><th scope="col">Progress</th><th scope="col">Submitted</th></tr></thead>
          <tbody>
            {jobs.length === 0 && <tr><td colSpan={5}>No jobs.</td></tr>}
            {jobs.map((job) => (
              <tr key={job.id}>
                <td><a href={jobHref(job.id)}>{job.action}</a></td>
                <td>{job.document}</td>
                <td>{job.state}</td>
                <td>{Math.round(job.progress.percent)}%</td>
                <td><time dateTime={job.created}>{formatTime(job.created)}</time></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
