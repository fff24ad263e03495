import path from 'node:path';
import { ServiceError } from '../errors.js';
import type { OpenFile } from '../open-file.js';
import { writeInput } from './input-file.js';
import type { ToolSupervisor } from './supervisor.js';
import type { ToolDeclaration } from './tool.js';

/**
 * veraPDF, the reference PDF/A validator (docs/pdfa.md), as one warm JVM: our
 * helper (java/verapdf, built by scripts/setup.sh with the veraPDF 1.30
 * library from Maven Central) reads one request line per document and answers
 * one JSON line. Measured on this machine (2 cores shared with other work):
 * a fresh JVM (started, profiles loaded, JIT cold) takes 1.8 s to validate a
 * one-page document and 4.6 to 9 s for the 200-page bench document, where the
 * warm one takes 60 ms and 1.1 to 1.6 s (bench/preflight.ts); the first
 * validations of a new JVM are 3 to 5 times slower than later ones, and its
 * resident memory grows by about 40 MB per 200-page document until the
 * collector runs (270 MB after the first). Hence `pooled`: one process, kept
 * across requests, replaced after 1,000 validations or above 1,200 MB resident
 * (heap capped at 768 MB by -Xmx, plus the JVM's own; the serial collector, as
 * it shares 2 cores with the engine workers). One at a time: a validation is
 * single-threaded CPU work and the engine workers need the other core; more
 * requests wait in the supervisor's line.
 */
export const VERAPDF = 'verapdf';

export type PdfaProfile = 'pdfa1a' | 'pdfa1b' | 'pdfa2a' | 'pdfa2b' | 'pdfa2u' | 'pdfa3a' | 'pdfa3b' | 'pdfa3u' | 'pdfa4' | 'pdfa4e' | 'pdfa4f';

/** Every PDF/A flavour, in the order lists show them. */
export const PDFA_PROFILES: readonly PdfaProfile[] = ['pdfa1a', 'pdfa1b', 'pdfa2a', 'pdfa2b', 'pdfa2u', 'pdfa3a', 'pdfa3b', 'pdfa3u', 'pdfa4', 'pdfa4e', 'pdfa4f'];

/** Accessibility profiles veraPDF checks (docs/accessibility.md): PDF/UA-1, PDF/UA-2 and WTPDF 1.0 "Accessibility". */
export type UaProfile = 'pdfua1' | 'pdfua2' | 'wtpdf1a';

/** Every accessibility profile, in the order lists show them. */
export const UA_PROFILES: readonly UaProfile[] = ['pdfua1', 'pdfua2', 'wtpdf1a'];

/** Every profile the warm veraPDF checks. */
export type VerapdfProfile = PdfaProfile | UaProfile;

export interface RuleLocation {
  pageIndex?: number;
  objectNumber?: number;
  context: string;
}
export interface FailedRule {
  specification: string; // e.g. 'ISO 19005-2:2011'
  clause: string; // e.g. '6.2.11.4.1'
  testNumber: number;
  description: string;
  failedChecks: number; // how many times it failed
  locations: RuleLocation[]; // the first few (at most 10)
}
export interface ValidationReport {
  profile: string;
  compliant: boolean;
  validator: { name: string; version: string };
  passedChecks: number;
  failedChecks: number;
  rules: FailedRule[]; // failed rules only
}

/**
 * veraPDF's flavour ids, and the standard each belongs to (named by a result that veraPDF could not produce).
 * veraPDF 1.30 knows the accessibility flavours as ua1, ua2 and wt1a (PDFAFlavour.byFlavourId).
 */
const FLAVOURS: Record<VerapdfProfile, { id: string; specification: string }> = {
  pdfa1a: { id: '1a', specification: 'ISO 19005-1:2005' },
  pdfa1b: { id: '1b', specification: 'ISO 19005-1:2005' },
  pdfa2a: { id: '2a', specification: 'ISO 19005-2:2011' },
  pdfa2b: { id: '2b', specification: 'ISO 19005-2:2011' },
  pdfa2u: { id: '2u', specification: 'ISO 19005-2:2011' },
  pdfa3a: { id: '3a', specification: 'ISO 19005-3:2012' },
  pdfa3b: { id: '3b', specification: 'ISO 19005-3:2012' },
  pdfa3u: { id: '3u', specification: 'ISO 19005-3:2012' },
  pdfa4: { id: '4', specification: 'ISO 19005-4:2020' },
  pdfa4e: { id: '4e', specification: 'ISO 19005-4:2020' },
  pdfa4f: { id: '4f', specification: 'ISO 19005-4:2020' },
  pdfua1: { id: 'ua1', specification: 'ISO 14289-1:2014' },
  pdfua2: { id: 'ua2', specification: 'ISO 14289-2:2024' },
  wtpdf1a: { id: 'wt1a', specification: 'WTPDF1.0' },
};

export function isPdfaProfile(value: string): value is PdfaProfile {
  return (PDFA_PROFILES as readonly string[]).includes(value);
}

/** The helper's jar and veraPDF's jars, as scripts/setup.sh lays them out in `dir`. */
function classPath(dir: string): string {
  return `${path.join(dir, 'verapdf-helper.jar')}:${path.join(dir, 'lib')}/*`;
}

