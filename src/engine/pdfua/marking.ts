import { contentOperations } from '../syntax/content-tokens.js';

/**
 * A page's content stream with every painting operation put in marked content (PDFUAConvertAction, docs/accessibility.md
 * "Tagging an untagged document"): real content as `/<tag> <</MCID n>> BDC ... EMC`, the rest as `/Artifact BMC ... EMC`.
 * MuPDF.js 1.28 has no content-stream processor or filter to do this with, so the stream is read with the project's one
 * lexer (syntax/content-tokens.ts, contentOperations) and copied, with the marked-content operators inserted between operations; no other
 * byte changes, so the page draws as before.
 *
 * Which element a painting belongs to is the caller's decision (`targetOf`), from where it is drawn: a text-showing
 * operator by the point where its text starts (the text matrix and the CTM followed through the stream; a run of
 * shows without a new position inside one text object stays where the last position was, as it continues that
 * line), an image or form XObject by its box. Consecutive paintings for the same target share one sequence; a sequence
 * never spans BT/ET, q/Q or another marked-content operator, so it nests properly in whatever the stream holds.
 */

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m × n (PDF's row-vector convention: a point is transformed by m first). */
export function mul(m: Matrix, n: Matrix): Matrix {
  return [m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3], m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3], m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5]];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** The box [x0, y0, x1, y1] of the rectangle `r` transformed by `m`. */
