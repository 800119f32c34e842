import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver ships CommonJS without type declarations.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The environment that points Reelsmith at this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A real S3-protocol server (s3rver) on a random loopback port, with one empty bucket, files in a temp directory. */
export async function startS3TestServer(bucket = 'reelsmith-test'): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'reelsmith-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      // s3rver's fixed development credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
