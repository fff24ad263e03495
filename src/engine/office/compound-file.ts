/**
 * Just enough of an OLE2 compound file (MS-CFB) to list its streams and read one: the worker's decryption of a
 * package under Office's default password (decrypt.ts) and the main thread's detection of Office formats
 * (operations/conversions/office/formats.ts) both read it, so it lives in the lower layer and loads no MuPDF.
 */

/** A top-level stream of an OLE2 compound file, whole, or null (not a compound file, no such stream, a broken chain). */
export function compoundFileStream(bytes: Buffer, name: string): Buffer | null {
  return CompoundFile.open(bytes)?.read(name.toLowerCase(), Number.MAX_SAFE_INTEGER) ?? null;
}

/** Just enough of an OLE2 compound file (MS-CFB) to list its streams and read the start of one, regular or mini. */
export class CompoundFile {
  private constructor(
    private readonly cfb: Buffer,
    private readonly sectorSize: number,
    private readonly fat: (id: number) => number,
    private readonly streams: Map<string, { start: number; size: number }>,
    private readonly root: { start: number; size: number },
  ) {}

  static open(cfb: Buffer): CompoundFile | null {
    if (cfb.length < 512) return null;
    const shift = cfb.readUInt16LE(0x1e);
    if (shift !== 9 && shift !== 12) return null;
    const size = 1 << shift;
    const perSector = size / 4;
    const sectorCount = Math.floor(cfb.length / size) - 1;
    const sectorAt = (id: number) => (id >= 0 && id < sectorCount ? (id + 1) * size : -1);
    // The FAT's own sectors: 109 listed in the header, the rest in the DIFAT chain.
    const fatSectors: number[] = [];
    for (let i = 0; i < 109; i++) fatSectors.push(cfb.readUInt32LE(0x4c + i * 4));
    for (let id = cfb.readUInt32LE(0x44), hops = 0; sectorAt(id) >= 0 && hops <= sectorCount; hops++) {
      const at = sectorAt(id);
      for (let i = 0; i < perSector - 1; i++) fatSectors.push(cfb.readUInt32LE(at + i * 4));
      id = cfb.readUInt32LE(at + size - 4);
    }
    const fat = (id: number): number => {
      const at = sectorAt(fatSectors[Math.floor(id / perSector)] ?? -1);
      return at < 0 ? -1 : cfb.readUInt32LE(at + (id % perSector) * 4);
    };
    const streams = new Map<string, { start: number; size: number }>();
    let root: { start: number; size: number } | undefined;
    for (let id = cfb.readUInt32LE(0x30), hops = 0; sectorAt(id) >= 0 && hops <= sectorCount; id = fat(id), hops++) {
      const at = sectorAt(id);
      for (let entry = at; entry + 128 <= at + size; entry += 128) {
        const nameBytes = cfb.readUInt16LE(entry + 0x40);
        const type = cfb[entry + 0x42];
        if (nameBytes < 2 || nameBytes > 64) continue;
        const location = { start: cfb.readUInt32LE(entry + 0x74), size: cfb.readUInt32LE(entry + 0x78) };
        if (type === 5) root = location;
        // 2: a stream; the first of a name wins (names are unique per storage, and these streams live at the top).
        const name = cfb.toString('utf16le', entry, entry + nameBytes - 2).toLowerCase();
        if (type === 2 && !streams.has(name)) streams.set(name, location);
      }
    }
    return root ? new CompoundFile(cfb, size, fat, streams, root) : null;
  }

  has(name: string): boolean {
    return this.streams.has(name);
  }

  /** The first `limit` bytes of a stream, or null when its chain is broken. */
  read(name: string, limit: number): Buffer | null {
    const stream = this.streams.get(name);
    if (!stream) return null;
    const want = Math.min(limit, stream.size);
    // Streams under the cut-off (4096 bytes) live in the mini stream, in 64-byte sectors chained by the mini FAT.
    if (stream.size < this.cfb.readUInt32LE(0x38)) {
      const container = this.chain(this.root.start, this.root.size, this.sectorSize, (id) => this.sector(id), (id) => this.fat(id));
      const miniFat = this.chain(this.cfb.readUInt32LE(0x3c), this.cfb.readUInt32LE(0x40) * this.sectorSize, this.sectorSize, (id) => this.sector(id), (id) => this.fat(id));
      if (!container || !miniFat) return null;
      const miniSize = 1 << this.cfb.readUInt16LE(0x20);
      return this.chain(stream.start, want, miniSize, (id) => (id * miniSize + miniSize <= container.length ? container.subarray(id * miniSize, id * miniSize + miniSize) : null), (id) => (id * 4 + 4 <= miniFat.length ? miniFat.readUInt32LE(id * 4) : -1));
    }
    return this.chain(stream.start, want, this.sectorSize, (id) => this.sector(id), (id) => this.fat(id));
  }

  private sector(id: number): Buffer | null {
    const at = (id + 1) * this.sectorSize;
    return id >= 0 && at + this.sectorSize <= this.cfb.length ? this.cfb.subarray(at, at + this.sectorSize) : null;
  }

  /** `length` bytes along a sector chain from `start`. */
  private chain(start: number, length: number, size: number, sector: (id: number) => Buffer | null, next: (id: number) => number): Buffer | null {
    const parts: Buffer[] = [];
    let got = 0;
    for (let id = start, hops = 0; got < length; id = next(id), hops++) {
      const data = hops * size <= this.cfb.length ? sector(id) : null;
      if (!data) return null;
      parts.push(data);
      got += data.length;
    }
    return Buffer.concat(parts).subarray(0, length);
  }
}
