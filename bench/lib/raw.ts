import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './paths.js';
import { CPUS, pinned } from './server.js';

/**
 * Starts the raw node:http server on the server's core; answers a stop function. With `contentEncoding`, the
 * body file holds bytes compressed in that coding, sent as they are with their Content-Encoding.
 */
export async function startRawServer(
  port: number,
  bodyFile: string,
  contentType: string,
  contentEncoding?: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const [command, args] = pinned(CPUS.server, process.execPath, [
    join(ROOT, 'bench', 'lib', 'raw-server.mjs'),
    String(port),
    bodyFile,
    contentType,
    ...(contentEncoding ? [contentEncoding] : []),
  ]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`raw server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await done;
    },
  };
}
