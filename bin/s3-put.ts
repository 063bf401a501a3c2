/**
 * Uploads a file to S3; by default to the local cloud of `npm start` (http://localhost:4566):
 *   npm run s3:put -- ref.mp4 s3://onair-local-autoabr/refs/ref.mp4
 * Against AWS, use the AWS CLI (`aws s3 cp`).
 */
import { readFile } from 'node:fs/promises';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '../core/aws';

const [file, target] = process.argv.slice(2);
const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(target ?? '');
if (!file || !match) {
  console.error('usage: npm run s3:put -- <file> s3://<bucket>/<key>');
  process.exit(2);
}
process.env.AWS_ENDPOINT_URL_S3 ??= 'http://localhost:4566';
process.env.AWS_REGION ??= 'us-east-1';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
const body = await readFile(file);
await s3Client().send(new PutObjectCommand({ Bucket: match[1], Key: match[2], Body: body }));
console.log(`uploaded ${file} (${body.length} bytes) to ${target}`);
