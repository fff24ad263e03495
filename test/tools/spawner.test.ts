import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { ToolSupervisor, type ToolDeclaration } from '../../src/tools/index.js';
import { call, putPdf } from '../helpers/http.js';
import { makePdf, qpdfCheck } from '../helpers/pdf.js';
import { shTool as baseShTool } from '../helpers/test-tools.js';
import { startServer } from '../helpers/server.js';

/**
 * The spawner (src/tools/spawner.ts): every external program is started by a small helper process of the service's,
 * not by the service itself. Checked by the programs' parent process id, on test tools run by the supervisor and on the
 * real service; a killed spawner fails what it ran as a crashed program fails, and the next run gets a new one.
 */
/** The supervisor's sh tool, two runs at a time. */
function shTool(overrides: Partial<ToolDeclaration> = {}): ToolDeclaration {
  return baseShTool({ concurrency: 2, timeoutMs: 20_000, ...overrides });
}

/** A warm test program: "ready", then for each line its parent's pid and the line's length. */
const LOOP = 'echo ready; while read -r line; do echo "$PPID ${#line}"; done';
function warmTool(): ToolDeclaration {
  return shTool({
    name: 'test-warm',
    scratch: 'warm-scratch',
    concurrency: 1,
    lifetime: { kind: 'pooled', args: ['-c', LOOP], restartAfterUses: 100, restartAboveRssMb: 1000, startTimeoutMs: 10_000 },
  });
}

