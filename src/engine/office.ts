import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceError } from '../errors.js';
import { timeProgramRun } from '../metrics.js';

/**
 * Word to PDF through LibreOffice in a child process (never on the event loop).
 * Each conversion gets its own scratch folder and LibreOffice profile, because
 * two soffice processes sharing a profile block each other. Conversions run
 * one at a time: each takes a core and a few hundred MB.
 */
const SOFFICE_CANDIDATES = ['/usr/bin/soffice', '/usr/bin/libreoffice', '/usr/lib/libreoffice/program/soffice'];

export type WordFormat = 'doc' | 'docx';

/** The Word format of the bytes by their signature, or null: OLE2 (.doc) or ZIP with a Word part (.docx). */
export function wordFormatOf(bytes: Buffer): WordFormat | null {
  if (bytes.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex'))) return 'doc';
  if (bytes.subarray(0, 4).equals(Buffer.from('504b0304', 'hex')) && bytes.includes('word/')) return 'docx';
  return null;
}

export class OfficeConverter {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly binary = SOFFICE_CANDIDATES.find((p) => existsSync(p));

  constructor(private readonly timeoutMs: number) {}

  get available(): boolean {
    return this.binary !== undefined;
  }

  toPdf(bytes: Buffer): Promise<Buffer> {
    const format = wordFormatOf(bytes);
    if (!format) return Promise.reject(new ServiceError('MALFORMED_DOCUMENT', 'The file is not a Word document (.doc or .docx)'));
    if (!this.binary) {
      return Promise.reject(new ServiceError('COMPONENT_MISSING', 'Word conversion needs LibreOffice (Debian package libreoffice-writer-nogui), which is not installed'));
    }
    const run = this.queue.then(() => timeProgramRun('soffice', () => this.convert(this.binary!, bytes, format)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async convert(binary: string, bytes: Buffer, format: WordFormat): Promise<Buffer> {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdfservice-office-'));
    try {
      const input = path.join(dir, `document.${format}`);
      await writeFile(input, bytes);
      const args = ['--headless', '--norestore', '--nolockcheck', '--nodefault', `-env:UserInstallation=file://${dir}/profile`,
        '--convert-to', 'pdf', '--outdir', path.join(dir, 'out'), input];
      await new Promise<void>((resolve, reject) => {
        const child = spawn(binary, args, { stdio: 'ignore', env: { ...process.env, HOME: dir } });
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new ServiceError('ENGINE_TIMEOUT', 'The Word conversion took too long and was stopped'));
        }, this.timeoutMs);
        child.once('error', () => {
          clearTimeout(timer);
          reject(new ServiceError('COMPONENT_MISSING', 'LibreOffice could not be started'));
        });
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      try {
        return await readFile(path.join(dir, 'out', 'document.pdf'));
      } catch {
        throw new ServiceError('MALFORMED_DOCUMENT', 'LibreOffice could not convert this Word document');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
