import { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '#server/config.js';
import { assertStorageKey, isStorageKey, newStorageKey } from './keys.js';
import type { FileStorage } from './types.js';

/** Every object of the app sits under this prefix, so a bucket can be shared with other things. */
const PREFIX = 'results/';

const isMissing = (sdk: typeof S3Sdk, err: unknown) =>
  err instanceof sdk.S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/**
 * A bucket of any S3-compatible service (AWS S3, Cloudflare R2, MinIO). Bodies go up and come down as
 * streams of the SDK's own HTTP client; the credentials stay inside the client, never in a log line or an
 * error this module makes.
 */
export function s3FileStorage(config: S3StorageConfig): FileStorage {
  // The SDK is loaded here, not imported with this module: it is a fifth of the server's start (about 0.25 s of
  // CPU), which a server that keeps its files in DATA_DIR never needs.
  const ready = import('@aws-sdk/client-s3').then((sdk) => ({
    sdk,
    client: new sdk.S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // A few quick retries of a throttled or failed call; a store that stays down is the caller's error.
      maxAttempts: 3,
    }),
  }));
  // Reported by the first call that needs it, not as an unhandled rejection at start.
  ready.catch(() => undefined);
  const Bucket = config.bucket;
  const objectKey = (key: string) => {
    assertStorageKey(key);
    return `${PREFIX}${key}`;
  };

  async function get(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    const { sdk, client } = await ready;
    try {
      const answer = await client.send(
        new sdk.GetObjectCommand({
          Bucket,
          Key: objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      // In Node the SDK's body is the HTTP response itself, a Readable.
      return answer.Body instanceof Readable ? answer.Body : null;
    } catch (err) {
      if (isMissing(sdk, err)) return null;
      throw err;
    }
  }

  return {
    async save(bytes, extension) {
      const key = newStorageKey(extension);
      const { sdk, client } = await ready;
      await client.send(
        new sdk.PutObjectCommand({
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
      const { sdk, client } = await ready;
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return head.ContentLength ?? null;
      } catch (err) {
        if (isMissing(sdk, err)) return null;
        throw err;
      }
    },
    stream: get,
    async remove(key) {
      // S3 answers a delete of a missing object with success as well.
      const { sdk, client } = await ready;
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async keys() {
      const { sdk, client } = await ready;
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket, Prefix: PREFIX, ContinuationToken }),
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
