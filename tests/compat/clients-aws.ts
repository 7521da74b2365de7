// The AWS CLI as a scenario's user: its configuration files, and `aws s3 ls` output parsed.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWS, baseEnv, ok, type Scenario, url, type User } from './clients-kit.js';

function awsEnv(user: User): Record<string, string> {
  const dir = join(user.home, '.aws');
  if (!existsSync(join(dir, 'config'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config'), '[default]\nregion = us-east-1\noutput = json\ncli_pager =\ns3 =\n  addressing_style = path\n');
    writeFileSync(join(dir, 'credentials'), `[default]\naws_access_key_id = ${user.accessKey}\naws_secret_access_key = ${user.secretKey}\n`);
  }
  return baseEnv(user, {
    AWS_CONFIG_FILE: join(dir, 'config'),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_PAGER: '',
    AWS_MAX_ATTEMPTS: '1',
    AWS_RETRY_MODE: 'standard',
  });
}

/** `aws` and `aws … --output json` as the scenario's user. */
export function awsFor(s: Scenario) {
  const aws = (...args: string[]) => ok(AWS, ['--endpoint-url', url, '--cli-connect-timeout', '5', '--cli-read-timeout', '30', ...args], awsEnv(s.user));
  const awsJson = async <T = Record<string, unknown>>(...args: string[]): Promise<T> => {
    const r = await aws(...args, '--output', 'json');
    return (r.stdout.trim() ? JSON.parse(r.stdout) : {}) as T;
  };
  return { aws, awsJson };
}

/** `aws s3 ls` lines: `2024-01-01 00:00:00       1234 key` and `PRE dir/`. */
export function parseS3Ls(stdout: string): { objects: { size: number; key: string }[]; prefixes: string[] } {
  const objects: { size: number; key: string }[] = [];
  const prefixes: string[] = [];
  for (const line of stdout.split('\n')) {
    const pre = /^\s+PRE (.*)$/.exec(line);
    if (pre) prefixes.push(pre[1]!);
    const obj = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+(\d+) (.*)$/.exec(line);
    if (obj) objects.push({ size: Number(obj[1]), key: obj[2]! });
  }
  return { objects, prefixes };
}
