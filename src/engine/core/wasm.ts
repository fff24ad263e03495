import { randomBytes } from 'node:crypto';

/**
 * The handle on MuPDF's Emscripten module, set as the global it reads its settings from: the worker imports this
 * before MuPDF (engine/worker.ts), so the module MuPDF creates is this object, and its memory and allocator are
 * reachable here. Where MuPDF was loaded without it (a test importing engine code directly), its fields stay unset.
 */
export const wasmModule: {
  HEAPU8?: Uint8Array;
  _wasm_malloc?: (size: number) => number;
  _wasm_free?: (pointer: number) => void;
  _wasm_new_buffer_from_data?: (pointer: number, size: number) => number;
} = {};
(globalThis as Record<string, unknown>)['$libmupdf_wasm_Module'] = wasmModule;

/** The size of MuPDF's WebAssembly memory (it never shrinks). */
export function wasmBytes(): number {
  return wasmModule.HEAPU8?.byteLength ?? 0;
}

/** The most MuPDF's memory may grow to (its build's maximum, 2 GiB); a reservation that would pass it is not made. */
const WASM_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * Makes `bytes` of free room at the top of MuPDF's heap, untouched (so not resident: memory the kernel has not been
 * written to costs nothing until it is). A buffer that then grows at the top extends in place instead of being copied
 * into a new block each time it fills (core/save.ts). Answers whether the room was made: MuPDF's allocator throws when
 * its memory cannot grow that far, and nothing is lost then.
 */
export function reserveTop(bytes: number): boolean {
  const { _wasm_malloc: malloc, _wasm_free: free } = wasmModule;
  if (!malloc || !free || bytes <= 0 || wasmBytes() + bytes > WASM_MAX_BYTES) return false;
  try {
    const pointer = malloc(bytes);
    if (!pointer) return false;
    free(pointer);
    return true;
  } catch {
    return false;
  }
}

/**
 * A MuPDF buffer (its pointer, for `new mupdf.Buffer`) of `size` bytes filled by `fill` in MuPDF's memory, or
 * undefined where MuPDF was loaded without the handle. core/open.ts reads an open file into it: no JavaScript copy of
 * the document (a 4 MB upload read into a new array, then copied into MuPDF, left 4 MB of garbage per open, and that
 * external memory brought on a full collection of the worker's heap every few opens, 3-120 ms each; issue 38).
 * (This module imports nothing of MuPDF: it must run before MuPDF loads.)
 */
export function filledBuffer(size: number, fill: (memory: Uint8Array, offset: number) => void): number | undefined {
  const { _wasm_malloc: malloc, _wasm_free: free, _wasm_new_buffer_from_data: wrap } = wasmModule;
  if (!malloc || !free || !wrap) return undefined;
  const pointer = malloc(Math.max(1, size));
  try {
    // HEAPU8 read after the malloc: a malloc that grows the memory replaces it.
    fill(wasmModule.HEAPU8!, pointer);
    // The buffer owns the block from here (MuPDF frees it with the buffer).
    return wrap(pointer, size);
  } catch (err) {
    free(pointer);
    throw err;
  }
}

/**
 * MuPDF's random generator (rand48, the state in its context: x0 x1 x2 then the multiplier and addend, 0xe66d 0xdeec
 * 0x5 0xb) is seeded from the clock when the context is made, and its WebAssembly has no other source: the keys, salts
 * and IVs of an encryption it writes followed from the worker's start time and the draws since (two processes with the
 * same clock wrote the same /UE, /OE and /Perms). reseedRandom() writes 48 fresh bits from node's CSPRNG into that state
 * before each save. Encryption no longer draws from it (it is written in node, core/encrypt-file.ts, keys from
 * crypto.randomBytes); what MuPDF still draws at a save (the /ID it makes) gets the fresh bits.
 * Answers false where MuPDF was loaded without the handle (a test importing engine code directly); throws when the
 * handle is there and the state is not (a MuPDF whose context changed shape: no save goes out on the old seed).
 */
export function reseedRandom(): boolean {
  const heap = wasmModule.HEAPU8;
  if (!heap) return false;
  const words = new Uint16Array(heap.buffer, 0, heap.byteLength >>> 1);
  const at = seedAt !== undefined && isSeed(words, seedAt) ? seedAt : findSeed(words);
  if (at === undefined) throw new Error("MuPDF's random generator state was not found in its memory");
  seedAt = at;
  const fresh = randomBytes(6);
  words[at] = fresh.readUInt16LE(0);
  words[at + 1] = fresh.readUInt16LE(2);
  words[at + 2] = fresh.readUInt16LE(4);
  return true;
}

/** Where x0 of MuPDF's rand48 state is, in 16-bit words of its memory (its context never moves once made). */
let seedAt: number | undefined;

function isSeed(words: Uint16Array, at: number): boolean {
  return words[at + 3] === 0xe66d && words[at + 4] === 0xdeec && words[at + 5] === 0x5 && words[at + 6] === 0xb;
}

/** The one place the generator's constants appear; none or several: not found (a guess could seed the wrong words). */
function findSeed(words: Uint16Array): number | undefined {
  let found: number | undefined;
  for (let i = words.indexOf(0xe66d); i >= 0; i = words.indexOf(0xe66d, i + 1)) {
    if (i < 3 || !isSeed(words, i - 3)) continue;
    if (found !== undefined) return undefined;
    found = i - 3;
  }
  return found;
}
