/**
 * What the supervisor (supervisor.ts) knows of an external program: everything
 * a tool needs is declared here, so adding one (tesseract, qpdf, Ghostscript, a
 * JVM validator) is one declaration in tools/index.ts plus the code that uses it.
 */
export interface ToolDeclaration {
  /** Shown in /health, the start-up log and error details ("libreoffice"). */
  name: string;
  /** The program: a name looked up on PATH at start, or an absolute path. */
  command: string;
  /** The Debian package that installs it, named by 503 COMPONENT_MISSING. */
  debianPackage: string;
  /**
   * The `program` label of its metrics when its command's name is not it: Chromium's pool keeps `chromium` whichever
   * build it drives (the headless shell's command is chromium-headless-shell), so dashboards do not change with it.
   */
  metricsLabel?: string;
  /** What the service uses it for, in error details ("Word conversion"). */
  purpose: string;
  /**
   * Run once, on first need: the first /health or the tool's first run (in the
   * sandbox when the tool has one, so that a sandbox that cannot be made is found then): its first output line matching
   * `pattern` (or the first line) is the version. A probe that exits non-zero
   * makes the tool unavailable; one that does not answer in time leaves it
   * available with an unknown version (a loaded machine is not a broken tool).
   */
  versionProbe: { args: string[]; pattern?: RegExp };
  /** Runs at once; more wait in line (one LibreOffice takes a core and a few hundred MB). */
  concurrency: number;
  /**
   * Runs that may wait in that line; one more is refused at once with 503
   * SERVICE_BUSY and Retry-After, unless its caller waits whatever the line
   * (a background job, bounded by the jobs' own limits). No limit when absent.
   */
  queueLimit?: number;
  /** Longest a process may run; then its whole process group is killed (504 ENGINE_TIMEOUT). */
  timeoutMs: number;
  lifetime: ToolLifetime;
  /** The tool's scratch folder under the supervisor's root; emptied at start and after every run. */
  scratch: string;
  /** Environment variables the program needs besides HOME, TMPDIR, PATH and LANG (the service's own never reach it). */
  env?: Readonly<Record<string, string>>;
  /** Run under bubblewrap (no network, empty environment, only these paths read-only besides the scratch folder). */
  sandbox?: { readOnly: string[]; package?: string };
  /**
   * The address space (RLIMIT_AS, set by util-linux's prlimit before the program starts, inherited by every process
   * it starts) each of its processes may use, in MB: an allocation past it fails, and the program ends or reports
   * it. Absent or 0: no limit. A JVM reserves far more address space than it uses: bound it by its heap flag instead.
   */
  memoryLimitMb?: number;
  /** Files the program needs besides itself (a JVM's jars); a missing one makes the tool unavailable with `reason`. */
  requires?: { path: string; reason: string }[];
}

/**
 * When a process of the tool is replaced. `per-run`: every run starts a fresh
 * process that ends with the run (restart after one use, trivially; today's
 * soffice-per-conversion). `pooled`: up to `concurrency` long-lived processes
 * started with `args` (the warm veraPDF JVM, LibreOffice's UNO helper), each answering one line on
 * stdout per request line on stdin (ToolRun.request) after a first "ready"
 * line; one is replaced after `restartAfterUses` runs, when its process
 * group's resident memory passes `restartAboveRssMb`, when it dies, times out
 * or is cancelled mid-request. A process that has not said it is ready within
 * `startTimeoutMs` is killed (504 ENGINE_TIMEOUT).
 */
export type ToolLifetime =
  | { kind: 'per-run' }
  | {
      kind: 'pooled';
      /** The warm process's program when it is not `command` (LibreOffice's pool runs a Python helper that starts soffice); absolute. */
      program?: string;
      args: string[];
      restartAfterUses: number;
      restartAboveRssMb: number;
      startTimeoutMs: number;
    };

/** What /health shows and the start-up log lists for each tool. */
export interface ToolStatus {
  name: string;
  debianPackage: string;
  available: boolean;
  /** Reported by the version probe; null when unknown. */
  version: string | null;
  /** Why it is unavailable (missing program, missing or failing sandbox). */
  reason?: string;
}
