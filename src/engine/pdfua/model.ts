/** The PDF/UA feature's models shared with the main thread: the figure resource's (docs/accessibility.md, "Figures and their alternative text"); no MuPDF here. */

/** Longest alternate or actual text the figure resource writes, in characters. */
export const MAX_FIGURE_TEXT = 10_000;
/** Most figures one bulk PATCH .../figures changes. */
export const MAX_FIGURE_CHANGES = 10_000;

/** One Figure structure element. */
export interface FigureModel {
  /** Its 0-based position among the Figure elements in the structure tree's depth-first order. */
  index: number;
  /** The page its content is on (the first, when on several), 0-based; absent when nothing names a page. */
  pageIndex?: number;
  /** Where its content is: [x0, y0, x1, y1] in PDF user space (points, origin at the lower left of the unrotated page). */
  bbox?: [number, number, number, number];
  /** /Alt, its alternate description. */
  alt?: string;
  /** /ActualText, the text it stands for. */
  actualText?: string;
  /** Whether /Alt says something (is present and not blank). */
  hasAlt: boolean;
}

export interface FiguresModel {
  /** Whether the document has a structure tree; without one it has no figures to describe. */
  tagged: boolean;
  figures: FigureModel[];
}

/** A change of one figure: a text given replaces it, null removes it, absent leaves it. */
export interface FigureChange {
  index: number;
  alt?: string | null;
  actualText?: string | null;
}
