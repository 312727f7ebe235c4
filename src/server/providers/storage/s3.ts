import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '#server/config.js';
import { assertStorageKey, isStorageKey, newStorageKey } from './keys.js';
import type { FileStorage } from './types.js';

/** Every object of the app sits under this prefix, so a bucket can be shared with other things. */
const PREFIX = 'results/';

const isMissing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/**
 * A bucket of any S3-compatible service (AWS S3, Cloudflare R2, MinIO). Bodies go up and come down as
 * streams of the SDK's own HTTP client; the credentials stay inside the client, never in a log line or an
 * error this module makes.
 */
export function s3FileStorage(config: S3StorageConfig): FileStorage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // A few quick retries of a throttled or failed call; a store that stays down is the caller's error.
    maxAttempts: 3,
  });
  const Bucket = config.bucket;
  const objectKey = (key: string) => {
    assertStorageKey(key);
    return `${PREFIX}${key}`;
  };

  async function get(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    try {
      const answer = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      // In Node the SDK's body is the HTTP response itself, a Readable.
      return answer.Body instanceof Readable ? answer.Body : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  return {
    async save(bytes, extension) {
      const key = newStorageKey(extension);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: 'application/octet-stream',
        }),
      );
      return key;
    },
    async read(key) {
      const body = await get(key);
      if (!body) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return head.ContentLength ?? null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    stream: get,
    async remove(key) {
      // S3 answers a delete of a missing object with success as well.
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async keys() {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: PREFIX, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(PREFIX.length) ?? '';
          if (isStorageKey(key)) keys.push(key);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys;
    },
  };
}
