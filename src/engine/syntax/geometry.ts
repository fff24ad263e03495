/**
 * Rectangles and points in PDF user space, the shapes every model uses (DESIGN.md: `{x, y, width, height}`, origin
 * at the lower left). Here, below the features, so that the syntax readers and the forms, pages, signing and
 * annotation models share them without depending on one another.
 */
export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}
