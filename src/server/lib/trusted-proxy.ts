import proxyAddr from '@fastify/proxy-addr';

/**
 * Whether a connection's peer is one of the proxies named in TRUST_PROXY (the list Fastify itself believes
 * X-Forwarded-For from). Headers a client could forge (a request id, a country) are believed only from them.
 */
export function trustedPeer(trustProxy: string | false): (peer: string | undefined) => boolean {
  if (trustProxy === false) return () => false;
  const trusted = proxyAddr.compile(trustProxy.split(',').map((entry) => entry.trim()));
  return (peer) => peer !== undefined && trusted(peer, 0);
}
