// The physical limit of a JSON endpoint on this machine: node:http answering precomputed bytes.
// Usage: node bench/lib/raw-server.mjs <port> <body file> <content-type> [content-encoding]
// With a content-encoding, the body file holds bytes already compressed in it, sent as they are.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, bodyFile, contentType, contentEncoding] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = {
  'content-type': contentType,
  'content-length': String(body.length),
  ...(contentEncoding ? { 'content-encoding': contentEncoding, vary: 'Accept-Encoding' } : {}),
};

createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'));
