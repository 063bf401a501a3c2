/**
 * A minimal stand-in answering just enough of each AWS protocol for the SDK to accept the answer,
 * and remembering what arrived (method, URL, headers, a hash of the body) to compare with what was sent.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrived {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodySha256: string;
  bodyLength: number;
}

export interface AwsTarget {
  url: string;
  arrived: Arrived[];
  close(): Promise<void>;
}

export async function startAwsTarget(objectBody = 'hello'): Promise<AwsTarget> {
  const arrived: Arrived[] = [];
  const server = createServer((req, res) => {
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      arrived.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bodySha256: hash.digest('hex'),
        bodyLength: body.length,
      });
      const target = req.headers['x-amz-target'];
      if (typeof target === 'string') return json(res, answerJson(target, body));
      if (String(req.headers['content-type']).includes('x-www-form-urlencoded'))
        return xml(res, '<Response/>');
      return answerS3(req.method ?? 'GET', req.url ?? '/', res, objectBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answerJson(target: string, body: Buffer): unknown {
  const operation = target.split('.').pop();
  if (operation === 'SendMessage') {
    const input = JSON.parse(body.toString('utf8')) as { MessageBody: string };
    return { MessageId: '1', MD5OfMessageBody: createHash('md5').update(input.MessageBody).digest('hex') };
  }
  if (operation === 'GetParameters') return { Parameters: [], InvalidParameters: [] };
  if (operation === 'RunTask') return { tasks: [], failures: [] };
  return {};
}

function answerS3(method: string, url: string, res: import('node:http').ServerResponse, objectBody: string) {
  const path = url.split('?')[0]!;
  const isObject = path.split('/').filter(Boolean).length > 1;
  if (method === 'POST' && url.includes('?delete')) return xml(res, '<DeleteResult></DeleteResult>');
  if (method === 'GET' && !isObject)
    return xml(res, '<ListBucketResult><KeyCount>0</KeyCount></ListBucketResult>');
  if (method === 'GET') {
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': Buffer.byteLength(objectBody),
    });
    return res.end(objectBody);
  }
  res.writeHead(200, { etag: '"0"', 'content-length': 0 });
  res.end();
}

function json(res: import('node:http').ServerResponse, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(200, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function xml(res: import('node:http').ServerResponse, body: string) {
  res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
