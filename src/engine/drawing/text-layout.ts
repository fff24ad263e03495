/**
 * Splits stamp text into lines and each line into runs of one face, picking
 * for every character the first face of the chain that has it. No shaping:
 * each character is one glyph, placed left to right.
 */
import { EngineError } from '../errors.js';
import type { Face } from './fonts.js';

export interface Run {
  face: Face;
  /** The run's codes as the face takes them, in hex (the body of a `<...>` string). */
  hex: string;
}

export interface Line {
  runs: Run[];
  /** Advance width in em. */
  width: number;
}

/** C0 and C1 controls draw nothing, whatever a font maps them to. */
const isControl = (cp: number) => cp < 0x20 || (cp >= 0x7f && cp < 0xa0);

const codePointLabel = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Lines (split at \n, \r\n or \r) of runs. A tab counts as a space. Spaces
 * stay in the face of the character before them, so a line of Cyrillic words
 * is not broken into a run per word. Throws UNSUPPORTED_CHARACTERS naming the
 * characters no face has (control characters among them).
 */
export function layoutLines(text: string, chain: Face[]): Line[] {
  const missing = new Set<number>();
  const lines = text.split(/\r\n|\r|\n/u).map((source) => {
    const runs: Run[] = [];
    let width = 0;
    let run: { face: Face; parts: string[] } | undefined;
    for (const ch of source) {
      const cp = ch === '\t' ? 0x20 : ch.codePointAt(0)!;
      const keep = cp === 0x20 && run?.face.has(cp);
      const face = isControl(cp) ? undefined : keep ? run!.face : chain.find((f) => f.has(cp));
      if (!face) {
        missing.add(cp);
        continue;
      }
      if (run?.face !== face) {
        if (run) runs.push({ face: run.face, hex: run.parts.join('') });
        run = { face, parts: [] };
      }
      run.parts.push(face.encode(cp));
      width += face.advance(cp);
    }
    if (run) runs.push({ face: run.face, hex: run.parts.join('') });
    return { runs, width };
  });
  if (missing.size) {
    const list = [...missing].slice(0, 20).map(codePointLabel);
    throw new EngineError('UNSUPPORTED_CHARACTERS', `No font of the service can draw ${list.join(', ')}${missing.size > 20 ? ` and ${missing.size - 20} more` : ''}`, { characters: list });
  }
  return lines;
}
