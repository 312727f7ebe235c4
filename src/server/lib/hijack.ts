import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Takes the response over from Fastify (an event stream, an MCP answer the SDK writes itself) with the headers
 * the hooks have already given it: its security set and its request id. Fastify holds those until it writes
 * the answer itself, which a hijacked response never lets it do, so they are handed to the raw response here,
 * where Node merges them into whatever `writeHead` the new owner calls.
 */
export function hijackReply(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(name, value);
  }
  return res;
}
