/**
 * A preflight or validation report (docs/pdfa.md: PreflightResult, and the `report` of PDFAConvertAction's answer or
 * problem) as a person reads it: the verdict, then each failed rule with what it requires and where it failed (page,
 * object, the validator's path).
 */
import type { Schemas } from './api.ts';

export type Report = Pick<Schemas['PreflightResult'], 'profile' | 'compliant' | 'rules'> & Partial<Pick<Schemas['PreflightResult'], 'validator' | 'passedChecks' | 'failedChecks'>>;

/** A value that has the report's shape (a job's error or result may carry one; anything else is not shown as one). */
export function asReport(value: unknown): Report | undefined {
  const report = value as Partial<Report> | undefined;
  return report && typeof report === 'object' && typeof report.compliant === 'boolean' && Array.isArray(report.rules) ? report as Report : undefined;
}

export function ReportView({ report }: { report: Report }) {
  const verdict = report.compliant ? 'compliant' : 'not compliant';
  return (
    <section class="report" aria-labelledby="report-title" data-testid="report">
      <h2 id="report-title">Report: {report.profile}, {verdict}</h2>
      <p>
        {report.validator && `Checked by ${report.validator.name} ${report.validator.version}. `}
        {report.passedChecks !== undefined && `${report.passedChecks} checks passed, ${report.failedChecks ?? 0} failed.`}
      </p>
      {report.rules.length > 0 && (
        <table class="entries">
          <caption class="visually-hidden">Failed rules</caption>
          <thead><tr><th scope="col">Rule</th><th scope="col">What it requires</th><th scope="col">Failed</th><th scope="col">Where (first places)</th></tr></thead>
          <tbody>
            {report.rules.map((rule, i) => (
              <tr key={i}>
                <td>{rule.specification} {rule.clause}{rule.testNumber ? ` test ${rule.testNumber}` : ''}</td>
                <td>{rule.description}</td>
                <td>{rule.failedChecks}</td>
                <td>
                  <ul class="places">
                    {rule.locations.map((place, j) => (
                      <li key={j}>
                        {place.pageIndex !== undefined ? `page ${place.pageIndex + 1}` : 'document'}
                        {place.objectNumber !== undefined && `, object ${place.objectNumber}`}
                        <span class="note"> {place.context}</span>
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
