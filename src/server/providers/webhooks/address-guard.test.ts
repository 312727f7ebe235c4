import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { blockedReason, resolveWebhookTarget, selfWebhookPrefixes } from './address-guard.js';
import { postWebhook } from './send.js';

describe('blockedReason: addresses a webhook may not reach', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback range'],
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12 (end)'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT (end)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'IPv6 link-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['2002:7f00:1::', '6to4 of loopback'],
  ])('refuses %s (%s)', (ip) => {
    expect(blockedReason(ip)).not.toBeNull();
  });

  it.each([
    ['93.184.216.34', 'public IPv4'],
    ['8.8.8.8', 'public IPv4'],
    ['172.32.0.1', 'just past 172.16/12'],
    ['100.128.0.1', 'just past CGNAT'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ])('allows %s (%s)', (ip) => {
    expect(blockedReason(ip)).toBeNull();
  });
});

describe('resolveWebhookTarget', () => {
  const noDns = () => Promise.reject(new Error('no DNS in this test'));

  it.each([
    'http://127.0.0.1/hook',
    'http://2130706433/hook',
    'http://127.1/hook',
    'http://0x7f.0.0.1/hook',
    'http://0177.0.0.1/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:169.254.169.254]/hook',
    'http://0/hook',
  ])('refuses the literal address in %s', async (url) => {
    await expect(resolveWebhookTarget(url, false, noDns)).rejects.toThrow();
  });

  it('refuses other schemes and credentials in the URL', async () => {
    await expect(resolveWebhookTarget('file:///etc/passwd', false, noDns)).rejects.toThrow(/http/);
    await expect(resolveWebhookTarget('https://u:p@93.184.216.34/', false, noDns)).rejects.toThrow(
      /credentials/,
    );
  });

  it('refuses a name when any of its addresses is private, and pins the checked address otherwise', async () => {
    const mixed = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await expect(resolveWebhookTarget('https://hooks.example.com/x', false, mixed)).rejects.toThrow(
      /private/,
    );
    const target = await resolveWebhookTarget('https://hooks.example.com/x', false, async () => [
      { address: '93.184.216.34', family: 4 },
    ]);
    expect(target).toMatchObject({ address: '93.184.216.34', family: 4 });
    expect(target.url.hostname).toBe('hooks.example.com');
  });

  it("allows the app's own demo services on a loopback PUBLIC_URL with private addresses off, and nothing beside them", async () => {
    const policy = { allowPrivate: false, selfPrefixes: selfWebhookPrefixes('http://localhost:3000') };
    const loopback = async () => [{ address: '127.0.0.1', family: 4 }];
    const target = await resolveWebhookTarget(
      'http://localhost:3000/demo-hooks/chat-summary',
      policy,
      loopback,
    );
    expect(target).toMatchObject({ address: '127.0.0.1', family: 4 });
    expect(target.url.pathname).toBe('/demo-hooks/chat-summary');
    for (const url of [
      'http://localhost:3001/demo-hooks/chat-summary', // another loopback port
      'http://localhost:30001/demo-hooks/chat-summary',
      'http://127.0.0.1:3000/demo-hooks/chat-summary', // not the address the demos are given
      'https://localhost:3000/demo-hooks/chat-summary',
      'http://localhost:3000/api/admin/stats', // the app's origin, but not a demo service
      'http://localhost:3000/demo-hooks',
      'http://localhost:3000/demo-hooks/../api/auth/me',
      'http://localhost:3000/demo-hooks/%2e%2e/api/auth/me',
      'http://localhost:3000/demo-hooksx/y',
    ]) {
      await expect(resolveWebhookTarget(url, policy, loopback), url).rejects.toThrow(/private|reserved/);
    }
  });

  it('lets private addresses through only when allowed (demo mode)', async () => {
    const target = await resolveWebhookTarget('http://127.0.0.1:9/x', true, noDns);
    expect(target.address).toBe('127.0.0.1');
  });
});

describe('postWebhook', () => {
  it('does not connect to a loopback service in production mode, and does when private addresses are allowed', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits += 1;
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      for (const host of ['127.0.0.1', 'localhost', '2130706433', '127.1']) {
        const outcome = await postWebhook({
          url: `http://${host}:${port}/hook`,
          headers: {},
          body: '{}',
          allowPrivate: false,
        });
        expect(outcome.kind, host).toBe('refused');
      }
      expect(hits).toBe(0);
      const allowed = await postWebhook({
        url: `http://127.1:${port}/hook`,
        headers: {},
        body: '{}',
        allowPrivate: true,
      });
      expect(allowed).toMatchObject({ kind: 'answered', status: 204 });
      expect(hits).toBe(1);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("reaches the app's own demo service with private addresses off, but not another loopback port", async () => {
    const paths: string[] = [];
    const listen = async () => {
      const server = http.createServer((req, res) => {
        paths.push(`${(server.address() as AddressInfo).port}${req.url}`);
        res.writeHead(202).end();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return { server, port: (server.address() as AddressInfo).port };
    };
    const app = await listen();
    const neighbour = await listen();
    const selfPrefixes = selfWebhookPrefixes(`http://127.0.0.1:${app.port}`);
    const post = (url: string) =>
      postWebhook({ url, headers: {}, body: '{}', allowPrivate: false, selfPrefixes });
    try {
      expect(await post(`http://127.0.0.1:${app.port}/demo-hooks/survey-csv`)).toMatchObject({
        kind: 'answered',
        status: 202,
      });
      expect(await post(`http://127.0.0.1:${neighbour.port}/demo-hooks/survey-csv`)).toMatchObject({
        kind: 'refused',
      });
      expect(await post(`http://127.0.0.1:${app.port}/api/workflow-result`)).toMatchObject({
        kind: 'refused',
      });
      expect(paths).toEqual([`${app.port}/demo-hooks/survey-csv`]);
    } finally {
      for (const { server } of [app, neighbour]) await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('connects to the address it checked, not to whatever DNS says later (no rebinding)', async () => {
    const hosts: string[] = [];
    const server = http.createServer((req, res) => {
      hosts.push(String(req.headers.host));
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    let lookups = 0;
    try {
      // The name exists only in this resolver: the connection can only have used the pinned answer.
      const outcome = await postWebhook({
        url: `http://rebind.invalid:${port}/hook`,
        headers: {},
        body: '{}',
        allowPrivate: true,
        resolve: async () => {
          lookups += 1;
          return [{ address: '127.0.0.1', family: 4 }];
        },
      });
      expect(outcome).toMatchObject({ kind: 'answered', status: 200 });
      expect(lookups).toBe(1);
      expect(hosts).toEqual([`rebind.invalid:${port}`]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
