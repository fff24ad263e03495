import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited, freePort, waitForExit } from './processes.js';

/**
 * nginx (Debian's package) as the load balancer in front of service instances, on a free loopback port, with
 * the proxy settings docs/deployment.md gives users: the repository's deploy/nginx/pdfservice-proxy.conf is
 * included as it is, and the upstream has the zone and server parameters of deploy/nginx/pdfservice.conf, so the
 * test proves the files users copy.
 */

const NGINX = '/usr/sbin/nginx';
const PROXY_SNIPPET = fileURLToPath(new URL('../../../deploy/nginx/pdfservice-proxy.conf', import.meta.url));
const BALANCE_SNIPPET = fileURLToPath(new URL('../../../deploy/nginx/pdfservice-balance.conf', import.meta.url));
const SITE = fileURLToPath(new URL('../../../deploy/nginx/pdfservice.conf', import.meta.url));

/** The site's upstream settings users copy: its `zone` line and the parameters of its first `server` (max_conns, max_fails...). */
async function documentedUpstream(): Promise<{ zone: string; serverParameters: string }> {
  const site = await readFile(SITE, 'utf8');
  const upstream = /upstream pdfservice \{([^}]*)\}/.exec(site)?.[1] ?? '';
  const zone = /^\s*(zone [^;]+;)/m.exec(upstream)?.[1];
  const serverParameters = /^\s*server\s+\S+\s+([^;]+);/m.exec(upstream)?.[1];
  if (!zone || !serverParameters) throw new Error(`${SITE}: no zone or server line in its upstream`);
  return { zone, serverParameters };
}

export interface Nginx {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Replaces the instances behind it and reloads (a new process on the same port). */
  setUpstreams(upstreams: readonly string[]): Promise<void>;
  log(): Promise<string>;
  dispose(): Promise<void>;
}

function config(runDir: string, port: number, upstreams: readonly string[], documented: { zone: string; serverParameters: string }): string {
  const servers = upstreams.map((u) => `    server ${u} ${documented.serverParameters};`).join('\n');
  return `# Written by test/helpers/nginx.ts
daemon off;
# One process: it dies with the test (a master's workers would outlive a SIGKILLed master).
master_process off;
pid ${runDir}/nginx.pid;
error_log ${runDir}/error.log info;
events { worker_connections 1024; }
http {
  access_log ${runDir}/access.log;
  client_body_temp_path ${runDir}/tmp/body;
  proxy_temp_path ${runDir}/tmp/proxy;
  fastcgi_temp_path ${runDir}/tmp/fastcgi;
  uwsgi_temp_path ${runDir}/tmp/uwsgi;
  scgi_temp_path ${runDir}/tmp/scgi;
  include ${BALANCE_SNIPPET};
  upstream pdfservice {
    hash $pdfservice_affinity consistent;
    ${documented.zone}
${servers}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location /pdfservice/ {
      include ${PROXY_SNIPPET};
      proxy_pass http://pdfservice;
    }
  }
}
`;
}

export async function startNginx(upstreams: readonly string[]): Promise<Nginx> {
  const runDir = await mkdtemp(path.join(tmpdir(), 'pdfservice-nginx-'));
  // nginx makes its temporary folders, not their parent (unused here: nothing is buffered, by the proxy settings).
  await mkdir(path.join(runDir, 'tmp'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const output: string[] = [];
  const conf = path.join(runDir, 'nginx.conf');

  const launch = async (list: readonly string[]): Promise<void> => {
    await writeFile(conf, config(runDir, port, list, await documentedUpstream()));
    // -e: errors before the configuration is read go to stderr, not to /var/log/nginx.
    const proc = spawn('setpriv', ['--pdeathsig=KILL', '--', NGINX, '-p', runDir, '-c', conf, '-e', 'stderr'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    proc.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (exited(proc)) throw new Error(`nginx exited (${proc.exitCode ?? proc.signalCode}):\n${output.join('')}${await readFile(path.join(runDir, 'error.log'), 'utf8').catch(() => '')}`);
      try {
        // Any answer means it listens (the instances behind it may not be up yet: 502).
        await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    proc.kill('SIGKILL');
    throw new Error(`nginx did not answer within 30 s:\n${output.join('')}`);
  };

  const stop = async (): Promise<void> => {
    if (!child || exited(child)) return;
    child.kill('SIGQUIT'); // graceful: requests under way finish
    if (!(await waitForExit(child, 5000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 5000);
    }
  };

  try {
    await launch(upstreams);
  } catch (err) {
    await rm(runDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async setUpstreams(list) {
      await stop();
      await launch(list);
    },
    log: async () => output.join('') + (await readFile(path.join(runDir, 'error.log'), 'utf8').catch(() => '')),
    async dispose() {
      await stop();
      await rm(runDir, { recursive: true, force: true });
    },
  };
}
