import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fromProjectRoot } from '../lib/project-root.js';
import { vi } from 'vitest';

const NGINX = '/usr/sbin/nginx';
/** The documented server block (docs/deploy.md), which the test runs exactly as an operator installs it. */
const DOCUMENTED_SERVER_BLOCK = fromProjectRoot('docs/deploy/nginx/flujo.conf');

/** One line of the test's access log: which instance answered what. */
interface ProxiedRequest {
  method: string;
  uri: string;
  status: number;
  /** `host:port` of the instance that answered; several, comma-separated, when nginx moved on from one. */
  upstream: string;
}

export interface Nginx {
  url: string;
  /** Every request logged so far (nginx logs a request when it ends: a stream once it closes). */
  requests(): ProxiedRequest[];
  /** What nginx wrote to its error log (to explain a failure). */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx in front of `upstreams`, round-robin, running as the current user from a folder of its own:
 * the test writes only the upstream block, the listen line and a small nginx.conf that includes the
 * documented server block as it is. A missing nginx fails the caller.
 */
export async function startNginx(options: {
  dir: string;
  port: number;
  upstreams: string[];
}): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx (.ci/run does)`);
  const { dir, port } = options;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'upstream.conf'),
    `upstream flujo {\n${options.upstreams.map((u) => `    server ${u};\n`).join('')}    keepalive 8;\n}\n`,
  );
  // Found by the server block's `include flujo-listen.conf`, relative to this nginx.conf.
  writeFileSync(join(dir, 'flujo-listen.conf'), `listen 127.0.0.1:${port};\n`);
  const temp = (name: string) => join(dir, `tmp-${name}`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      `  client_body_temp_path ${temp('body')};`,
      `  proxy_temp_path ${temp('proxy')};`,
      `  fastcgi_temp_path ${temp('fastcgi')};`,
      `  uwsgi_temp_path ${temp('uwsgi')};`,
      `  scgi_temp_path ${temp('scgi')};`,
      "  log_format flujo_test '$request_method\\t$request_uri\\t$status\\t$upstream_addr';",
      `  access_log ${join(dir, 'access.log')} flujo_test;`,
      '  include upstream.conf;',
      `  include ${DOCUMENTED_SERVER_BLOCK};`,
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcessByStdio<null, null, Readable> = spawn(
    NGINX,
    ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const read = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '');
  // Done once nginx listens or has exited (a bad configuration): retried until then.
  const up = await vi
    .waitFor(
      async () => {
        if (child.exitCode !== null) return false;
        if (!(await listening(port))) throw new Error('nginx is not listening yet');
        return true;
      },
      { timeout: 10_000, interval: 50 },
    )
    .catch(() => false);
  if (!up) {
    child.kill('SIGKILL');
    throw new Error(`nginx did not start\n${stderr}\n${read('error.log')}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () =>
      read('access.log')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [method = '', uri = '', status = '0', upstream = ''] = line.split('\t');
          return { method, uri, status: Number(status), upstream };
        }),
    errors: () => `${stderr}${read('error.log')}`,
    async stop() {
      if (child.exitCode === null) {
        // QUIT: finish the requests in flight (event streams are cut), then exit.
        child.kill('SIGQUIT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        child.kill('SIGKILL');
      }
      await exited;
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
