/**
 * The handle on MuPDF's Emscripten module, set as the global it reads its settings from: the worker imports this
 * before MuPDF (engine/worker.ts), so the module MuPDF creates is this object, and its memory and allocator are
 * reachable here. Where MuPDF was loaded without it (a test importing engine code directly), its fields stay unset.
 */
export const wasmModule: { HEAPU8?: Uint8Array; _wasm_malloc?: (size: number) => number; _wasm_free?: (pointer: number) => void } = {};
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
