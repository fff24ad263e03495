/** Removing blank pages: the defaults of the ink measure (docs/page-numbers.md, "Remove blank pages"). Plain data. */
export const BLANK_DEFAULTS = {
  /** Pages are rendered at this resolution to measure their ink: a line of 10-point text still has a hundred pixels. */
  dpi: 36,
  /** A pixel is white when each of its red, green and blue values is at least this (0-255): paper tone and scanner noise are white. */
  whiteLevel: 240,
  /** A page is blank when the share of its pixels that are not white is below this. */
  threshold: 0.001,
} as const;

/** Pixels a page is measured on at most: a very large page is rendered at a lower resolution instead. */
export const MAX_INK_PIXELS = 4_000_000;