function boxOf(m: Matrix, r: readonly number[]): [number, number, number, number] {
  const corners = [apply(m, r[0]!, r[1]!), apply(m, r[2]!, r[1]!), apply(m, r[0]!, r[3]!), apply(m, r[2]!, r[3]!)];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** What is painted, in the page's default user space. */
export type Painting =
  | { kind: 'text'; x: number; y: number }
  | { kind: 'image'; box: [number, number, number, number] }
  | { kind: 'form'; box: [number, number, number, number] }
  | { kind: 'graphics' };

/**
 * An XObject the stream draws (Do), from the page's resources. A form is `form` when its drawing is placed as a whole
 * (one sequence around the Do), `own` when its own stream is marked instead (the caller's `ownForm`, see tag.ts).
 */
export type XObjectInfo = { kind: 'image' } | { kind: 'form' | 'own'; bbox: readonly number[]; matrix: readonly number[] };

/** A 2D transformation, as PDF writes it (a b c d e f). */
export type Matrix = [number, number, number, number, number, number];

/** A form's matrix, or the identity when it has none or a malformed one. */
export function formMatrix(matrix: readonly number[]): Matrix {
  return matrix.length === 6 ? (matrix as unknown as Matrix) : [...IDENTITY];
}

export interface MarkingResult<T> {
  bytes: Uint8Array;
  /** The target of each MCID written, by MCID (0, 1, ...). */
  mcids: T[];
  /** Marked-content sequences written as artifacts. */
  artifacts: number;
}

const TEXT_SHOWING = new Set(['Tj', 'TJ', "'", '"']);
const GRAPHICS = new Set(['sh', 'f', 'F', 'f*', 'S', 's', 'B', 'B*', 'b', 'b*']);
/** Operators before which an open sequence of ours is closed (see above). */
const BOUNDARY = new Set(['BT', 'ET', 'q', 'Q', 'BMC', 'BDC', 'EMC']);

/**
 * The stream marked (see above). `tagOf(target)` names the marked-content tag of a target (P, H1, Figure...);
 * `targetOf` answers a target, or undefined for an artifact. `strip`: take out the marked content already in the
 * stream first (a retag: the old MCIDs belong to the tree being replaced), all but optional content (/OC), which
 * decides what is drawn. Without it, content inside an existing /Artifact sequence stays as it is. `mark: false` only
 * strips (a form whose old marked content goes and that gets none of its own). `ctm`: the transformation the stream is
 * drawn with (a form's: its matrix times the CTM at its Do), the identity for a page. `ownForm`: called at the Do of
 * an `own` form, outside any sequence of ours, with the CTM there and the number of MCIDs written before it, so that
 * the caller marks the form's stream and keeps the reading order; nothing is written around that Do.
 */
export function markContent<T>(
  content: Uint8Array,
  options: {
    targetOf: (p: Painting) => T | undefined;
    tagOf: (t: T) => string;
    xobject: (name: string) => XObjectInfo | undefined;
    strip: boolean;
    mark?: boolean;
    ctm?: Matrix;
    ownForm?: (name: string, ctm: Matrix, mcidsBefore: number) => void;
  },
): MarkingResult<T> {
  const latin1 = (a: number, b: number) => Buffer.from(content.buffer, content.byteOffset + a, b - a).toString('latin1');
  const out: string[] = [];
  let copiedTo = 0;
  const mcids: T[] = [];
  let artifacts = 0;
  // Ours: the open sequence's target (null: an artifact), or none open.
  let open: { target: T | null } | undefined;
  const close = (at: number) => {
    if (!open) return;
    out.push(latin1(copiedTo, at), '\nEMC\n');
    copiedTo = at;
    open = undefined;
  };
  const begin = (at: number, target: T | null) => {
    close(at);
    out.push(latin1(copiedTo, at));
    copiedTo = at;
    if (target === null) {
      out.push('\n/Artifact BMC\n');
      artifacts++;
    } else {
      out.push(`\n/${options.tagOf(target)} <</MCID ${mcids.length}>> BDC\n`);
      mcids.push(target);
    }
    open = { target };
  };
  const drop = (a: number, b: number) => {
    out.push(latin1(copiedTo, a));
    copiedTo = b;
  };

  // Graphics and text state, as far as positions need them.
  let ctm: Matrix = options.ctm ? [...options.ctm] : [...IDENTITY];
  const stack: Matrix[] = [];
  let tm: Matrix = [...IDENTITY];
  let tlm: Matrix = [...IDENTITY];
  let size = 0;
  let leading = 0;
  let rise = 0;
  let textPoint: [number, number] | undefined;
  // The existing marked content: whether each sequence is kept (not stripped) and whether it is an artifact.
  const existing: { kept: boolean; artifact: boolean }[] = [];
  const inArtifact = () => existing.some((e) => e.kept && e.artifact);

  for (const { op, start, end, begin: paintStart, args } of contentOperations(content)) {
    const num = (i: number) => (typeof args[i] === 'number' ? (args[i] as number) : 0);
    const six = (): Matrix => [num(0), num(1), num(2), num(3), num(4), num(5)];

    if (BOUNDARY.has(op)) close(start);
    if (op === 'BMC' || op === 'BDC') {
      const tag = typeof args[0] === 'string' ? args[0] : '';
      const optional = tag === 'OC';
      if (options.strip && !optional) {
        drop(start, end);
        existing.push({ kept: false, artifact: false });
      } else existing.push({ kept: true, artifact: tag === 'Artifact' });
      continue;
    }
    if (op === 'EMC') {
      const entry = existing.pop();
      if (entry && !entry.kept) drop(start, end);
      continue;
    }
    switch (op) {
      case 'q':
        stack.push(ctm);
        continue;
      case 'Q':
        ctm = stack.pop() ?? ctm;
        continue;
      case 'cm':
        ctm = mul(six(), ctm);
        continue;
      case 'BT':
        tm = [...IDENTITY];
        tlm = [...IDENTITY];
        textPoint = undefined;
        continue;
      case 'ET':
        continue;
      case 'Tf':
        size = num(1);
        continue;
      case 'TL':
        leading = num(0);
        continue;
      case 'Ts':
        rise = num(0);
        continue;
      case 'Td':
      case 'TD':
        if (op === 'TD') leading = -num(1);
        tlm = mul([1, 0, 0, 1, num(0), num(1)], tlm);
        tm = tlm;
        textPoint = undefined;
        continue;
      case 'Tm':
        tlm = six();
        tm = tlm;
        textPoint = undefined;
        continue;
      case 'T*':
        tlm = mul([1, 0, 0, 1, 0, -leading], tlm);
        tm = tlm;
        textPoint = undefined;
        continue;
    }
    let painting: Painting | undefined;
    if (TEXT_SHOWING.has(op)) {
      if (op === "'" || op === '"') {
        tlm = mul([1, 0, 0, 1, 0, -leading], tlm);
        tm = tlm;
        textPoint = undefined;
      }
      // A point inside the first glyph: a third of an em right of the origin and above the baseline.
      textPoint ??= apply(mul(tm, ctm), size / 3, rise + size / 3);
      painting = { kind: 'text', x: textPoint[0], y: textPoint[1] };
    } else if (op === 'BI') {
      painting = { kind: 'image', box: boxOf(ctm, [0, 0, 1, 1]) };
    } else if (op === 'Do') {
      const info = typeof args[0] === 'string' ? options.xobject(args[0]) : undefined;
      if (info?.kind === 'image') painting = { kind: 'image', box: boxOf(ctm, [0, 0, 1, 1]) };
      else if (info?.kind === 'own' && options.mark !== false) {
        if (inArtifact()) continue;
        close(start);
        options.ownForm?.(args[0] as string, mul(formMatrix(info.matrix), ctm), mcids.length);
        continue;
      } else if (info?.kind === 'form' || info?.kind === 'own') {
        painting = { kind: 'form', box: boxOf(mul(formMatrix(info.matrix), ctm), info.bbox.length === 4 ? info.bbox : [0, 0, 0, 0]) };
      } else painting = { kind: 'graphics' };
    } else if (GRAPHICS.has(op)) painting = { kind: 'graphics' };
    // `n` ends a path that only clips; other operators paint nothing.
    if (!painting || inArtifact() || options.mark === false) continue;
    const target = options.targetOf(painting) ?? null;
    if (open && open.target === target) continue;
    begin(paintStart, target);
  }
  close(content.length);
  out.push(latin1(copiedTo, content.length));
  return { bytes: Buffer.from(out.join(''), 'latin1'), mcids, artifacts };
}