// No perf-data file in /tmp; headless: veraPDF loads AWT colour classes but never needs a display. -Xms16m: the
// initial heap is otherwise 1/64 of the machine's memory, with a third of it young generation that the JVM fills
// before it first collects: 205 MB resident after one validation of a one-page file, and 207 MB after a 100 MB image
// document (issue 35), on a 24 GB machine; 111 and 118 MB with it (the heap grows as a document needs, up to -Xmx).
// The heap (-Xmx, PDFSERVICE_VERAPDF_HEAP_MB) bounds its memory: a JVM reserves far more address space than it uses, so
// no address-space limit (tool.ts memoryLimitMb) applies to it.
// -XX:TieredStopAtLevel=1: the client compiler only. The server compiler's threads and code took about 30 MB more and,
// on this 2-core machine, the first validation of a 100 MB image document 14-16 s instead of 6.4 s; warm runs of that
// document took 0.1-0.3 s against 1.0-1.1 s (VmHWM 86-90 MB against 115-123 MB; issue 35, item 8, docs/pdfa.md "Memory").
const JVM_OPTIONS = ['-Xms16m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:-UsePerfData', '-Xss4m', '-Djava.awt.headless=true'];
const DEFAULT_HEAP_MB = 768;

export function verapdf(options: { timeoutMs: number; dir: string; heapMb?: number | undefined }): ToolDeclaration {
  const cp = classPath(options.dir);
  return {
    name: VERAPDF,
    command: 'java',
    debianPackage: 'default-jre-headless',
    purpose: 'PDF/A validation',
    // The warm JVM's options (but its heap): the client compiler and the serial collector start the probe's JVM on about
    // a quarter less CPU (0.70 s -> 0.52 s of user + sys, six runs each in turn, loaded machine of 29 Nov), and the
    // service starts it at every start (the test suites about two hundred times; docs/testing.md).
    versionProbe: { args: [...JVM_OPTIONS, '-cp', cp, 'pdfservice.verapdf.Helper', '--version'], pattern: /^veraPDF\s+(\S+)/ },
    concurrency: 1,
    timeoutMs: options.timeoutMs,
    lifetime: { kind: 'pooled', args: [`-Xmx${options.heapMb || DEFAULT_HEAP_MB}m`, ...JVM_OPTIONS, '-cp', cp, 'pdfservice.verapdf.Helper'], restartAfterUses: 1000, restartAboveRssMb: 1200, startTimeoutMs: 60_000 },
    scratch: 'verapdf-scratch',
    // The JVM reads its configuration under /etc (the JDK's conf/ links there) and its jars; nothing else of the host.
    sandbox: { readOnly: [options.dir, '/etc/java-17-openjdk', '/etc/java-21-openjdk', '/etc/ssl/certs/java'] },
    requires: [
      {
        path: path.join(options.dir, 'verapdf-helper.jar'),
        reason: `the veraPDF helper (${path.join(options.dir, 'verapdf-helper.jar')}, built by bash scripts/setup.sh with Maven), which is not built`,
      },
    ],
  };
}

type HelperAnswer = { ok: true; report: ValidationReport } | { ok: false; kind: 'damaged' | 'encrypted' | 'failed'; error: string };

/**
 * Validates a PDF (bytes, or a stored document's open file) against a PDF/A, PDF/UA or WTPDF flavour in the warm veraPDF JVM.
 * 503 COMPONENT_MISSING without Java/veraPDF. The flavour is the one asked
 * for, never the one the file claims. `password` opens an encrypted file, so
 * that its content is checked as well as the encryption PDF/A forbids. A file
 * veraPDF cannot read at all (damaged, or encrypted with a password it was not
 * given) is a non-compliant result whose one rule (clause 6.1, file structure in
 * PDF/A and conformance in PDF/UA; test number 0: ours, not veraPDF's) says why.
 */
export function validatePdfa(
  tools: ToolSupervisor,
  options: { pdf: Uint8Array | OpenFile; profile: VerapdfProfile; password?: string | undefined; signal?: AbortSignal | undefined },
): Promise<ValidationReport> {
  const flavour = FLAVOURS[options.profile];
  return tools.run(
    VERAPDF,
    async ({ scratch, request }) => {
      const file = path.join(scratch, 'document.pdf');
      await writeInput(file, options.pdf);
      const line = await request(JSON.stringify({ file, flavour: flavour.id, ...(options.password ? { password: options.password } : {}) }));
      let answer: HelperAnswer;
      try {
        answer = JSON.parse(line) as HelperAnswer;
      } catch {
        throw new ServiceError('PROCESSING_FAILED', 'veraPDF answered something that is not a report');
      }
      if (answer.ok) return { ...answer.report, profile: options.profile };
      if (answer.kind === 'failed') throw new ServiceError('PROCESSING_FAILED', `veraPDF could not validate this document: ${answer.error}`);
      const why = answer.kind === 'encrypted' ? 'it is encrypted and could not be decrypted with the password given' : `it could not be parsed (${answer.error})`;
      return {
        profile: options.profile,
        compliant: false,
        validator: { name: 'veraPDF', version: tools.statuses().find((tool) => tool.name === VERAPDF)?.version ?? 'unknown' },
        passedChecks: 0,
        failedChecks: 1,
        rules: [{ specification: flavour.specification, clause: '6.1', testNumber: 0, description: `veraPDF could not read the file: ${why}`, failedChecks: 1, locations: [{ context: 'root' }] }],
      };
    },
    options.signal,
  );
}
