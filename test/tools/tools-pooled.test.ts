import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { ToolSupervisor, type ToolDeclaration } from '../../src/tools/index.js';

/**
 * The supervisor's `pooled` lifetime (tools/warm.ts) on a real long-lived
 * test program: a shell loop that says "ready", then answers each line with
 * its process id, its use count and the line; "crash" ends it, "sleep" makes
 * it too slow. Each run asks one line, so every run's answer tells which
 * process served it.
 */
const LOOP = 'echo ready; n=0; while read -r line; do n=$((n+1)); case "$line" in crash) exit 3;; sleep) sleep 30;; esac; echo "$$ $n $line"; done';

function pooledTool(overrides: Partial<ToolDeclaration> & { restartAfterUses?: number; restartAboveRssMb?: number } = {}): ToolDeclaration {
  const { restartAfterUses = 100, restartAboveRssMb = 1000, ...rest } = overrides;
  return {
    name: 'test-warm',
    command: 'sh',
    debianPackage: 'dash',
    purpose: 'Warm test run',
    versionProbe: { args: ['-c', 'echo "Warm shell 1.2.3"'], pattern: /^Warm shell (\S+)/ },
    concurrency: 1,
    timeoutMs: 2_000,
    lifetime: { kind: 'pooled', args: ['-c', LOOP], restartAfterUses, restartAboveRssMb, startTimeoutMs: 10_000 },
    scratch: 'warm-scratch',
    ...rest,
  };
}

/** One run asking `line`: the answering process's id and its use count. */
async function ask(tools: ToolSupervisor, line: string): Promise<{ pid: number; uses: number }> {
  return tools.run('test-warm', async ({ request, scratch }) => {
    assert.ok(scratch.startsWith(root));
    const [pid, uses, echoed] = (await request(line)).split(' ');
    assert.equal(echoed, line);
    return { pid: Number(pid), uses: Number(uses) };
  });
}

let root: string;

