import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/scripts/database";

// A real S3-protocol server in the test process (@20minutes/s3rver: files on
// disk under a temporary directory), so the S3 photo store is tested over
// HTTP with the AWS SDK exactly as against a real bucket.

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  directory: string;
  stop(): Promise<void>;
}

export async function startS3(bucket = "petstore-test"): Promise<TestS3> {
  // The package ships no types; the little used of it is typed above.
  const moduleName = "@20minutes/s3rver";
  const { default: S3rver } = (await import(/* @vite-ignore */ moduleName)) as { default: S3rverClass };
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "petstore-s3-"));
  const port = await freePort();
  const server = new S3rver({ address: "127.0.0.1", port, silent: true, directory, configureBuckets: [{ name: bucket }] });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's own credentials.
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    directory,
    stop: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
