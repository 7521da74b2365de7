// aws-cli's `s3api` and python3 (boto3) run as ALICE against a test server: the environment and
// the three calls the bucket-configuration client suites (lifecycle, object lock) share.
import { execFile } from 'node:child_process';
import { ALICE } from './server.js';

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** `endpoint()` is read at each call (the server starts in beforeAll); `home` holds no AWS config. */
export function s3apiCli(endpoint: () => string, home: () => string) {
  const env = (): Record<string, string> => ({
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home(),
    LANG: 'C.UTF-8',
    AWS_ACCESS_KEY_ID: ALICE.accessKey,
    AWS_SECRET_ACCESS_KEY: ALICE.secretKey,
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_PAGER: '',
    AWS_MAX_ATTEMPTS: '1',
  });
  const exec = (file: string, args: string[]): Promise<Ran> =>
    new Promise((resolve) => {
      execFile(file, args, { env: env(), timeout: 60_000, encoding: 'utf8' }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    });
  /** `aws s3api …` that must succeed: its JSON output ({} when none). */
  const aws = async (...args: string[]): Promise<Record<string, unknown>> => {
    const r = await exec('/usr/bin/aws', ['--endpoint-url', endpoint(), '--output', 'json', 's3api', ...args]);
    if (r.code !== 0) throw new Error(`aws ${args.join(' ')} → ${r.code}\n${r.stderr}`);
    return r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : {};
  };
  /** An `aws s3api` call that must fail: its exit code and the S3 error code it printed. */
  const awsFails = async (...args: string[]): Promise<[number, string | undefined]> => {
    const r = await exec('/usr/bin/aws', ['--endpoint-url', endpoint(), 's3api', ...args]);
    return [r.code, /\(([A-Za-z]+)\)/.exec(r.stderr)?.[1]];
  };
  return { exec, aws, awsFails };
}