describe('pooled tools', () => {
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'pdfservice-pooled-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('one process serves run after run, and is replaced after restartAfterUses', async () => {
    const tools = new ToolSupervisor([pooledTool({ restartAfterUses: 3 })], root);
    try {
      const [status] = await tools.init();
      assert.equal(status!.version, '1.2.3');
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await ask(tools, `doc-${i}`));
      assert.deepEqual(answers.map((a) => a.uses), [1, 2, 3, 1, 2]);
      assert.equal(new Set(answers.slice(0, 3).map((a) => a.pid)).size, 1);
      assert.notEqual(answers[3]!.pid, answers[0]!.pid);
      assert.equal(answers[4]!.pid, answers[3]!.pid);
      // Each run's scratch folder is gone after it.
      assert.deepEqual(readdirSync(path.join(root, 'warm-scratch')).filter((n) => n.startsWith('run-')), []);
    } finally {
      tools.close();
    }
  });

  test('prewarm starts every process of the pool before any run; the runs then use them, and the start is no use', async () => {
    const tools = new ToolSupervisor([pooledTool({ concurrency: 2 })], root);
    try {
      await tools.init();
      await tools.prewarm('test-warm');
      const homes = readdirSync(path.join(root, 'warm-scratch')).filter((n) => n.startsWith('instance-'));
      assert.equal(homes.length, 2, 'two warm processes, each in its home');
      const [one, two] = await Promise.all([ask(tools, 'a'), ask(tools, 'b')]);
      assert.deepEqual([one.uses, two.uses], [1, 1]);
      assert.notEqual(one.pid, two.pid);
      // No third process was started for them.
      assert.equal(readdirSync(path.join(root, 'warm-scratch')).filter((n) => n.startsWith('instance-')).length, 2);
      // Prewarming a full pool starts nothing more.
      await tools.prewarm('test-warm');
      assert.equal(readdirSync(path.join(root, 'warm-scratch')).filter((n) => n.startsWith('instance-')).length, 2);
    } finally {
      await tools.close();
    }
  });

  test('a process above restartAboveRssMb is replaced after its run', async () => {
    const tools = new ToolSupervisor([pooledTool({ restartAboveRssMb: 0 })], root);
    try {
      await tools.init();
      const first = await ask(tools, 'a');
      const second = await ask(tools, 'b');
      assert.equal(second.uses, 1);
      assert.notEqual(second.pid, first.pid);
    } finally {
      tools.close();
    }
  });

  test('a process that dies during a run fails that run with 422 PROCESSING_FAILED; the next run gets a new one', async () => {
    const tools = new ToolSupervisor([pooledTool()], root);
    try {
      await tools.init();
      const before = await ask(tools, 'a');
      await assert.rejects(ask(tools, 'crash'), (err: unknown) => err instanceof ServiceError && err.code === 'PROCESSING_FAILED' && err.status === 422);
      const after = await ask(tools, 'b');
      assert.notEqual(after.pid, before.pid);
      assert.equal(after.uses, 1);
    } finally {
      tools.close();
    }
  });

  test('a run over the time limit is 504 ENGINE_TIMEOUT and its process is killed; cancelling one is TASK_CANCELLED', async () => {
    const tools = new ToolSupervisor([pooledTool({ timeoutMs: 300 })], root);
    try {
      await tools.init();
      const first = await ask(tools, 'a');
      await assert.rejects(ask(tools, 'sleep'), (err: unknown) => err instanceof ServiceError && err.code === 'ENGINE_TIMEOUT');
      assert.throws(() => process.kill(first.pid, 0), 'the slow process was killed');
      const controller = new AbortController();
      const running = tools.run('test-warm', ({ request }) => request('sleep'), controller.signal);
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(running, (err: unknown) => err instanceof ServiceError && err.code === 'TASK_CANCELLED');
      assert.equal((await ask(tools, 'c')).uses, 1);
    } finally {
      tools.close();
    }
  });

  test('a process that does not say it is ready in time is killed: 504, and the run never starts', async () => {
    const slow = pooledTool({ lifetime: { kind: 'pooled', args: ['-c', `sleep 30; ${LOOP}`], restartAfterUses: 10, restartAboveRssMb: 1000, startTimeoutMs: 200 } });
    const tools = new ToolSupervisor([slow], root);
    try {
      await tools.init();
      let started = false;
      await assert.rejects(
        tools.run('test-warm', async () => {
          started = true;
        }),
        (err: unknown) => err instanceof ServiceError && err.code === 'ENGINE_TIMEOUT',
      );
      assert.equal(started, false);
    } finally {
      tools.close();
    }
  });

  test('past queueLimit a run is refused at once with 503 SERVICE_BUSY and Retry-After; a background run waits, told it is queued', async () => {
    const tools = new ToolSupervisor([pooledTool({ queueLimit: 1 })], root);
    try {
      await tools.init();
      let open!: () => void;
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      // Holds the one slot until the gate opens.
      const holding = tools.run('test-warm', async ({ request }) => {
        const answer = await request('held');
        await gate;
        return answer;
      });
      await new Promise((resolve) => setImmediate(resolve));
      const queued: string[] = [];
      const waiting = ask(tools, 'waiting');
      const refused = await tools.run('test-warm', () => Promise.resolve('ran'), { onQueued: () => queued.push('refused') }).then(
        () => assert.fail('a run beyond the line ran'),
        (err: unknown) => err,
      );
      assert.ok(refused instanceof ServiceError && refused.code === 'SERVICE_BUSY' && refused.status === 503, String(refused));
      assert.match(refused.headers?.['Retry-After'] ?? '', /^[1-9]\d*$/);
      const background = tools.run('test-warm', ({ request }) => request('background'), { background: true, onQueued: () => queued.push('background') });
      assert.deepEqual(queued, ['background'], 'only a run that waits is told so');
      open();
      assert.match(await holding, / held$/);
      assert.equal((await waiting).uses, 2);
      assert.match(await background, / 3 background$/);
    } finally {
      await tools.close();
    }
  });

  test('close() ends every warm process and removes its home', async () => {
    const tools = new ToolSupervisor([pooledTool()], root);
    await tools.init();
    const { pid } = await ask(tools, 'a');
    const homes = readdirSync(path.join(root, 'warm-scratch')).filter((n) => n.startsWith('instance-'));
    assert.equal(homes.length, 1, 'each process has its own home');
    await tools.close();
    assert.throws(() => process.kill(pid, 0));
    assert.deepEqual(readdirSync(path.join(root, 'warm-scratch')), []);
  });
});