/** The parent pid of a process, from /proc; undefined once it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  return existsSync(`/proc/${pid}`) && !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

async function waitFor(what: string, seconds: number, probe: () => boolean): Promise<void> {
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
    if (probe()) return;
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe('the spawner, on test tools', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'pdfservice-spawner-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("a per-run program's parent is the spawner, not the service; without the setting it is started from the service", async () => {
    const tools = new ToolSupervisor([shTool()], root, { spawner: true });
    await tools.init();
    try {
      const spawner = tools.spawnerPid()!;
      assert.notEqual(spawner, process.pid);
      assert.equal(parentOf(spawner), process.pid);
      const result = await tools.run('test-sh', ({ exec }) => exec(['-c', 'echo $PPID']));
      assert.equal(Number(result.stdout.trim()), spawner);
    } finally {
      await tools.close();
    }
    const direct = new ToolSupervisor([shTool()], root, { spawner: false });
    await direct.init();
    try {
      assert.equal(direct.spawnerPid(), undefined);
      const result = await direct.run('test-sh', ({ exec }) => exec(['-c', 'echo $PPID']));
      assert.equal(Number(result.stdout.trim()), process.pid);
    } finally {
      await direct.close();
    }
  });

  test("a warm program's parent is the spawner; its stdin and stdout go through it, large lines and large output whole", async () => {
    const tools = new ToolSupervisor([warmTool(), shTool()], root, { spawner: true });
    await tools.init();
    try {
      const line = 'x'.repeat(1_000_000);
      const [parent, length] = (await tools.run('test-warm', ({ request }) => request(line))).split(' ');
      assert.equal(Number(parent), tools.spawnerPid());
      assert.equal(Number(length), line.length);
      // 50 MB on stdout: the run ends (output is forwarded as it is read), and the first KB are kept as before.
      const result = await tools.run('test-sh', ({ exec }) => exec(['-c', 'head -c 50000000 /dev/zero | tr "\\0" y; echo done >&2']));
      assert.equal(result.code, 0);
      assert.match(result.stdout, /^y+$/);
      assert.equal(result.stderr, 'done\n');
    } finally {
      await tools.close();
    }
  });

  test('a killed spawner: the programs it ran end as crashed ones (their process groups killed), and the next run gets a new spawner', async () => {
    const tools = new ToolSupervisor([warmTool(), shTool()], root, { spawner: true });
    await tools.init();
    try {
      const first = tools.spawnerPid()!;
      // A warm process, started and idle; then a per-run program that starts a background child and waits.
      await tools.run('test-warm', ({ request }) => request('a'));
      let sleeper = 0;
      const running = tools.run('test-sh', ({ exec }) => exec(['-c', 'sleep 60 & echo $! > pid; wait']));
      await waitFor('the program started its child', 20, () => {
        const dir = readdirSync(path.join(root, 'sh-scratch')).find((name) => name.startsWith('run-'));
        const file = dir && path.join(root, 'sh-scratch', dir, 'pid');
        if (file && existsSync(file)) sleeper = Number(readFileSync(file, 'utf8')) || 0;
        return sleeper > 0;
      });
      process.kill(first, 'SIGKILL');
      // Ends as a program killed by a signal ends: no exit code; its child is killed with its group.
      const result = await running;
      assert.equal(result.code, null);
      await waitFor('the orphaned child is killed', 10, () => !alive(sleeper));
      // The next runs get a new spawner; the warm process that ran under the old one is replaced.
      const result2 = await tools.run('test-sh', ({ exec }) => exec(['-c', 'echo $PPID']));
      const second = tools.spawnerPid()!;
      assert.notEqual(second, first);
      assert.equal(Number(result2.stdout.trim()), second);
      const answer = await tools.run('test-warm', ({ request }) => request('b')).catch((err: unknown) => err);
      // The idle warm process died with the spawner: it is replaced within the run, as one killed from outside is.
      assert.ok(typeof answer === 'string', `the warm run failed: ${answer instanceof ServiceError ? answer.code : String(answer)}`);
      assert.equal(Number(answer.split(' ')[0]), second);
    } finally {
      await tools.close();
    }
  });

  // Its start, output and exit can reach the service in one read of the channel, before the run listens for the exit
  // at which it kills the left child (whose open stdout would otherwise hold the run until its time limit).
  test('a short program that leaves a child behind: the child is killed at its exit, run after run', async () => {
    const tools = new ToolSupervisor([shTool({ timeoutMs: 60_000 })], root, { spawner: true });
    await tools.init();
    try {
      for (let i = 0; i < 20; i++) {
        const result = await tools.run('test-sh', ({ exec }) => exec(['-c', 'sleep 60 & echo started']));
        assert.equal(result.stdout, 'started\n');
        assert.equal(result.timedOut, false);
      }
    } finally {
      await tools.close();
    }
  });

  test('close() ends the spawner', async () => {
    const tools = new ToolSupervisor([shTool()], root, { spawner: true });
    await tools.init();
    const spawner = tools.spawnerPid()!;
    await tools.run('test-sh', ({ exec }) => exec(['-c', 'true']));
    await tools.close();
    await waitFor('the spawner exits', 10, () => !alive(spawner));
  });
});

describe('the spawner, in the service', () => {
  test('the service starts a spawner; after it is killed the next qpdf run works under a new one; the spawner ends with the service', async () => {
    const server = await startServer({ env: { PDFSERVICE_TOOL_SPAWNER: 'true' } });
    let spawner: number | undefined;
    try {
      const spawnerOf = () => readdirSync('/proc').filter((e) => /^\d+$/.test(e)).map(Number)
        .find((pid) => parentOf(pid) === server.child.pid && (() => { try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('spawner-process.js'); } catch { return false; } })());
      spawner = spawnerOf();
      assert.ok(spawner, 'the service has a spawner child process');
      // None of the service's variables (its admin password among them) in the spawner's environment.
      const environ = readFileSync(`/proc/${spawner}/environ`, 'utf8');
      assert.ok(!environ.includes('PDFSERVICE_') && !environ.includes('admin-test-password'), environ);
      assert.equal((await putPdf(server, 'spawn/a.pdf', makePdf({ pages: 2 }))).status, 201);
      const linearize = async (output: string) => {
        const reply = await call(server, 'POST', '/documents/spawn/a.pdf', { body: { LinearizeAction: { savePath: output } } });
        assert.equal(reply.status, 201, reply.text);
        const stored = await call(server, 'GET', `/documents/${output}`);
        assert.ok(qpdfCheck(stored.bytes).ok);
      };
      await linearize('spawn/b.pdf');
      process.kill(spawner, 'SIGKILL');
      await waitFor('the killed spawner is gone', 10, () => !alive(spawner!));
      await linearize('spawn/c.pdf');
      const second = spawnerOf();
      assert.ok(second && second !== spawner);
      spawner = second;
    } finally {
      await server.stop();
    }
    await waitFor('the spawner ends with the service', 10, () => !alive(spawner!));
  });
});
